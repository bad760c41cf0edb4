// JSON text from bytes that may not be UTF-8. Decoding would turn each bad byte into U+FFFD, a real character:
// a filename with bad bytes would become a different, valid filename. Instead each bad byte becomes the JSON
// escape `\uDFFF`, a lone surrogate, which no validator of UTF-8 text accepts (inside a string), or a syntax
// error (outside one), so the request is refused where the bad byte was. Pure.
import { isUtf8 } from 'node:buffer';

const MARK = Buffer.from('\\uDFFF', 'latin1');

/** Length of the well-formed UTF-8 sequence at `i`, or 0 when the byte there does not start one. */
function sequenceLength(b: Uint8Array, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < b.length && b[i + k]! >= lo && b[i + k]! <= hi;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const [lo, hi] = c === 0xe0 ? [0xa0, 0xbf] : c === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const [lo, hi] = c === 0xf0 ? [0x90, 0xbf] : c === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

export function utf8OrMarked(bytes: Buffer): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  const parts: Buffer[] = [];
  let from = 0;
  let i = 0;
  while (i < bytes.length) {
    const n = sequenceLength(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    parts.push(bytes.subarray(from, i), MARK);
    from = ++i;
  }
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts).toString('utf8');
}
