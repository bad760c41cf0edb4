// Values ready at once or later: the hot storage routes answer without a promise when the row cache can, which saves
// 9–14% of a storage request against plain async (re-measured: src/runtime/README.md).
export type MaybePromise<T> = T | Promise<T>;

/** `f` applied to the value: at once when it is ready, else once it resolves (a rejection passes through). */
export function andThen<T, R>(value: MaybePromise<T>, f: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(f) : f(value);
}
