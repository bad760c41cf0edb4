// The export's number text written from integer digits is the text String() gives of the rounded double.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DECIMAL, isDecimal, pixelText, unitText } from '../../src/formats/numbers.js';
import { decimalText } from '../../src/util/decimal-text.js';

const slow = (v: number, scale: number) => decimalText(Math.round(v * scale) / scale || 0);
const values = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: -5, max: 5, noNaN: true }),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 1e4),
);

describe('pixelText and unitText', () => {
  it('equal decimalText of the rounded double for any value', () => {
    fc.assert(
      fc.property(values, (v) => {
        expect(pixelText(v)).toBe(slow(v, 1e9));
        expect(unitText(v)).toBe(slow(v, 1e12));
      }),
      { numRuns: 20_000 },
    );
    for (const v of [0, -0, 1e-10, -1e-10, 0.5, 1919.999999999, 123.4, 1e15, -2.5e-9, 999999.9999999999])
      expect([pixelText(v), unitText(v)]).toEqual([slow(v, 1e9), slow(v, 1e12)]);
  });
});

describe('isDecimal', () => {
  it('accepts exactly what the DECIMAL expression accepts', () => {
    const text = fc
      .array(fc.constantFrom('0', '7', '9', '.', '+', '-', 'e', 'E', ' ', 'x', '/', ':'), { maxLength: 8 })
      .map((cs) => cs.join(''));
    fc.assert(
      fc.property(fc.oneof(text, fc.string()), (t) => {
        expect(isDecimal(t)).toBe(DECIMAL.test(t));
      }),
      { numRuns: 20_000 },
    );
    for (const t of ['', '.', '1.', '.5', '-1.5e-7', '1e', 'e1', '+.e1', '1.e5', '00', '1e+'])
      expect([t, isDecimal(t)]).toEqual([t, DECIMAL.test(t)]);
  });
});
