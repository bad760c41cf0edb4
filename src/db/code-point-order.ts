import { sql, type Expression, type Kysely } from 'kysely';
import { isPostgres } from './is-postgres.js';

/**
 * A text column ordered by code point on both dialects. SQLite compares the UTF-8 bytes, which is code point order;
 * PostgreSQL uses the database's collation unless told otherwise, and a database made with en_US puts `_1` before
 * `A` and `disk` before `Disk`. "C" compares bytes there too.
 */
// biome-ignore lint/suspicious/noExplicitAny: any handle (Kysely's untyped one): the application's, a migration's
export function byCodePoint(db: Kysely<any>, column: string): Expression<string> {
  return isPostgres(db) ? sql<string>`${sql.ref(column)} collate "C"` : sql<string>`${sql.ref(column)}`;
}
