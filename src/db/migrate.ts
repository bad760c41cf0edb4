import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { columnTypes } from './column-types.js';
import { migrations } from './migrations/index.js';
import type { Store } from './store.js';

/**
 * Brings the schema up to date, all or nothing, and safe to call from several processes at once. PostgreSQL: Kysely
 * takes an advisory lock and runs each migration in a transaction. SQLite: Kysely's adapter does neither (its lock
 * is a no-op, its DDL runs in autocommit), so a full disk left half a migration behind for ever ("table already
 * exists" at every later start) and two first starts raced; there every pending migration runs in one
 * `BEGIN IMMEDIATE` transaction, whose write lock a second process waits for, and then finds nothing to do.
 */
export async function migrateToLatest(store: Store): Promise<string[]> {
  if (store.dialect !== 'sqlite') return migrateWith(store, store.db);
  return store.db.connection().execute(async (conn) => {
    await writable(sql`begin immediate`.execute(conn));
    try {
      await refuseReadOnly(conn);
      const applied = await migrateWith(store, conn);
      await sql`commit`.execute(conn);
      return applied;
    } catch (err) {
      await sql`rollback`.execute(conn).catch(() => {});
      throw err;
    }
  });
}

/**
 * What the store has applied and what this version would apply; a store never migrated has applied nothing. A
 * store that holds a migration this version does not know (a newer version migrated it) is refused, as a
 * migration would be.
 */
export async function migrationStatus(store: Store): Promise<{ applied: string[]; pending: string[] }> {
  const known = Object.keys(migrations).sort();
  const recorded = new Set(await recordedMigrations(store));
  const unknown = [...recorded].filter((name) => !known.includes(name)).sort();
  if (unknown.length > 0) throw newerStore(unknown[unknown.length - 1]!);
  return { applied: known.filter((name) => recorded.has(name)), pending: known.filter((name) => !recorded.has(name)) };
}

/** The names in Kysely's bookkeeping table; none before the first migration made it. */
async function recordedMigrations(store: Store): Promise<string[]> {
  const table = sql.table(store.schema ? `${store.schema}.kysely_migration` : 'kysely_migration');
  try {
    return (await sql<{ name: string }>`select name from ${table}`.execute(store.db)).rows.map((r) => r.name);
  } catch (err) {
    const e = err as { code?: string; message?: string };
    if (e.code === '42P01' || /no such table/.test(e.message ?? '')) return [];
    throw err;
  }
}

const newerStore = (migration: string) =>
  new Error(
    `this store was migrated by a newer Sightline (it has migration ${migration}, ` +
      'which this version does not know): run that version, or restore the backup taken before the upgrade',
  );

/**
 * SQLite opens a file it cannot write read-only without a word (a data directory or files without write permission,
 * a read-only mount), and `serve` would answer reads and fail every write: one real write (the header's
 * user_version, written back unchanged, inside the migration transaction) finds out at start instead.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run on an untyped handle (their schema is not today's)
async function refuseReadOnly(conn: Kysely<any>): Promise<void> {
  const version = Number(
    (await sql<{ user_version: number }>`pragma user_version`.execute(conn)).rows[0]?.user_version ?? 0,
  );
  await writable(sql.raw(`pragma user_version = ${version}`).execute(conn));
}

async function writable<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    const e = err as { code?: string; message?: string };
    if (!e.code?.startsWith('SQLITE_READONLY')) throw err;
    throw new Error(
      `the embedded store cannot be written (${e.message}): the data directory and its sightline.db* files must be writable by this user`,
    );
  }
}

// biome-ignore lint/suspicious/noExplicitAny: migrations run on an untyped handle (their schema is not today's)
function migratorFor(store: Store, db: Kysely<any>): Migrator {
  const t = columnTypes(store.dialect);
  return new Migrator({
    db,
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
}

/** The names of the migrations it applied (none when the store was up to date). */
// biome-ignore lint/suspicious/noExplicitAny: migrations run on an untyped handle (their schema is not today's)
async function migrateWith(store: Store, db: Kysely<any>): Promise<string[]> {
  const migrator = migratorFor(store, db);
  const { error, results } = await store.withoutQueryDeadline(() => migrator.migrateToLatest());
  if (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Kysely's words for a store migrated by a newer version: say what that means and what to do.
    const newer = /previously executed migration (\S+) is missing/.exec(message);
    if (newer) throw newerStore(newer[1]!);
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`database migration${failed ? ` ${failed}` : ''} failed: ${message}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
