// Run revisions: a run's current content stays in `runs` (its read path unchanged); each earlier content is a row of
// run_revisions, kept as a reverse delta against the next one (see detections/run-delta.ts), or whole (`whole`) after a
// replace by POST or an import. Rows go with their run (foreign key, cascade): deleting it or its recording, and the
// retention sweep, remove them in the same statement.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../column-types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .alterTable('runs')
    .addColumn('revision', t.int, (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('runs').addColumn('edited_by', 'text').execute();
  await db.schema.alterTable('runs').addColumn('edited_at', t.bigint).execute();

  await db.schema
    .createTable('run_revisions')
    .addColumn('run_pk', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('revision', t.int, (c) => c.notNull())
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addColumn('edited_by', 'text')
    .addColumn('edited_at', t.bigint)
    .addColumn('name', 'text')
    .addColumn('task', 'text', (c) => c.notNull())
    .addColumn('schema_version', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('original_coordinate_space', 'text', (c) => c.notNull())
    .addColumn('original_box_form', 'text', (c) => c.notNull())
    .addColumn('media', 'text')
    .addColumn('categories', 'text')
    .addColumn('tracks_stored', t.int, (c) => c.notNull())
    .addColumn('boxes_stored', t.int, (c) => c.notNull())
    .addColumn('whole', t.int, (c) => c.notNull())
    .addColumn('positions', 'text')
    .addColumn('added', 'text')
    .addColumn('tracks', 'text', (c) => c.notNull())
    .addColumn('boxes', t.blob, (c) => c.notNull())
    .addPrimaryKeyConstraint('run_revisions_pk', ['run_pk', 'revision'])
    .execute();
  if (t.blob === 'bytea') await sql`alter table run_revisions alter column boxes set storage external`.execute(db);
}
