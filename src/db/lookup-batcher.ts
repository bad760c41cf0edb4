// Coalesced reads for PostgreSQL: the lookups every request makes (its token, its recording) that arrive while
// earlier ones are at the database go there together, as one query for many keys, instead of one round trip
// each. A round trip costs both processes more CPU than the indexed read it carries (wake-ups, socket calls,
// protocol), so under load this is most of a small request's database cost.
// Nothing is cached: every lookup is sent after its request arrived, so a revoked token or a deleted recording
// is refused at once. At low load a lookup goes out alone and at once; batches only form while others wait.
import type { Kysely } from 'kysely';
import { isPostgres } from './is-postgres.js';
import { holdsNul } from './unstorable-text.js';

/** Reads the rows for many keys in one query; a key without a row is simply absent from the map. */
export type FetchMany<V> = (keys: string[]) => Promise<Map<string, V>>;

export interface LookupBatcherOptions {
  /** Queries at the database at once; lookups wait for a free one beyond that. */
  maxInFlight: number;
  /** Distinct keys per query. */
  maxKeys: number;
}

interface Waiter<V> {
  resolve(value: V | undefined): void;
  reject(error: unknown): void;
}

export class LookupBatcher<V> {
  /** Keys waiting for a query, in arrival order, each with everyone waiting for it. */
  private waiting = new Map<string, Waiter<V>[]>();
  private inFlight = 0;

  constructor(
    private readonly fetchMany: FetchMany<V>,
    private readonly options: LookupBatcherOptions,
  ) {}

  load(key: string): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const waiters = this.waiting.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.size > 0) {
      const batch = new Map<string, Waiter<V>[]>();
      for (const [key, waiters] of this.waiting) {
        if (batch.size >= this.options.maxKeys) break;
        batch.set(key, waiters);
      }
      for (const key of batch.keys()) this.waiting.delete(key);
      void this.run(batch);
    }
  }

  private async run(batch: Map<string, Waiter<V>[]>): Promise<void> {
    this.inFlight++;
    try {
      const rows = await this.fetchMany([...batch.keys()]);
      for (const [key, waiters] of batch) for (const w of waiters) w.resolve(rows.get(key));
    } catch (error) {
      for (const waiters of batch.values()) for (const w of waiters) w.reject(error);
    } finally {
      this.inFlight--;
      this.pump();
    }
  }
}

/** Lookups through the same database share their batches; on SQLite (in-process, no round trip) each runs alone. */
const LOOKUP_OPTIONS: LookupBatcherOptions = { maxInFlight: 2, maxKeys: 64 };

/**
 * A lookup by key that batches on PostgreSQL: `fetchMany` reads many keys in one query there, `fetchOne` reads one
 * key anywhere (SQLite's path).
 */
// biome-ignore lint/suspicious/noExplicitAny: any database (Kysely's untyped handle), or a transaction of one
export function batchedLookup<Db extends Kysely<any>, V>(
  fetchMany: (db: Db, keys: string[]) => Promise<Map<string, V>>,
  fetchOne: (db: Db, key: string) => Promise<V | undefined>,
): (db: Db, key: string) => Promise<V | undefined> {
  const batchers = new WeakMap<Db, LookupBatcher<V>>();
  return (db, key) => {
    // No stored key holds U+0000 (PostgreSQL text cannot, and the inputs refuse control characters); on PostgreSQL
    // such a key would fail the whole batched query, and with it every other request's lookup in the batch.
    if (holdsNul(key)) return Promise.resolve(undefined);
    if (!isPostgres(db)) return fetchOne(db, key);
    let batcher = batchers.get(db);
    if (!batcher) {
      batcher = new LookupBatcher((keys) => fetchMany(db, keys), LOOKUP_OPTIONS);
      batchers.set(db, batcher);
    }
    return batcher.load(key);
  };
}
