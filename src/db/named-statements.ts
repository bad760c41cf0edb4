// PostgreSQL plans an unnamed statement anew on every call. The hot lookups every request makes (token,
// recording) are sent as named statements instead: each connection parses and plans them once (measured: the
// database's CPU per recording lookup 120 → 38 µs, the driver's 82 → 55 µs).
import type pg from 'pg';
import { DeadlineError, withinMs } from '../util/within.js';

const names = new Map<string, string>();

/** Marks a statement's SQL text as one to prepare once per connection. */
export function nameStatement(sql: string): void {
  if (!names.has(sql)) names.set(sql, `sightline_${names.size + 1}`);
}

type Client = Pick<pg.PoolClient, 'query' | 'release'>;

/**
 * PostgreSQL refuses to run a prepared statement whose result columns changed type since it was planned (a migration
 * by a newer version altered a column while this one runs): SQLSTATE 0A000, "cached plan must not change result
 * type", on every call until the connection closes, which a busy pool never does.
 */
// By the routine that raises it, not its message: messages follow the server's lc_messages.
const isStalePlan = (err: unknown) =>
  (err as { code?: string }).code === '0A000' && (err as { routine?: string }).routine === 'RevalidateCachedQuery';

/**
 * The pool as Kysely's PostgreSQL dialect sees it: its clients send a marked statement's SQL with that
 * statement's name. Everything else (other statements, cursors) passes through unchanged.
 */
export function namingPool(pool: pg.Pool, deadlineMs: () => number = () => 0) {
  const wrapped = new WeakMap<pg.PoolClient, Client>();
  const wrap = (client: pg.PoolClient): Client => {
    let naming = wrapped.get(client);
    if (!naming) {
      // Statements this connection planned before their result type changed go out under a new name, planned anew
      // (the old one stays on the server until the connection closes; it is never used again).
      const renamed = new Map<string, string>();
      const send = (text: string, values: unknown[] | undefined, name: string | undefined) => {
        const sent = name ? client.query({ name, text, values }) : client.query(text, values);
        const ms = deadlineMs();
        return ms > 0 ? withDeadline(sent, client, ms) : sent;
      };
      naming = {
        query: ((text: unknown, values?: unknown[]) => {
          const base = typeof text === 'string' ? names.get(text) : undefined;
          if (!base) return send(text as string, values, undefined);
          const name = renamed.get(base) ?? base;
          return send(text as string, values, name).catch((err: unknown) => {
            if (!isStalePlan(err)) throw err;
            const fresh = `${base}_${renamed.size + 1}_${Date.now().toString(36)}`;
            renamed.set(base, fresh);
            // Once, here: outside a transaction it succeeds; inside one, the failure has aborted the transaction and
            // the request fails (its caller's retry finds the new plan).
            return send(text as string, values, fresh).catch((again: unknown) => {
              throw (again as { code?: string }).code === '25P02' ? err : again;
            });
          });
        }) as pg.PoolClient['query'],
        release: (error?: Error | boolean) => client.release(error),
      };
      wrapped.set(client, naming);
    }
    return naming;
  };
  return {
    connect: async () => wrap(await pool.connect()),
    end: () => pool.end(),
  };
}

/**
 * The statement's answer, or an error after `ms`. The connection is then dropped: the statement may still be running
 * (or the network gone), and the connection cannot be handed to another request until it answers. A dropped client
 * fails its other queries at once and leaves the pool when released.
 */
export function withDeadline<T>(sent: Promise<T>, client: pg.PoolClient, ms: number): Promise<T> {
  return withinMs(sent, ms, 'The database').catch((err: unknown) => {
    if (err instanceof DeadlineError)
      (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    throw err;
  });
}
