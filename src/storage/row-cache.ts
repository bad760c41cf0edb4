// Account and provider rows for the hot public routes, kept until the database changes. On SQLite,
// `PRAGMA data_version` moves whenever another connection (the CLI, another server) commits, and this process's
// own storage writes clear the cache explicitly, so a disabled account or a rotated secret is refused on the very
// next request (another process's change is seen at most 1 ms after it commits: the version is read at most once
// per millisecond, which halves the cost of the hot routes). PostgreSQL has no such cheap signal: there every
// lookup goes to the database.
import type SqliteDatabase from 'better-sqlite3';
import type { Store } from '../db/store.js';
import type { MaybePromise } from '../util/maybe-promise.js';
import {
  findAccountByAccessKey,
  findAccountByName,
  findProviders,
  toAccount,
  type Account,
  type AccountRow,
  type Owner,
  type ProviderRow,
} from './queries.js';

/** `verified`: the digest of the secret last accepted for this row (set by account-auth). */
export interface AccountEntry {
  row: AccountRow;
  account: Account;
  verified?: string;
}

interface Cache {
  version: unknown;
  checkedAt: number;
  byAccessKey: Map<string, AccountEntry | undefined>;
  byName: Map<string, AccountRow | undefined>;
  providers: Map<string, ProviderRow | undefined>;
}

const MAX_ENTRIES = 10_000;
const caches = new WeakMap<Store, Cache>();
const versionStatements = new WeakMap<SqliteDatabase.Database, SqliteDatabase.Statement>();

function dataVersion(sqlite: SqliteDatabase.Database): unknown {
  let statement = versionStatements.get(sqlite);
  if (!statement) {
    statement = sqlite.prepare('PRAGMA data_version').pluck();
    versionStatements.set(sqlite, statement);
  }
  return statement.get();
}

function fresh(store: Store): Cache | undefined {
  if (!store.sqlite) return undefined;
  const now = performance.now();
  let cache = caches.get(store);
  if (cache && now - cache.checkedAt < 1) return cache;
  const version = dataVersion(store.sqlite);
  if (!cache || cache.version !== version) {
    cache = { version, checkedAt: now, byAccessKey: new Map(), byName: new Map(), providers: new Map() };
    caches.set(store, cache);
  }
  cache.checkedAt = now;
  return cache;
}

/** After this process writes storage rows (its own commits do not move data_version). */
export function invalidateStorageCache(store: Store): void {
  caches.delete(store);
}

/** Stores what a lookup read, unless the cache was dropped meanwhile (the row may predate that write). */
function remember<K, V>(store: Store, cache: Cache, map: Map<K, V>, key: K, value: V): V {
  if (caches.get(store) !== cache) return value;
  if (map.size >= MAX_ENTRIES) map.clear();
  map.set(key, value);
  return value;
}

/** A cached account entry, without waiting: undefined when the cache cannot answer (or the key is unknown). */
export function peekAccount(store: Store, accessKey: string): AccountEntry | undefined {
  return fresh(store)?.byAccessKey.get(accessKey);
}

/** The row (for the secret check) and its parsed account, parsed once per cache life. */
export async function accountByAccessKey(store: Store, accessKey: string): Promise<AccountEntry | undefined> {
  const cache = fresh(store);
  if (cache?.byAccessKey.has(accessKey)) return cache.byAccessKey.get(accessKey);
  const row = await findAccountByAccessKey(store.db, accessKey);
  const entry: AccountEntry | undefined = row && { row, account: toAccount(row) };
  return cache ? remember(store, cache, cache.byAccessKey, accessKey, entry) : entry;
}

export async function accountByName(store: Store, name: string): Promise<AccountRow | undefined> {
  const cache = fresh(store);
  if (cache?.byName.has(name)) return cache.byName.get(name);
  const row = await findAccountByName(store.db, name);
  return cache ? remember(store, cache, cache.byName, name, row) : row;
}

/**
 * The named providers of one owner that exist (enabled or not): from the cache, without waiting, when it holds every
 * name; else from the database.
 */
export function providersNamed(store: Store, owner: Owner, names: string[]): MaybePromise<ProviderRow[]> {
  const cache = fresh(store);
  if (!cache) return findProviders(store.db, owner, names);
  const prefix = `${owner ?? ''}\n`;
  let missing: string[] | undefined;
  for (const n of names) {
    if (cache.providers.has(prefix + n)) continue;
    missing ??= [];
    missing.push(n);
  }
  if (missing) {
    return findProviders(store.db, owner, missing).then((rows) => {
      const found = new Map(rows.map((r) => [r.name, r]));
      for (const n of missing) remember(store, cache, cache.providers, prefix + n, found.get(n));
      return names
        .map((n) => (cache.providers.has(prefix + n) ? cache.providers.get(prefix + n) : found.get(n)))
        .filter((r): r is ProviderRow => r !== undefined);
    });
  }
  const rows: ProviderRow[] = [];
  for (const n of names) {
    const row = cache.providers.get(prefix + n);
    if (row) rows.push(row);
  }
  return rows;
}
