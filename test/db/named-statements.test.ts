// On PostgreSQL the hot lookups go out as named statements: planned once per connection, and still right after a
// migration adds a column to their table.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPrincipal } from '../../src/auth/queries.js';
import { resolveTarget } from '../../src/recordings/queries.js';
import { PG_URL, createTestStore, type TestStore } from '../support/store.js';
import { seedOrg, type SeededOrg } from '../support/server.js';

describe.skipIf(!PG_URL)('named statements on pg', () => {
  let ts: TestStore;
  let org: SeededOrg;
  // One connection, so that every query below runs in the session whose prepared statements it reads.
  beforeAll(async () => {
    ts = await createTestStore('pg', { poolSize: 1 });
    org = await seedOrg(ts.store);
  });
  afterAll(async () => {
    await ts.destroy();
  });

  const prepared = async () =>
    (
      await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(
        ts.store.db,
      )
    ).rows;

  it('prepares the token and recording lookups once per connection, and nothing else', async () => {
    for (let i = 0; i < 3; i++) {
      expect(await findPrincipal(ts.store.db, org.token)).toMatchObject({ orgId: org.orgId });
      expect(await resolveTarget(ts.store.db, org.orgId, { mediaKey: org.recording.mediaKey })).toMatchObject({
        id: org.recording.id,
      });
    }
    const statements = await prepared();
    expect(statements.map((s) => s.name).every((n) => /^sightline_\d+$/.test(n))).toBe(true);
    expect(
      statements.some(
        (s) => /from "access_tokens"/.test(s.statement) && /token_hash = any\(\$1::text\[\]\)/.test(s.statement),
      ),
    ).toBe(true);
    expect(
      statements.some(
        (s) =>
          /from "recordings"/.test(s.statement) &&
          /\(org_id, "media_key"\) in \(select \* from unnest\(\$1::text\[\], \$2::text\[\]\)\)/.test(s.statement),
      ),
    ).toBe(true);
    expect(statements).toHaveLength(2);
  });

  it('a column added meanwhile does not break a prepared lookup', async () => {
    await resolveTarget(ts.store.db, org.orgId, { mediaKey: org.recording.mediaKey });
    await sql`alter table recordings add column added_later text`.execute(ts.store.db);
    expect(await resolveTarget(ts.store.db, org.orgId, { mediaKey: org.recording.mediaKey })).toMatchObject({
      id: org.recording.id,
    });
  });

  it('a column whose type changed meanwhile (a newer version migrating) is planned anew, not refused for ever', async () => {
    await resolveTarget(ts.store.db, org.orgId, { mediaKey: org.recording.mediaKey });
    await sql`alter table recordings alter column duration_ms type numeric`.execute(ts.store.db);
    for (let i = 0; i < 2; i++) {
      expect(await resolveTarget(ts.store.db, org.orgId, { mediaKey: org.recording.mediaKey })).toMatchObject({
        id: org.recording.id,
      });
    }
    // Inside a transaction the stale plan fails that transaction once, with PostgreSQL's own error; the next use works.
    await sql`alter table recordings alter column duration_ms type double precision`.execute(ts.store.db);
    const inTransaction = () =>
      ts.store.db.transaction().execute((trx) => resolveTarget(trx, org.orgId, { mediaKey: org.recording.mediaKey }));
    await expect(inTransaction()).rejects.toMatchObject({ code: '0A000' });
    await expect(inTransaction()).resolves.toMatchObject({ id: org.recording.id });
  });
});
