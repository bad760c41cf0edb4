import { Migrator, type Migration } from 'kysely';
import { columnTypes } from './column-types.js';
import { migrations } from './migrations/index.js';
import type { Store } from './store.js';

/** Brings the schema up to date. Safe to call from several processes at once (Kysely locks). */
export async function migrateToLatest(store: Store): Promise<void> {
  const t = columnTypes(store.dialect);
  const migrator = new Migrator({
    db: store.db,
    // Kysely finds its bookkeeping tables in any schema; pin them to ours so that several
    // schemas in one database (tests, several tenants) do not see each other's.
    ...(store.schema ? { migrationTableSchema: store.schema } : {}),
    provider: {
      async getMigrations() {
        const out: Record<string, Migration> = {};
        for (const [name, m] of Object.entries(migrations)) out[name] = { up: (db) => m.up(db, t) };
        return out;
      },
    },
  });
  const { error, results } = await store.withoutQueryDeadline(() => migrator.migrateToLatest());
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`database migration${failed ? ` ${failed}` : ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
