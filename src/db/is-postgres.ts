import { PostgresAdapter, type Kysely } from 'kysely';

/** Whether a Kysely handle (or a transaction of one) speaks to PostgreSQL. */
// biome-ignore lint/suspicious/noExplicitAny: any handle (Kysely's untyped one): the application's, a migration's
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
