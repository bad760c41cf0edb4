// Keeps the per-recording, per-label cell masks (recording_label_cells) equal to the union of its
// run_centroids masks. Called inside the run's own transaction, after its centroids changed.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../db/is-postgres.js';
import { rowBatchQuery } from '../db/row-batch-query.js';
import { labelCellRows, labelCellsOf, type LabelCells, type LabelCellsRow } from './label-cells.js';

export type { LabelCells };

// biome-ignore lint/suspicious/noExplicitAny: the migration backfill calls this too, with an untyped handle
type AnyDb = Kysely<any>;

/**
 * Rewrites the recording's aggregate rows from its runs' centroid rows. On PostgreSQL a transaction-scoped
 * advisory lock per recording serialises concurrent writers of the same recording, so that under
 * READ COMMITTED the last one to finish reads everyone's committed centroids.
 */
export async function refreshRecordingCells(db: AnyDb, recordingId: string): Promise<void> {
  await lockRecordingCells(db, [recordingId]);
  const recording = (await db
    .selectFrom('recordings')
    .select(['org_id', 'start_timestamp'])
    .where('id', '=', recordingId)
    .executeTakeFirst()) as { org_id: string; start_timestamp: number } | undefined;
  await db.deleteFrom('recording_label_cells').where('recording_id', '=', recordingId).execute();
  if (!recording) return;
  const parts = (await db
    .selectFrom('run_centroids')
    .select(['label', 'cells_lo', 'cells_hi', 'count'])
    .where('recording_id', '=', recordingId)
    .execute()) as Array<{ label: string; cells_lo: number; cells_hi: number; count: number }>;
  if (parts.length === 0) return;
  const owner = { id: recordingId, orgId: recording.org_id, startTimestamp: Number(recording.start_timestamp) };
  await db
    .insertInto('recording_label_cells')
    .values(labelCellRows(owner, parts.map(labelCellsOf)))
    .execute();
}

/** PostgreSQL: the per-recording locks of refreshRecordingCells for several recordings, always in one order. */
export async function lockRecordingCells(db: AnyDb, recordingIds: string[]): Promise<void> {
  if (recordingIds.length === 0 || !isPostgres(db)) return;
  const ids = [...recordingIds].sort();
  await sql`select pg_advisory_xact_lock(hashtext('recording-cells:' || u.id))
    from unnest(${ids}::text[]) with ordinality as u(id, n) order by u.n`.execute(db);
}

/**
 * A new run only adds cells to its recording's aggregate, so OR-merging its masks in one upsert gives the
 * same rows as refreshRecordingCells without reading every run of the recording. (Replacing or deleting a
 * run may remove cells: those paths recompute.) The caller holds the recordings' locks (lockRecordingCells).
 */
export async function mergeLabelCellRows(db: AnyDb, rows: LabelCellsRow[]): Promise<void> {
  if (rows.length > 0) await mergeRows(db, rows);
}

const LABEL_CELL_COLUMNS = [
  'recording_id',
  'org_id',
  'label',
  'start_timestamp',
  'cells_lo',
  'cells_hi',
  'centroid_count',
] as const satisfies ReadonlyArray<keyof LabelCellsRow>;
const mergeRows = rowBatchQuery(
  LABEL_CELL_COLUMNS,
  (db: AnyDb, rows: LabelCellsRow[]) =>
    db
      .insertInto('recording_label_cells')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['recording_id', 'label']).doUpdateSet({
          cells_lo: sql`recording_label_cells.cells_lo | excluded.cells_lo`,
          cells_hi: sql`recording_label_cells.cells_hi | excluded.cells_hi`,
          centroid_count: sql`recording_label_cells.centroid_count + excluded.centroid_count`,
        }),
      ),
  256,
);
