// Values ready at once or later: the hot storage routes answer without a promise when the row cache can.
export type MaybePromise<T> = T | Promise<T>;

/** `f` applied to the value: at once when it is ready, else once it resolves (a rejection passes through). */
export function andThen<T, R>(value: MaybePromise<T>, f: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(f) : f(value);
}
