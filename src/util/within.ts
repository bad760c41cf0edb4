// A promise with a deadline, for callers that must answer in time whatever the work they wait on does.

export class DeadlineError extends Error {}

/** The promise's outcome, or a DeadlineError once `ms` have passed (the work itself goes on). */
export function withinMs<T>(work: Promise<T>, ms: number, what = 'The work'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
