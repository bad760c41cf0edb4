import { PostgresAdapter, type Kysely } from 'kysely';

/** Whether a Kysely handle (or a transaction of one) speaks to PostgreSQL. */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
