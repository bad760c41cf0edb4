// Migrations on the embedded store: all or nothing, and safe when several processes start on one fresh --data.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { openStore, type Store } from '../../src/db/store.js';
import { runCli, spawnCli } from '../support/cli.js';
import { DIALECTS, createTestStore, type TestStore } from '../support/store.js';

const dirs: string[] = [];
const freshDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-migrate-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function tables(store: Store): Promise<string[]> {
  const rows = await sql<{
    name: string;
  }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(store.db);
  return rows.rows.map((r) => r.name);
}

describe('migrations on SQLite', () => {
  it('leave nothing behind when one of them fails, and run whole once the cause is gone', async () => {
    const store = openStore({ dataDir: freshDir() });
    try {
      // A later migration fails (as on a full disk): the earlier ones must not stay applied without it.
      await sql`create table storage_providers (x integer)`.execute(store.db);
      await expect(migrateToLatest(store)).rejects.toThrow(/migration 002_storage failed/);
      expect(await tables(store)).toEqual(['storage_providers']);
      await sql`drop table storage_providers`.execute(store.db);
      await migrateToLatest(store);
      expect(await tables(store)).toEqual(
        expect.arrayContaining(['organisations', 'recordings', 'runs', 'storage_providers', 'storage_accounts']),
      );
    } finally {
      await store.close();
    }
  });

  it('refuse a store that can only be read, instead of starting a server that fails every write', async () => {
    const store = openStore({ dataDir: freshDir() });
    try {
      await migrateToLatest(store);
      // What SQLite does without a word when it cannot open the file for writing: every write is SQLITE_READONLY.
      store.sqlite!.pragma('query_only = ON');
      await expect(migrateToLatest(store)).rejects.toThrow(/the embedded store cannot be written .*must be writable/);
    } finally {
      await store.close();
    }
  });

  it('let several processes start on one fresh data directory at once', async () => {
    const dataDir = freshDir();
    const results = await Promise.all(
      [1, 2, 3, 4].map((i) => spawnCli(['admin', 'org', 'create', '--name', `first-${i}`, '--json'], { dataDir })),
    );
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const store = openStore({ dataDir });
    try {
      const orgs = await store.db.selectFrom('organisations').select('name').orderBy('name').execute();
      expect(orgs.map((o) => o.name)).toEqual(['first-1', 'first-2', 'first-3', 'first-4']);
    } finally {
      await store.close();
    }
  });
});

describe.each(DIALECTS)('upgrading an existing store (%s)', (dialect) => {
  let ts: TestStore | undefined;
  afterEach(async () => {
    await ts?.destroy();
    ts = undefined;
  });
  const cli = (...args: string[]) => runCli(args, ts!.location);

  /** The store as the version before the last migration left it. */
  async function oneMigrationBehind(): Promise<string> {
    ts = await createTestStore(dialect);
    const last = Object.keys(migrations).at(-1)!;
    expect(last).toBe('014_segment_track_index');
    // What the last migration added goes, so that applying it again works as it would on the older store.
    const db = ts.store.db;
    await sql`drop table run_track_segments`.execute(db);
    await sql`drop index run_segments_track_counts`.execute(db);
    await sql`alter table run_segments drop column track_count`.execute(db);
    await sql`drop index run_centroids_run_segment`.execute(db);
    await sql`alter table run_centroids drop column segment`.execute(db);
    await sql`create index run_centroids_run on run_centroids (run_pk)`.execute(db);
    await sql`delete from kysely_migration where name = ${last}`.execute(ts.store.db);
    return last;
  }

  it('leaves it to `sightline migrate`: other commands refuse to upgrade it as a side effect', async () => {
    const last = await oneMigrationBehind();
    const refused = await cli('admin', 'org', 'create', '--name', 'later');
    expect([refused.code, refused.stderr]).toEqual([
      1,
      expect.stringMatching(new RegExp(`needs the migration ${last} .*sightline migrate`)),
    ]);
    expect(refused.stderr).not.toMatch(/usage:/);
    expect(
      Number(
        (await sql<{ n: number }>`select count(*) as n from organisations where name = 'later'`.execute(ts!.store.db))
          .rows[0]!.n,
      ),
    ).toBe(0);

    const dry = await cli('migrate', '--dry-run', '--json');
    expect([dry.code, JSON.parse(dry.stdout)]).toEqual([0, { applied: [], pending: [last] }]);
    const run = await cli('migrate', '--json');
    expect([run.code, JSON.parse(run.stdout)]).toEqual([0, { applied: [last], pending: [] }]);
    const again = await cli('migrate');
    expect([again.code, again.stdout.trim()]).toEqual([0, 'the store is up to date']);
    expect((await cli('admin', 'org', 'create', '--name', 'later', '--json')).code).toBe(0);
  });

  it('refuses a store migrated by a newer version, saying so', async () => {
    ts = await createTestStore(dialect);
    await sql`insert into kysely_migration (name, timestamp) values ('999_from_the_future', '2030-01-01T00:00:00.000Z')`.execute(
      ts.store.db,
    );
    for (const args of [['admin', 'org', 'create', '--name', 'newer'], ['migrate', '--dry-run'], ['migrate']]) {
      const refused = await cli(...args);
      expect([args, refused.code, refused.stderr]).toEqual([
        args,
        1,
        expect.stringMatching(/migrated by a newer Sightline \(it has migration 999_from_the_future/),
      ]);
    }
  });
});
