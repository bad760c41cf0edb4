// Test stores: a fresh SQLite file, and (when TEST_DATABASE_URL is set) a fresh PostgreSQL schema each.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { migrateToLatest } from '../../src/db/migrate.js';
import { openStore, type DialectName, type Store } from '../../src/db/store.js';

export const PG_URL = process.env.TEST_DATABASE_URL;

/** The dialects every database test runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const DIALECTS: DialectName[] = PG_URL ? ['sqlite', 'pg'] : ['sqlite'];

export interface TestStore {
  store: Store;
  /** What a second process (CLI, another server) needs to open the same store. */
  location: { databaseUrl?: string; dataDir: string; pgSchema?: string };
  destroy(): Promise<void>;
}

/** `pgUrl` and `poolSize` let benchmarks point at another database or size the pool. */
export async function createTestStore(
  dialect: DialectName,
  options: { pgUrl?: string; poolSize?: number } = {},
): Promise<TestStore> {
  const pgUrl = options.pgUrl ?? PG_URL;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-test-'));
  if (dialect === 'sqlite') {
    const store = openStore({ dataDir });
    await migrateToLatest(store);
    return {
      store,
      location: { dataDir },
      async destroy() {
        await store.close().catch(() => {});
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  if (!pgUrl) throw new Error('TEST_DATABASE_URL is not set');
  // In a test run, the run's schemas are dropped together at its end (global-setup.ts); elsewhere (benchmarks)
  // each store drops its own.
  const run = process.env.SIGHTLINE_TEST_RUN;
  const schema = run ? `t_${run}_${randomBytes(6).toString('hex')}` : `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const store = openStore({ databaseUrl: pgUrl, pgSchema: schema, poolSize: options.poolSize ?? 5 });
  await migrateToLatest(store);
  return {
    store,
    location: {
      databaseUrl: `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
      dataDir,
      pgSchema: schema,
    },
    async destroy() {
      await store.close().catch(() => {});
      if (!run) {
        const c = new pg.Client({ connectionString: pgUrl });
        await c.connect();
        await c.query(`drop schema if exists ${schema} cascade`);
        await c.end();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
