// PostgreSQL text cannot hold U+0000, and the inputs refuse it on both dialects, so no stored value has one. A
// lookup by such a value finds nothing: answered here, because on PostgreSQL asking would fail (22021), and both
// dialects must give the same answer.

export function holdsNul(...values: (string | undefined)[]): boolean {
  return values.some((v) => v?.includes('\u0000'));
}

/** The values that could match something stored. */
export function withoutNul(values: string[]): string[] {
  return values.some((v) => v.includes('\u0000')) ? values.filter((v) => !v.includes('\u0000')) : values;
}
