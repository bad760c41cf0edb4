import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tracksForApi } from '../../src/detections/run-codec.js';
import { tracksJsonChunks } from '../../src/detections/run-json-writer.js';
import { BOX_STRIDE, type TrackHeader } from '../../src/detections/run-types.js';

const written = (headers: TrackHeader[], columns: Float64Array) =>
  Buffer.concat([...tracksJsonChunks(headers, columns)]).toString('utf8');
const reference = (headers: TrackHeader[], columns: Float64Array) =>
  JSON.stringify(tracksForApi(headers, columns)).slice(1, -1);

/** Doubles of every kind the writer treats differently: integers, short decimals, long ones, tiny and huge. */
const anyNumber = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
  fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 1e6),
  fc.integer({ min: -1e15, max: 1e15 }).map((n) => n / 1e9),
  fc.integer({ min: 0, max: 1e6 }).map((n) => n / 1e7),
  fc.double({ min: 1e-7, max: 1e-5 }),
  fc.double({ min: 999_999, max: 1_000_001 }),
  fc.constantFrom(
    0,
    -0,
    1e-6,
    -1e-6,
    9.99999e-7,
    1e6,
    999999.999999999,
    0.1,
    0.2,
    0.30000000000000004,
    2 ** 31 - 1,
    2 ** 31,
    -(2 ** 31),
    1e21,
    5e-324,
    Number.MAX_VALUE,
    Infinity,
    -Infinity,
  ),
);

describe('tracksJsonChunks writes what JSON.stringify writes', () => {
  it('for any number in any box column', () => {
    fc.assert(
      fc.property(fc.array(anyNumber, { minLength: 7, maxLength: 70 }), (values) => {
        const n = Math.floor(values.length / BOX_STRIDE);
        const columns = Float64Array.from(values.slice(0, n * BOX_STRIDE));
        const headers: TrackHeader[] = [{ id: 't', n }];
        expect(written(headers, columns)).toBe(reference(headers, columns));
      }),
      { numRuns: 20_000 },
    );
  });

  it('for tracks with every optional field, extras and strings that need escaping', () => {
    const text = fc.string({ unit: 'binary', maxLength: 12 });
    const header = fc.record(
      {
        id: text,
        label: text,
        classId: fc.oneof(text, fc.integer(), fc.double()),
        confidence: anyNumber,
        color: text,
        n: fc.integer({ min: 0, max: 5 }),
        extras: fc.dictionary(
          fc.integer({ min: 0, max: 5 }).map(String),
          fc.record(
            { label: text, classId: fc.oneof(text, fc.integer()), interpolated: fc.constant(true as const) },
            { requiredKeys: [] },
          ),
        ),
      },
      { requiredKeys: ['id', 'n'] },
    );
    fc.assert(
      fc.property(
        fc.array(header, { maxLength: 5 }),
        fc.array(fc.oneof(anyNumber, fc.constant(NaN)), { minLength: 25 * BOX_STRIDE, maxLength: 25 * BOX_STRIDE }),
        (headers, values) => {
          const columns = Float64Array.from(values);
          for (let i = 0; i < columns.length; i += BOX_STRIDE) columns[i] = Math.abs(Math.trunc(columns[i]!)) || 0; // frames
          expect(written(headers as TrackHeader[], columns)).toBe(reference(headers as TrackHeader[], columns));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('across chunk boundaries, in chunks of about 64 KiB', () => {
    const tracks = 400,
      per = 50;
    const headers: TrackHeader[] = Array.from({ length: tracks }, (_, t) => ({
      id: `t${t}`,
      label: t % 2 ? 'car' : 'ünïcode ✓',
      n: per,
    }));
    const columns = new Float64Array(tracks * per * BOX_STRIDE).map((_, i) =>
      i % BOX_STRIDE === 0 ? i : Math.round(Math.sin(i) * 1e6) / 1e6,
    );
    const chunks = [...tracksJsonChunks(headers, columns)];
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks.slice(0, -1)) {
      expect(chunk.length).toBeGreaterThan(60 * 1024);
      expect(chunk.length).toBeLessThanOrEqual(64 * 1024);
    }
    expect(Buffer.concat(chunks).toString('utf8')).toBe(reference(headers, columns));
  });
});
