// Hot queries of a fixed shape, built and compiled by Kysely once per database handle: a call only binds its values.
// Building and compiling cost more than running an indexed lookup on SQLite (~15 µs against ~10 µs). On PostgreSQL
// they also go out as named statements (named-statements.ts), planned once per connection.
import type { CompiledQuery, Kysely } from 'kysely';
import { nameStatement } from './named-statements.js';

/**
 * `build` makes the query with placeholder values; a call passes the real ones in the order they appear in the
 * compiled SQL (the order of the builder calls). Transactions are other handles: they compile once each.
 */
export function preparedQuery<DB, Row>(build: (db: Kysely<DB>) => { compile(): CompiledQuery<Row> }) {
  const compiled = new WeakMap<Kysely<DB>, CompiledQuery<Row>>();
  return async (db: Kysely<DB>, ...parameters: unknown[]): Promise<Row[]> => {
    let query = compiled.get(db);
    if (!query) {
      query = build(db).compile();
      if (query.parameters.length !== parameters.length) {
        throw new Error(`prepared query takes ${query.parameters.length} parameters, got ${parameters.length}`);
      }
      compiled.set(db, query);
      nameStatement(query.sql);
    }
    return (await db.executeQuery<Row>({ ...query, parameters })).rows;
  };
}

/** A prepared query of many keys (one array parameter) as rows by key, for batchedLookup. */
export function byKey<Db, Row>(query: (db: Db, keys: string[]) => Promise<Row[]>, keyOf: (row: Row) => string) {
  return async (db: Db, keys: string[]): Promise<Map<string, Row>> =>
    new Map((await query(db, keys)).map((row) => [keyOf(row), row]));
}

/** A prepared query of one key as its first row, for batchedLookup. */
export function firstRow<Db, Row>(query: (db: Db, key: string) => Promise<Row[]>) {
  return async (db: Db, key: string): Promise<Row | undefined> => (await query(db, key))[0];
}
