/** Bad evaluator input: the file, the line when there is one, and why; the CLI prints it as `file:line: reason`. */
export class InputError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly reason: string,
  ) {
    super(`${file}${line === undefined ? '' : `:${line}`}: ${reason}`);
    this.name = 'InputError';
  }
}
