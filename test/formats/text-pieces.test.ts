// The export's bytes written digit by digit are the texts numbers.ts gives (which numbers.test.ts checks against
// String()), and pieces are cut where they should be.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIRST_PIECE_CHARS, PIECE_CHARS } from '../../src/formats/export-view.js';
import { pixelText, plainText, unitText } from '../../src/formats/numbers.js';
import { TextPieces } from '../../src/formats/text-pieces.js';

const values = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: -5, max: 5, noNaN: true }),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 1e4),
  fc.integer({ min: 0, max: 1e6 }).map((n) => n / 1e6),
  fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 1e9),
  fc.constantFrom(0, -0, 0.5, 1e-10, 1e-7, 0.1 + 0.2, 123456.7890123, 999999.9999999999, 2 ** 53, -(2 ** 31), 1e21),
);

const written = (write: (out: TextPieces) => void) => {
  const out = new TextPieces();
  write(out);
  return out.take().toString('utf8');
};

describe('TextPieces', () => {
  it('writes pixelText, unitText, plainText and String of integers byte for byte', () => {
    fc.assert(
      fc.property(values, (v) => {
        expect(written((o) => o.rounded(v, 9))).toBe(pixelText(v));
        expect(written((o) => o.rounded(v, 12))).toBe(unitText(v));
        expect(written((o) => o.plain(v))).toBe(plainText(v));
        const n = Math.trunc(v);
        if (Number.isSafeInteger(n) && !Object.is(n, -0)) expect(written((o) => o.integer(n))).toBe(String(n));
      }),
      { numRuns: 5000 },
    );
  });

  it('writes any text as UTF-8 and grows past a piece for a long row', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (s) => {
        expect(written((o) => o.text('a').text(s).char(10))).toBe(`a${s}\n`);
      }),
    );
    const long = 'é'.repeat(PIECE_CHARS * 2);
    expect(written((o) => o.text(long))).toBe(long);
  });

  it('is full after FIRST_PIECE_CHARS bytes, then after PIECE_CHARS', () => {
    const out = new TextPieces();
    out.text('x'.repeat(FIRST_PIECE_CHARS - 1));
    expect(out.full).toBe(false);
    out.char(120);
    expect(out.full).toBe(true);
    expect(out.take().length).toBe(FIRST_PIECE_CHARS);
    out.text('x'.repeat(FIRST_PIECE_CHARS));
    expect(out.full).toBe(false);
    out.text('x'.repeat(PIECE_CHARS));
    expect(out.full).toBe(true);
  });
});
