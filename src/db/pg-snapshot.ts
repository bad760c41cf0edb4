// Reads that must see one state of the database on PostgreSQL: a REPEATABLE READ, READ ONLY transaction on one
// connection, with Kysely queries and binary COPY on that same connection (a COPY cannot go through Kysely), every
// statement under the store's deadline.
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { copyOutFirstRowOn, copyOutRowsOn } from './pg-binary-copy.js';
import { withDeadline } from './named-statements.js';
import type { Database } from './schema.js';

export interface PgSnapshot {
  db: Kysely<Database>;
  copyOutFirstRow(select: (literal: (value: string) => string) => string): Promise<Array<Buffer | null> | undefined>;
  copyOutRows(select: (literal: (value: string) => string) => string): Promise<Array<Array<Buffer | null>>>;
}

export async function inPgSnapshot<T>(
  pool: pg.Pool,
  deadlineMs: number,
  fn: (s: PgSnapshot) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  const send = (text: string, values?: unknown[]) => {
    const sent = client.query(text, values);
    return deadlineMs > 0 ? withDeadline(sent, client, deadlineMs) : sent;
  };
  // Kysely over this one connection, which it never releases: the transaction below owns it.
  const pinned = { query: send, release() {} };
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: { connect: async () => pinned, end: async () => {} } as never }),
  });
  let failure: Error | undefined;
  try {
    await send('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const result = await fn({
      db,
      copyOutFirstRow: (select) => copyOutFirstRowOn(client, select, deadlineMs),
      copyOutRows: (select) => copyOutRowsOn(client, select, deadlineMs),
    });
    await send('COMMIT');
    return result;
  } catch (err) {
    failure = err as Error;
    throw err;
  } finally {
    // A failed snapshot's connection is dropped, not rolled back: it may be the one that went silent, and a read-only
    // transaction has nothing to undo.
    client.release(failure);
  }
}
