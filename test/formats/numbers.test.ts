// The export's number text written from integer digits is the text String() gives of the rounded double.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DECIMAL,
  decimalEnd,
  isDecimal,
  parseNumber,
  pixelText,
  readDecimal,
  unitText,
} from '../../src/formats/numbers.js';
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

describe('readDecimal', () => {
  /** readDecimal over the whole text: its value when it read every byte, else NaN (a caller's field ends there). */
  const whole = (t: string) => {
    const bytes = Buffer.from(t, 'latin1');
    const v = readDecimal(bytes, 0, bytes.length);
    return decimalEnd === bytes.length ? v : NaN;
  };

  it('gives the double parseNumber gives, for every text without spaces', () => {
    const text = fc
      .array(fc.constantFrom('0', '1', '5', '9', '.', '+', '-', 'e', 'E', 'x', ','), { maxLength: 24 })
      .map((cs) => cs.join(''));
    const printed = fc
      .oneof(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.double({ min: -1e4, max: 1e4, noNaN: true }),
        fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 1e4),
      )
      .chain((v) => fc.constantFrom(String(v), v.toFixed(2), v.toExponential(), v.toPrecision(17)));
    fc.assert(
      fc.property(fc.oneof(text, printed), (t) => {
        expect(Object.is(whole(t), parseNumber(t)) || (Number.isNaN(whole(t)) && Number.isNaN(parseNumber(t)))).toBe(
          true,
        );
      }),
      { numRuns: 20_000 },
    );
    for (const t of ['0.1', '-0', '1e308', '1e309', '9007199254740993', '123456789012345.6', '.5', '5.', '1e-400'])
      expect([t, whole(t)]).toEqual([t, parseNumber(t)]);
  });

  it('stops at the first byte that cannot continue the number', () => {
    const bytes = Buffer.from('12.5,7');
    expect(readDecimal(bytes, 0, bytes.length)).toBe(12.5);
    expect(decimalEnd).toBe(4);
    // The end given, not the buffer's, bounds it.
    expect(readDecimal(bytes, 5, 5)).toBeNaN();
  });
});
