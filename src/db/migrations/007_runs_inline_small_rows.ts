// PostgreSQL: a run row of up to a page (8160 bytes) stays whole in its heap page. With the default toast target
// (2032 bytes) the `boxes` column (STORAGE EXTERNAL) of every small run went out of line: a run of 300 boxes
// (7 KB of columns) became one heap row plus four TOAST rows, each with its own TOAST index entry, on every insert
// and every replace, and a read of it fetched them back through that index. Rows over a page are toasted exactly
// as before (out of line, uncompressed), so large runs and their partial reads do not change.
// SQLite has no TOAST: nothing to do there.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../column-types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  if (t.blob === 'bytea') await sql`alter table runs set (toast_tuple_target = 8160)`.execute(db);
}
