import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalText } from '../../src/util/decimal-text.js';

describe('decimalText', () => {
  it.each([
    [7, '7'],
    [-7, '-7'],
    [0.5, '0.5'],
    [1e21, '1000000000000000000000'],
    [1.5e21, '1500000000000000000000'],
    [-2.5e-7, '-0.00000025'],
    [1e-7, '0.0000001'],
    [123456789012345680000, '123456789012345680000'],
    [1.2345e22, '12345000000000000000000'],
  ])('%s → %s', (n, text) => expect(decimalText(n)).toBe(text));

  it("property: plain decimal text that reads back as the same number, and String's text when that has no exponent", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const text = decimalText(n);
        expect(text).toMatch(/^-?\d+(\.\d+)?$/);
        expect(Number(text)).toBe(n === 0 ? 0 : n);
        if (!/e/.test(String(n))) expect(text).toBe(String(n));
      }),
      { numRuns: 5000 },
    );
  });
});
