// The two dialects behind one Kysely handle: embedded SQLite (default) or PostgreSQL.
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { namingPool } from './named-statements.js';
import type { Database } from './schema.js';
import { ensureDirectory } from '../util/ensure-directory.js';

export type DialectName = 'sqlite' | 'pg';

export interface Store {
  db: Kysely<Database>;
  dialect: DialectName;
  /** PostgreSQL only: the schema the tables live in (migration bookkeeping is pinned to it). */
  schema?: string;
  /** The raw SQLite handle, for the few bulk paths where prepared statements beat query building. */
  sqlite?: SqliteDatabase.Database;
  /** The PostgreSQL pool, for the few paths a query builder cannot express (binary COPY). */
  pgPool?: pg.Pool;
  /** PostgreSQL only: the statement deadline in ms now (0: none), for statements sent outside Kysely (COPY). */
  pgQueryDeadlineMs?: () => number;
  close(): Promise<void>;
  /**
   * Runs fn with no deadline on PostgreSQL statements (migrations: an index build or another instance's migration lock
   * may take longer than any request should).
   */
  withoutQueryDeadline<T>(fn: () => Promise<T>): Promise<T>;
}

export interface StoreOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** PostgreSQL schema to use (tests isolate themselves in a schema each). */
  pgSchema?: string;
  poolSize?: number;
  /** PostgreSQL: how long to wait for a connection (a free one from the pool, or a new one), in ms. */
  connectTimeoutMs?: number;
  /** PostgreSQL: a statement not answered within this many ms fails, and its connection is dropped. */
  queryTimeoutMs?: number;
}

// The defaults of DATABASE_CONNECT_TIMEOUT_MS and DATABASE_QUERY_TIMEOUT_MS (config.ts).
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_QUERY_TIMEOUT_MS = 30_000;

const noDeadline = <T>(fn: () => Promise<T>) => fn();

// int8 columns hold millisecond times and counts: all within 2^53, so numbers, not strings.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 && format !== 'binary') return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

export function openStore(options: StoreOptions): Store {
  if (options.databaseUrl) {
    if (!/^postgres(ql)?:\/\//.test(options.databaseUrl)) {
      throw new Error('DATABASE_URL must start with postgres:// (or leave it unset for the embedded store)');
    }
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      types: pgTypes as never,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
      // Without these, a database that accepts connections but never answers (a partition, a frozen proxy) holds
      // every request, and every pool slot, for ever; with them such requests fail (503) and the pool heals.
      connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    // An idle client that loses its server must not crash the process.
    pool.on('error', () => {});
    // Nor one that loses it while checked out: pg-pool takes its own listener off a client it hands out, and an
    // 'error' event with no listener (a terminated backend, a cut network) would end the whole process. The query in
    // flight fails on its own; the dead client leaves the pool when it is released.
    pool.on('connect', (client) => {
      client.on('error', () => {});
    });
    const deadline = { ms: options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS };
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: namingPool(pool, () => deadline.ms) as never }),
    });
    return {
      db,
      dialect: 'pg',
      pgPool: pool,
      pgQueryDeadlineMs: () => deadline.ms,
      schema: options.pgSchema ?? searchPathOf(options.databaseUrl) ?? 'public',
      close: () => db.destroy(),
      async withoutQueryDeadline(fn) {
        const saved = deadline.ms;
        deadline.ms = 0;
        try {
          return await fn();
        } finally {
          deadline.ms = saved;
        }
      },
    };
  }
  const dataDir = options.dataDir ?? './data';
  ensureDirectory(dataDir);
  const file = path.join(dataDir, 'sightline.db');
  createOwnerOnly(file);
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL in WAL mode survives process crashes; only an OS crash may lose the last commits.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // The CLI writes to the same file while a server runs.
  sqlite.pragma('busy_timeout = 10000');
  // A large run's transaction grows the WAL (79 MiB seen); without a limit the file keeps that size for as long as any
  // process has the store open, after every checkpoint.
  sqlite.pragma('journal_size_limit = 67108864');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: 'sqlite', sqlite, close: () => db.destroy(), withoutQueryDeadline: noDeadline };
}

/**
 * A new store file is readable by its owner only (0600): it holds password hashes and encrypted provider credentials.
 * SQLite gives the -wal and -shm files it makes beside it the same mode. An existing file keeps the mode it has.
 */
function createOwnerOnly(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o600));
  } catch {
    // It exists (its mode stays), or it cannot be made: then SQLite's open fails too, and says why as it always has.
  }
}

/** The first schema of `?options=-c search_path=…` in a connection URL, if any. */
function searchPathOf(url: string): string | undefined {
  try {
    const options = new URL(url).searchParams.get('options') ?? '';
    return /search_path=([A-Za-z_][A-Za-z0-9_]*)/.exec(options)?.[1];
  } catch {
    return undefined;
  }
}

/**
 * Kysely prepares every query anew; on hot routes preparing costs more than running. Statements are
 * cached by their SQL text (Kysely runs one query at a time per connection, so reuse is safe).
 */
function withStatementCache(sqlite: SqliteDatabase.Database, max = 500) {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sqlText: string) {
      let statement = cache.get(sqlText);
      if (!statement) {
        statement = sqlite.prepare(sqlText);
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(sqlText, statement);
      }
      return statement;
    },
  } as unknown as SqliteDatabase.Database;
}
