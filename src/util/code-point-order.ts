/**
 * Compares strings by code point, as the databases order text. JavaScript's `<` compares UTF-16 code units, which
 * puts a character above U+FFFF (two surrogates, 0xD800–0xDFFF) before U+E000–U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

// Surrogates move above U+E000–U+FFFF, which move down into the gap the surrogates leave.
function codePointRank(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit;
}
