import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BinaryCopyReader, parseBinaryCopy } from '../../src/db/pg-binary-copy.js';
import { createTestStore } from '../support/store.js';
import { copyOutFirstRow } from '../../src/db/pg-binary-copy.js';

function int16(n: number) {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
}
function int32(n: number) {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
}
const HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), int32(0), int32(3), Buffer.from('ext')]);

describe('parseBinaryCopy', () => {
  it('reads tuples field by field, NULLs included, past a header extension, up to the trailer', () => {
    const data = Buffer.concat([
      HEADER,
      int16(2),
      int32(3),
      Buffer.from('abc'),
      int32(-1),
      int16(1),
      int32(0),
      int16(-1),
    ]);
    const rows = parseBinaryCopy(data);
    expect(rows).toHaveLength(2);
    expect(rows[0]![0]!.toString()).toBe('abc');
    expect(rows[0]![1]).toBeNull();
    expect(rows[1]![0]!.length).toBe(0);
  });

  it('reads the same rows from any cutting of the stream into chunks', () => {
    const field = fc.option(fc.uint8Array({ maxLength: 40 }), { nil: null, freq: 4 });
    fc.assert(
      fc.property(
        fc.array(fc.array(field, { minLength: 1, maxLength: 4 }), { maxLength: 5 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 30 }),
        (rows, extension, cuts) => {
          const head = extension ? HEADER : Buffer.concat([HEADER.subarray(0, 15), int32(0)]);
          const data = Buffer.concat([
            head,
            ...rows.flatMap((row) => [
              int16(row.length),
              ...row.flatMap((f) => (f === null ? [int32(-1)] : [int32(f.length), Buffer.from(f)])),
            ]),
            int16(-1),
          ]);
          const reader = new BinaryCopyReader();
          const points = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((a, b) => a - b);
          let at = 0;
          for (const p of [...points, data.length]) {
            reader.push(data.subarray(at, p));
            at = p;
          }
          const read = reader.end();
          expect(read.map((r) => r.map((f) => (f === null ? null : [...f])))).toEqual(
            rows.map((r) => r.map((f) => (f === null ? null : [...f]))),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses a stream that ends before its trailer', () => {
    const reader = new BinaryCopyReader();
    reader.push(Buffer.concat([HEADER, int16(1), int32(5), Buffer.from('ab')]));
    expect(() => reader.end()).toThrow(/ended early/);
  });

  it('refuses what is not a binary COPY stream', () => {
    expect(() => parseBinaryCopy(Buffer.from('id,boxes\n1,\\x00\n'))).toThrow(/binary COPY/);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('copyOutFirstRow on PostgreSQL', () => {
  it('returns every byte value of a bytea as it is, and quotes the literal it is given', async () => {
    const ts = await createTestStore('pg');
    try {
      const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256));
      await ts.store.pgPool!.query('CREATE TABLE copy_probe (id text PRIMARY KEY, body bytea)');
      await ts.store.pgPool!.query('INSERT INTO copy_probe VALUES ($1, $2)', ["it's", bytes]);
      const row = await copyOutFirstRow(
        ts.store.pgPool!,
        (literal) => `SELECT id, body FROM copy_probe WHERE id = ${literal("it's")}`,
      );
      expect(row![0]!.toString()).toBe("it's");
      expect(row![1]!.equals(bytes)).toBe(true);
      expect(
        await copyOutFirstRow(
          ts.store.pgPool!,
          (literal) => `SELECT body FROM copy_probe WHERE id = ${literal("x' OR '1'='1")}`,
        ),
      ).toBeUndefined();
    } finally {
      await ts.destroy();
    }
  });
});
