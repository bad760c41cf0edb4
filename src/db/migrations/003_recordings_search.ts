// Region search index (issue 4): an 8×8 grid mask per run-label, and per recording and label an OR of them,
// ordered by start time so that a search walks an index newest first and tests masks with bit operations.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../column-types.js';
import {
  cellMasksOfPoints,
  decodePoints,
  encodePoints,
  orderByRow,
  refreshRecordingCells,
  ROW_START_COLUMNS,
} from './frozen/003_cells.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  const pg = t.blob === 'bytea';
  // Two 32-bit halves of the 64-cell mask: JavaScript numbers and both dialects' integers hold them exactly.
  await db.schema
    .alterTable('run_centroids')
    .addColumn('cells_lo', t.bigint, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('run_centroids')
    .addColumn('cells_hi', t.bigint, (c) => c.notNull().defaultTo(0))
    .execute();
  // Points ordered by grid row and where each row starts, so a search reads only its rows' byte range.
  for (const column of ROW_START_COLUMNS) {
    await db.schema
      .alterTable('run_centroids')
      .addColumn(column, t.int, (c) => c.notNull().defaultTo(0))
      .execute();
  }
  // Uncompressed out-of-line storage: substr then reads only the TOAST chunks of the rows it needs.
  if (pg) await sql`alter table run_centroids alter column points set storage external`.execute(db);

  await db.schema
    .createTable('recording_label_cells')
    .addColumn('recording_id', 'text', (c) => c.notNull().references('recordings.id').onDelete('cascade'))
    .addColumn('org_id', 'text', (c) => c.notNull())
    // ANY_LABEL ('') is the union over every label; real labels are never empty (they default to "object").
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('start_timestamp', t.bigint, (c) => c.notNull())
    .addColumn('cells_lo', t.bigint, (c) => c.notNull())
    .addColumn('cells_hi', t.bigint, (c) => c.notNull())
    .addColumn('centroid_count', t.int, (c) => c.notNull())
    .addPrimaryKeyConstraint('recording_label_cells_pk', ['recording_id', 'label'])
    .execute();
  // Covering, so the newest-first walk is an index-only scan.
  if (pg) {
    await sql`create index recording_label_cells_search on recording_label_cells
      (org_id, label, start_timestamp desc, recording_id desc) include (cells_lo, cells_hi)`.execute(db);
  } else {
    await db.schema
      .createIndex('recording_label_cells_search')
      .on('recording_label_cells')
      .columns(['org_id', 'label', 'start_timestamp', 'recording_id', 'cells_lo', 'cells_hi'])
      .execute();
  }
  await db.schema
    .createIndex('recordings_org_start_id')
    .on('recordings')
    .columns(['org_id', 'start_timestamp', 'id'])
    .execute();
  await db.schema
    .createIndex('recordings_org_device_start')
    .on('recordings')
    .columns(['org_id', 'device_key', 'start_timestamp'])
    .execute();

  // Existing centroids (written before this migration) get their masks and aggregates.
  const rows = await db.selectFrom('run_centroids').select(['run_pk', 'label', 'points']).execute();
  for (const row of rows as Array<{ run_pk: string; label: string; points: Uint8Array }>) {
    const points = decodePoints(row.points);
    const m = cellMasksOfPoints(points);
    const { ordered, starts } = orderByRow(points);
    await db
      .updateTable('run_centroids')
      .set({ cells_lo: m.lo, cells_hi: m.hi, points: encodePoints(ordered), ...starts })
      .where('run_pk', '=', row.run_pk)
      .where('label', '=', row.label)
      .execute();
  }
  const recordings = await db.selectFrom('run_centroids').select('recording_id').distinct().execute();
  for (const r of recordings as Array<{ recording_id: string }>) await refreshRecordingCells(db, r.recording_id);
}
