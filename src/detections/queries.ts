// Every query of the detections domain. All of them are scoped by organisation.
import type { Kysely, Transaction } from 'kysely';
import type { Database, RunsTable } from '../db/schema.js';
import type { Recording } from '../recordings/queries.js';
import type { Store } from '../db/store.js';
import { mergeRecordingCells, refreshRecordingCells } from '../search/cell-index.js';
import { cellChange, labelCellsOf } from '../search/label-cells.js';
import { decodeBoxes, tracksForApi } from './run-codec.js';
import { REPLACED_RUN_COLUMNS, centroidRowsOf, runRowOf, type CentroidRow } from './run-rows.js';
import { sqliteRunWriter } from './sqlite-run-writer.js';
import type { TrackHeader } from './run-types.js';
import type { ValidatedRun } from './validate-run.js';

type Db = Kysely<Database>;

export const SUMMARY_COLUMNS = [
  'runs.id', 'runs.run_id', 'runs.name', 'runs.task', 'runs.schema_version', 'runs.source', 'runs.original_coordinate_space',
  'runs.original_box_form', 'runs.media', 'runs.categories', 'runs.recording_timestamp', 'runs.created_at', 'runs.updated_at',
  'runs.tracks_stored', 'runs.boxes_stored', 'runs.recording_id',
] as const;

export type SummaryRow = Pick<RunsTable, 'id' | 'run_id' | 'name' | 'task' | 'schema_version' | 'source' | 'original_coordinate_space'
  | 'original_box_form' | 'media' | 'categories' | 'recording_timestamp' | 'created_at' | 'updated_at' | 'tracks_stored'
  | 'boxes_stored' | 'recording_id'> & { media_key: string; analysis_id: string };

export interface UpsertResult { created: boolean; runPk: string }

/**
 * Inserts or truly replaces the run (recording, runId), its centroids and its recording's search aggregate in
 * one transaction: on SQLite through prepared statements, on PostgreSQL through Kysely.
 */
export async function upsertRun(store: Store, orgId: string, recording: Recording, run: ValidatedRun): Promise<UpsertResult> {
  const row = runRowOf(orgId, recording, run, Date.now(), store.sqlite ? 'doubles' : 'columns');
  if (store.sqlite) {
    const centroids = centroidRowsOf(recording, run);
    const write = sqliteRunWriter(store.sqlite);
    // Holding Kysely's connection first: a Kysely transaction awaiting between its statements must not see ours.
    return store.db.connection().execute(async () => write(row, recording, centroids));
  }
  return store.db.transaction().execute(async (trx) => {
    const upsert = trx.insertInto('runs').values(row)
      .onConflict((oc) => oc.columns(['recording_id', 'run_id']).doUpdateSet((eb) => ({
        ...Object.fromEntries(REPLACED_RUN_COLUMNS.map((c) => [c, eb.ref(`excluded.${c}`)])),
        version: eb('runs.version', '+', 1),
      })))
      .returning(['id', 'version'])
      .executeTakeFirstOrThrow();
    // The centroids are worked out while the run's megabytes travel to the server and it writes them: once the
    // query is on the wire (the driver sends it within the current turn's microtasks), the CPU is free until the
    // answer comes. A large run's centroids take ~11 ms.
    // Marked handled now: a failure surfaces at the await below, not as an unhandled rejection meanwhile.
    upsert.catch(() => {});
    await new Promise<void>((resolve) => setImmediate(resolve));
    const centroids = centroidRowsOf(recording, run);
    const stored = await upsert;
    const created = stored.version === 1;
    await replaceCentroids(trx, stored.id, recording, centroids, created);
    return { created, runPk: stored.id };
  });
}

async function replaceCentroids(trx: Transaction<Database>, runPk: string, recording: Recording, centroids: CentroidRow[], created: boolean) {
  // A run just created has no centroid rows yet.
  const previous = created ? [] : await trx.deleteFrom('run_centroids').where('run_pk', '=', runPk)
    .returning(['label', 'cells_lo', 'cells_hi', 'count']).execute();
  if (centroids.length > 0) await trx.insertInto('run_centroids').values(centroids.map((c) => ({ ...c, run_pk: runPk }))).execute();
  const change = cellChange(previous.map(labelCellsOf), centroids.map(labelCellsOf));
  if (change === 'recompute') await refreshRecordingCells(trx, recording.id);
  else await mergeRecordingCells(trx, recording, change.merge);
}

function summaryQuery(db: Db, orgId: string) {
  return db.selectFrom('runs').innerJoin('recordings', 'recordings.id', 'runs.recording_id')
    .select([...SUMMARY_COLUMNS, 'recordings.media_key', 'recordings.analysis_id'])
    .where('runs.org_id', '=', orgId);
}

export async function listRunSummaries(db: Db, orgId: string, recordingId: string): Promise<SummaryRow[]> {
  return summaryQuery(db, orgId).where('runs.recording_id', '=', recordingId)
    .orderBy('runs.created_at', 'asc').orderBy('runs.run_id', 'asc').execute();
}

/** Every run of the organisation with that runId, optionally on one recording (by mediaKey). */
export async function findRunsByRunId(db: Db, orgId: string, runId: string, mediaKey?: string): Promise<SummaryRow[]> {
  let query = summaryQuery(db, orgId).where('runs.run_id', '=', runId);
  if (mediaKey !== undefined) query = query.where('recordings.media_key', '=', mediaKey);
  return query.orderBy('runs.created_at', 'asc').limit(50).execute();
}

export async function deleteRun(db: Db, orgId: string, runPk: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // The run row first, as upsertRun does, so both lock in the same order.
    const gone = await trx.deleteFrom('runs').where('id', '=', runPk).where('org_id', '=', orgId)
      .returning('recording_id').executeTakeFirst();
    await trx.deleteFrom('run_centroids').where('run_pk', '=', runPk).where('org_id', '=', orgId).execute();
    if (!gone) return false;
    await refreshRecordingCells(trx, gone.recording_id);
    return true;
  });
}

export function summaryForApi(row: SummaryRow) {
  const summary: Record<string, unknown> = { runId: row.run_id, mediaKey: row.media_key, analysisId: row.analysis_id };
  if (row.name !== null) summary.name = row.name;
  Object.assign(summary, {
    task: row.task,
    schemaVersion: row.schema_version,
    source: JSON.parse(row.source),
    coordinateSpace: 'normalized',
    originalCoordinateSpace: row.original_coordinate_space,
    originalBoxForm: row.original_box_form,
    media: row.media === null ? null : JSON.parse(row.media),
    categories: row.categories === null ? [] : JSON.parse(row.categories),
    recordingTimestamp: row.recording_timestamp,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    tracksStored: row.tracks_stored,
    boxesStored: row.boxes_stored,
  });
  return summary;
}

export function fullRunForApi(row: SummaryRow, body: { tracks: string; boxes: Uint8Array }) {
  const headers = JSON.parse(body.tracks) as TrackHeader[];
  return { ...summaryForApi(row), tracks: tracksForApi(headers, decodeBoxes(body.boxes)) };
}
