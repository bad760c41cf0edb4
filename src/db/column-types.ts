import type { DialectName } from './store.js';

/** Column types that differ between the dialects; migrations use these instead of literals. */
export function columnTypes(dialect: DialectName) {
  const pg = dialect === 'pg';
  return {
    text: 'text',
    int: 'integer',
    bigint: pg ? 'bigint' : 'integer',
    double: pg ? 'double precision' : 'real',
    blob: pg ? 'bytea' : 'blob',
  } as const;
}

export type ColumnTypes = ReturnType<typeof columnTypes>;
