/**
 * A finite number's decimal text without an exponent, from the shortest digits that round-trip (String's):
 * 1e21 → "1000000000000000000000", 1.5e-7 → "0.00000015". Numbers String writes plainly come back unchanged.
 */
export function decimalText(n: number): string {
  const text = String(n);
  // Most numbers have no exponent: one scan instead of a regular expression (writers call this per value).
  if (!text.includes('e')) return text;
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const [, sign, lead, rest = '', exponent] = m;
  const digits = lead! + rest;
  // The value is 0.<digits> × 10^point: the decimal point goes `point` digits in.
  const point = Number(exponent) + 1;
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
