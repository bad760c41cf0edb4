// A run's boxes in segments (detections/run-segments.ts): consecutive tracks, a few hundred KiB of boxes each, so that
// a patch rewrites the segments holding the tracks it changes rather than the whole run. `revision` 0 is the current
// content; a replace by POST hands the current segments to the revision it keeps (their number), so a whole revision
// of a segmented run costs no copy. Existing runs need no move: a run whose `boxes` is one blob stays readable as it
// is, and its first patch splits it. Rows go with their run (foreign key, cascade), as its revisions do.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../column-types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('run_segments')
    .addColumn('run_pk', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('revision', t.int, (c) => c.notNull())
    .addColumn('segment', t.int, (c) => c.notNull())
    .addColumn('tracks', 'text', (c) => c.notNull())
    .addColumn('boxes', t.blob, (c) => c.notNull())
    .addPrimaryKeyConstraint('run_segments_pk', ['run_pk', 'revision', 'segment'])
    .execute();
  // As runs.boxes: the columns format is compact already, so PostgreSQL need not try to compress it.
  if (t.blob === 'bytea') await sql`alter table run_segments alter column boxes set storage external`.execute(db);
}
