// The stored box formats give back exactly the doubles they were given: every bit, NaN (an absent confidence),
// -0, huge and tiny values included, whichever form the encoder picked for each column.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBoxes, encodeBoxes, type BoxFormat } from '../../src/detections/run-codec.js';
import { BOX_STRIDE, type RunBoxes } from '../../src/detections/run-types.js';
import { validateRun, type ValidatedRun } from '../../src/detections/validate-run.js';
import { largeRun } from '../../bench/detection-workloads.js';

const FORMATS: BoxFormat[] = ['doubles', 'columns'];

function runOf(values: number[]): RunBoxes {
  const count = values.length / BOX_STRIDE;
  return { headers: [{ id: 't', n: count }], columns: Float64Array.from(values), count };
}

function expectSameBits(actual: Float64Array, expected: Float64Array) {
  expect(actual.length).toBe(expected.length);
  const a = new BigUint64Array(Float64Array.from(actual).buffer);
  const e = new BigUint64Array(Float64Array.from(expected).buffer);
  // NaN payloads may differ between NaNs; anything else must match bit for bit.
  const differs = (i: number) => (Number.isNaN(expected[i]!) ? !Number.isNaN(actual[i]!) : a[i] !== e[i]);
  let i = 0;
  while (i < e.length && !differs(i)) i++;
  expect(
    i < e.length
      ? `value ${i}: ${Object.is(actual[i], -0) ? '-0' : actual[i]} for ${Object.is(expected[i], -0) ? '-0' : expected[i]}`
      : 'all equal',
  ).toBe('all equal');
}

// Columns as producers send them: integers over a power of ten, sometimes with one odd value anywhere in the column
// (a finer decimal, -0, NaN, a value beyond 32 bits, any double), and sometimes arbitrary doubles.
const odd = fc.oneof(
  fc.constantFrom(-0, NaN, Infinity, -Infinity, 2 ** 31, -(2 ** 31) - 1, 0.1 + 0.2, 1e-300),
  fc.double(),
);
const decimalColumn = (count: number) =>
  fc
    .record({
      digits: fc.integer({ min: 0, max: 9 }),
      magnitude: fc.constantFrom(1, 100, 200, 1e4, 40_000, 2 ** 31 - 1),
      odd: fc.option(fc.record({ at: fc.nat({ max: count - 1 }), value: odd }), { nil: undefined }),
      finerFrom: fc.option(fc.nat({ max: count - 1 }), { nil: undefined }),
    })
    .chain(({ digits, magnitude, odd: oddValue, finerFrom }) =>
      fc.array(fc.integer({ min: -magnitude, max: magnitude }), { minLength: count, maxLength: count }).map((ints) => {
        const values = ints.map((n, i) =>
          finerFrom !== undefined && i >= finerFrom ? n / 10 ** (digits + 1) : n / 10 ** digits,
        );
        if (oddValue) values[oddValue.at] = oddValue.value;
        return values;
      }),
    );
const anyColumn = (count: number) => fc.array(fc.double(), { minLength: count, maxLength: count });
const runBoxes = fc.integer({ min: 1, max: 150 }).chain((count) =>
  fc
    .array(fc.oneof({ arbitrary: decimalColumn(count), weight: 4 }, { arbitrary: anyColumn(count), weight: 1 }), {
      minLength: BOX_STRIDE,
      maxLength: BOX_STRIDE,
    })
    .map((columns) => {
      const values: number[] = [];
      for (let i = 0; i < count; i++) for (const column of columns) values.push(column[i]!);
      return runOf(values);
    }),
);

describe('stored box formats', () => {
  for (const format of FORMATS) {
    it(`${format}: decoding gives back every double it was given, also from an unaligned slice`, () => {
      fc.assert(
        fc.property(runBoxes, fc.integer({ min: 0, max: 7 }), (run, shift) => {
          const blob = encodeBoxes(run, format);
          expectSameBits(decodeBoxes(blob), run.columns);
          // Drivers hand out slices of larger buffers at any offset.
          const host = Buffer.alloc(blob.length + shift);
          blob.copy(host, shift);
          expectSameBits(decodeBoxes(host.subarray(shift)), run.columns);
        }),
        { numRuns: 300 },
      );
    });
  }

  it('columns stores a normalised run printed with six decimals in under 45% of the doubles, exactly', () => {
    const run = validateRun(largeRun('k', 'r', 'normalized', 200, 50)) as ValidatedRun;
    const doubles = encodeBoxes(run.boxes, 'doubles');
    const columns = encodeBoxes(run.boxes, 'columns');
    expect(doubles.length).toBe(8 + run.boxes.count * BOX_STRIDE * 8);
    expect(columns.length).toBeLessThan(0.45 * doubles.length);
    expectSameBits(decodeBoxes(columns), run.boxes.columns.subarray(0, run.boxes.count * BOX_STRIDE));
  });

  it('columns keeps pixel boxes turned normalised (not decimals) as doubles and still shrinks the rest', () => {
    const run = validateRun(largeRun('k', 'r', 'pixel', 200, 50)) as ValidatedRun;
    const columns = encodeBoxes(run.boxes, 'columns');
    const count = run.boxes.count;
    // x, y, w, h as doubles; frame and timestamp in 16 bits, confidence in 32; plus headers and alignment.
    expect(columns.length).toBeGreaterThanOrEqual(count * (4 * 8 + 2 + 4 + 2));
    expect(columns.length).toBeLessThan(count * BOX_STRIDE * 8);
    expectSameBits(decodeBoxes(columns), run.boxes.columns.subarray(0, count * BOX_STRIDE));
  });

  it('a column that looks coarser in its first boxes than later is still stored exactly', () => {
    const values: number[] = [];
    for (let i = 0; i < 200; i++)
      for (let c = 0; c < BOX_STRIDE; c++) values.push(i < 100 ? i / 10 : (i * 10 + c) / 1e4);
    const run = runOf(values);
    expectSameBits(decodeBoxes(encodeBoxes(run, 'columns')), run.columns);
    expect(encodeBoxes(run, 'columns').length).toBeLessThan((200 * BOX_STRIDE * 8) / 2);
  });

  it('refuses an unknown format and a truncated blob with a clear error', () => {
    const run = runOf(Array.from({ length: 10 * BOX_STRIDE }, (_, i) => i / 100));
    expect(() => decodeBoxes(Buffer.from('not boxes at all'))).toThrow(/unknown format/);
    for (const format of FORMATS) {
      const blob = encodeBoxes(run, format);
      expect(() => decodeBoxes(blob.subarray(0, blob.length - 9))).toThrow(/truncated/);
    }
  });
});
