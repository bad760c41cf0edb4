// Multi-row statements of a fixed shape (the PostgreSQL run writer's inserts and upserts), built and compiled by
// Kysely once per row count instead of once per call: for a batch of small runs, building and compiling a
// 20-column insert cost more of the server's time than sending it. The query is built from placeholder rows whose
// every value is a slot naming its row and column; a call fills the compiled statement's parameters from the
// real rows.
import type { CompiledQuery, Kysely } from 'kysely';

class Slot {
  constructor(
    readonly row: number,
    readonly column: string,
  ) {}
}

/**
 * `build` makes the statement for the given rows, which hold exactly `columns`. Compiled statements are kept per
 * dialect and row count up to `maxRows`; larger batches are compiled each time.
 */
export function rowBatchQuery<DB, Row extends object, Result>(
  columns: ReadonlyArray<keyof Row & string>,
  build: (db: Kysely<DB>, rows: Row[]) => { compile(): CompiledQuery<Result> },
  maxRows = 64,
) {
  const byDialect = new Map<unknown, Map<number, CompiledQuery<Result>>>();
  return async (db: Kysely<DB>, rows: Row[]): Promise<Result[]> => {
    if (rows.length > maxRows) return (await db.executeQuery(build(db, rows).compile())).rows;
    if (Object.keys(rows[0] ?? {}).length !== columns.length)
      throw new Error(`rowBatchQuery: rows must hold exactly ${columns.join(', ')}`);
    const dialect = db.getExecutor().adapter.constructor;
    let compiled = byDialect.get(dialect);
    if (!compiled) {
      compiled = new Map();
      byDialect.set(dialect, compiled);
    }
    let query = compiled.get(rows.length);
    if (!query) {
      const placeholders = Array.from(
        { length: rows.length },
        (_, row) => Object.fromEntries(columns.map((c) => [c, new Slot(row, c)])) as Row,
      );
      query = build(db, placeholders).compile();
      compiled.set(rows.length, query);
    }
    const parameters = query.parameters.map((p) =>
      p instanceof Slot ? (rows[p.row] as Record<string, unknown>)[p.column] : p,
    );
    return (await db.executeQuery<Result>({ ...query, parameters })).rows;
  };
}
