import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../column-types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('organisations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('retention_days', t.int, (c) => c.notNull())
    .addColumn('keep_recordings', t.int, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', t.bigint, (c) => c.notNull())
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('access_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('expires_at', t.bigint)
    .addColumn('revoked_at', t.bigint)
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('login_failures')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', t.int, (c) => c.notNull())
    .addColumn('window_start', t.bigint, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('recordings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('media_key', 'text', (c) => c.notNull())
    .addColumn('analysis_id', 'text', (c) => c.notNull().unique())
    .addColumn('start_timestamp', t.bigint, (c) => c.notNull())
    .addColumn('device_key', 'text')
    .addColumn('provider', 'text')
    .addColumn('width', t.double)
    .addColumn('height', t.double)
    .addColumn('fps', t.double)
    .addColumn('frame_count', t.bigint)
    .addColumn('duration_ms', t.bigint)
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addUniqueConstraint('recordings_org_media_key', ['org_id', 'media_key'])
    .execute();
  await db.schema.createIndex('recordings_org_start').on('recordings').columns(['org_id', 'start_timestamp']).execute();

  await db.schema
    .createTable('runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('recording_id', 'text', (c) => c.notNull().references('recordings.id').onDelete('cascade'))
    .addColumn('run_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('task', 'text', (c) => c.notNull())
    .addColumn('schema_version', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('original_coordinate_space', 'text', (c) => c.notNull())
    .addColumn('original_box_form', 'text', (c) => c.notNull())
    .addColumn('media', 'text')
    .addColumn('categories', 'text')
    .addColumn('recording_timestamp', t.bigint, (c) => c.notNull())
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addColumn('updated_at', t.bigint, (c) => c.notNull())
    .addColumn('version', t.int, (c) => c.notNull())
    .addColumn('tracks_stored', t.int, (c) => c.notNull())
    .addColumn('boxes_stored', t.int, (c) => c.notNull())
    .addColumn('tracks', 'text', (c) => c.notNull())
    // Last, so that reading the summary columns never touches the large value.
    .addColumn('boxes', t.blob, (c) => c.notNull())
    .addUniqueConstraint('runs_recording_run_id', ['recording_id', 'run_id'])
    .execute();
  if (t.blob === 'bytea') {
    // Box blobs are dense doubles: pglz compression gains little and costs hundreds of ms per 13 MB run.
    await sql`alter table runs alter column boxes set storage external`.execute(db);
  }
  await db.schema.createIndex('runs_org_run_id').on('runs').columns(['org_id', 'run_id']).execute();
  await db.schema.createIndex('runs_recording_created').on('runs').columns(['recording_id', 'created_at']).execute();
  await db.schema.createIndex('runs_recording_timestamp').on('runs').column('recording_timestamp').execute();

  await db.schema
    .createTable('run_centroids')
    .addColumn('run_pk', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('recording_id', 'text', (c) => c.notNull())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('count', t.int, (c) => c.notNull())
    .addColumn('points', t.blob, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('run_centroids_run').on('run_centroids').column('run_pk').execute();
  await db.schema
    .createIndex('run_centroids_recording')
    .on('run_centroids')
    .columns(['recording_id', 'label'])
    .execute();
}
