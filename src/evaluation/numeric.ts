/** Numeric constants and helpers shared by the metrics, matching NumPy's behaviour where it matters. */

/** `np.finfo('float').eps`: the references widen every threshold comparison by it. */
export const EPS = 2.220446049250313e-16;

/** `np.mean` of a list: NaN for an empty list, as NumPy gives (with a warning). */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}
