// A statement compiled once per row count must store each call's own values, in the right columns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.js';
import { rowBatchQuery } from '../../src/db/row-batch-query.js';
import { DIALECTS, createTestStore, type TestStore } from '../support/store.js';

interface Org {
  id: string;
  name: string;
  retention_days: number;
  keep_recordings: number;
  created_at: number;
}
const COLUMNS = ['id', 'name', 'retention_days', 'keep_recordings', 'created_at'] as const;
const insertOrgs = rowBatchQuery(
  COLUMNS,
  (db: Kysely<Database>, rows: Org[]) => db.insertInto('organisations').values(rows).returning(['id', 'name']),
  3,
);

describe.each(DIALECTS)('rowBatchQuery on %s', (dialect) => {
  let ts: TestStore;
  beforeAll(async () => {
    ts = await createTestStore(dialect);
  });
  afterAll(async () => {
    await ts.destroy();
  });

  const orgs = (prefix: string, n: number): Org[] =>
    Array.from({ length: n }, (_, i) => ({
      // Keys in another order than COLUMNS: the slots name columns, not positions.
      created_at: 1000 + i,
      keep_recordings: i % 2,
      retention_days: 10 + i,
      name: `${prefix}-name-${i}`,
      id: `${prefix}-${i}`,
    }));

  it("stores every call's own values, whether compiled now, reused, or past maxRows", async () => {
    for (const [prefix, n] of [
      ['a', 2],
      ['b', 2],
      ['c', 1],
      ['d', 3],
      ['e', 5],
    ] as const) {
      const rows = orgs(prefix, n);
      expect(await insertOrgs(ts.store.db, rows)).toEqual(rows.map((r) => ({ id: r.id, name: r.name })));
    }
    const stored = await ts.store.db
      .selectFrom('organisations')
      .selectAll()
      .where('id', 'like', '%-%')
      .orderBy('id')
      .execute();
    const expected = (['a', 'b', 'c', 'd', 'e'] as const).flatMap((p, k) => orgs(p, [2, 2, 1, 3, 5][k]!));
    expect(
      stored.map((r) => ({
        id: r.id,
        name: r.name,
        retention_days: r.retention_days,
        keep_recordings: r.keep_recordings,
        created_at: Number(r.created_at),
      })),
    ).toEqual(
      expected
        .sort((x, y) => (x.id < y.id ? -1 : 1))
        .map((r) => ({
          id: r.id,
          name: r.name,
          retention_days: r.retention_days,
          keep_recordings: r.keep_recordings,
          created_at: r.created_at,
        })),
    );
  });

  it('refuses rows that do not hold exactly its columns', async () => {
    const [row] = orgs('f', 1);
    await expect(insertOrgs(ts.store.db, [{ ...row!, extra: 1 } as Org])).rejects.toThrow(/exactly/);
  });
});
