// durationMs is a number of milliseconds, not always whole (600 frames at 29.97 fps last 20 020.02 ms): PostgreSQL
// refused such a value in its bigint column (a 500), while SQLite's integer column kept it.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../column-types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  // SQLite's column affinity already stores a fraction as it is; only PostgreSQL's column type changes.
  if (t.double !== 'double precision') return;
  await db.schema
    .alterTable('recordings')
    .alterColumn('duration_ms', (c) => c.setDataType('double precision'))
    .execute();
}
