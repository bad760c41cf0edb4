// Migrations on the embedded store: all or nothing, and safe when several processes start on one fresh --data.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { openStore, type Store } from '../../src/db/store.js';
import { runCli } from '../support/cli.js';

const dirs: string[] = [];
const freshDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-migrate-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => { for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true }); });

async function tables(store: Store): Promise<string[]> {
  const rows = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(store.db);
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
      expect(await tables(store)).toEqual(expect.arrayContaining(['organisations', 'recordings', 'runs', 'storage_providers', 'storage_accounts']));
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
    const results = await Promise.all([1, 2, 3, 4].map((i) => runCli(['admin', 'org', 'create', '--name', `first-${i}`, '--json'], { dataDir })));
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
