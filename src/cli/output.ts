import { cliIo } from './io.js';

// Every admin command prints one JSON object with --json, a readable line otherwise.
export function printResult(json: boolean, value: unknown, line: string): void {
  cliIo().stdout.write(json ? `${JSON.stringify(value)}\n` : `${line}\n`);
}
