// Evaluations (POST /evaluations): one row per evaluation, which is also its background job (status 'running' with
// a lease: the instance holding an unexpired lease computes it; an expired one is claimed by any instance), and the
// recordings it covers, for GET /evaluations?mediaKey=.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../column-types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('evaluations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    // The request as resolved when it was posted: parameters, predictions, and per recording the runs to score.
    .addColumn('plan', 'text', (c) => c.notNull())
    // The runs read when it was computed (id, updatedAt, version): `stale` compares them with the current ones.
    .addColumn('used_runs', 'text', (c) => c.notNull())
    .addColumn('results', 'text')
    // Per-frame CLEAR counts, apart: they are answered only with include=frames.
    .addColumn('frames', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addColumn('completed_at', t.bigint)
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', t.bigint, (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', t.int, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('evaluations_org_created')
    .on('evaluations')
    .columns(['org_id', 'created_at', 'id'])
    .execute();
  // The claim of an orphaned job reads running rows by lease expiry.
  await db.schema
    .createIndex('evaluations_status_lease')
    .on('evaluations')
    .columns(['status', 'lease_expires_at'])
    .execute();
  await db.schema
    .createTable('evaluation_recordings')
    .addColumn('evaluation_id', 'text', (c) => c.notNull().references('evaluations.id').onDelete('cascade'))
    .addColumn('org_id', 'text', (c) => c.notNull())
    // The key, not a reference: an evaluation outlives a recording deleted after it (it is then stale).
    .addColumn('media_key', 'text', (c) => c.notNull())
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('evaluation_recordings_pk', ['evaluation_id', 'media_key'])
    .execute();
  await db.schema
    .createIndex('evaluation_recordings_org_key')
    .on('evaluation_recordings')
    .columns(['org_id', 'media_key', 'created_at', 'evaluation_id'])
    .execute();
}
