// Every query of the detections domain. All of them are scoped by organisation.
import type { Kysely, Transaction } from 'kysely';
import type { Database, RunsTable } from '../db/schema.js';
import type { Recording } from '../recordings/queries.js';
import { newId } from '../util/ids.js';
import { computeCentroids, encodePoints } from './centroids.js';
import { mergeRecordingCells, refreshRecordingCells, type LabelCells } from '../search/cell-index.js';
import { cellMasksOfPoints, EMPTY_MASK } from '../search/grid.js';
import { orderByRow } from '../search/point-rows.js';
import { decodeBoxes, encodeBoxes, tracksForApi } from './run-codec.js';
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
 * Inserts or truly replaces the run (recording, runId) and its centroids in one transaction.
 * `version` counts writes: 1 after the insert, so concurrent posts still learn which one created it.
 */
export async function upsertRun(db: Db, orgId: string, recording: Recording, run: ValidatedRun): Promise<UpsertResult> {
  const now = Date.now();
  const { meta, boxes } = run;
  const row: RunsTable = {
    id: newId(now), org_id: orgId, recording_id: recording.id, run_id: meta.runId, name: meta.name ?? null, task: meta.task,
    schema_version: meta.schemaVersion, source: JSON.stringify(meta.source), original_coordinate_space: meta.originalCoordinateSpace,
    original_box_form: meta.originalBoxForm, media: meta.media ? JSON.stringify(meta.media) : null,
    categories: meta.categories ? JSON.stringify(meta.categories) : null, recording_timestamp: recording.startTimestamp,
    created_at: now, updated_at: now, version: 1, tracks_stored: boxes.headers.length, boxes_stored: boxes.count,
    tracks: JSON.stringify(boxes.headers), boxes: encodeBoxes(boxes),
  };
  const centroids = computeCentroids(boxes);
  return db.transaction().execute(async (trx) => {
    const stored = await trx.insertInto('runs').values(row)
      .onConflict((oc) => oc.columns(['recording_id', 'run_id']).doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'), task: eb.ref('excluded.task'), schema_version: eb.ref('excluded.schema_version'),
        source: eb.ref('excluded.source'), original_coordinate_space: eb.ref('excluded.original_coordinate_space'),
        original_box_form: eb.ref('excluded.original_box_form'), media: eb.ref('excluded.media'),
        categories: eb.ref('excluded.categories'), recording_timestamp: eb.ref('excluded.recording_timestamp'),
        updated_at: eb.ref('excluded.updated_at'), version: eb('runs.version', '+', 1),
        tracks_stored: eb.ref('excluded.tracks_stored'), boxes_stored: eb.ref('excluded.boxes_stored'),
        tracks: eb.ref('excluded.tracks'), boxes: eb.ref('excluded.boxes'),
      })))
      .returning(['id', 'version'])
      .executeTakeFirstOrThrow();
    const created = stored.version === 1;
    await replaceCentroids(trx, stored.id, recording, centroids, created);
    return { created, runPk: stored.id };
  });
}

async function replaceCentroids(trx: Transaction<Database>, runPk: string, recording: Recording, centroids: ReturnType<typeof computeCentroids>, created: boolean) {
  // A run just created has no centroid rows yet.
  const previous = created ? [] : await trx.deleteFrom('run_centroids').where('run_pk', '=', runPk)
    .returning(['label', 'cells_lo', 'cells_hi', 'count']).execute();
  const rows = centroids.map((c) => {
    const cells = cellMasksOfPoints(c.points);
    // Points ordered by grid row, with each row's start, so a search reads only the rows it covers.
    const { ordered, starts } = orderByRow(c.points);
    return {
      run_pk: runPk, recording_id: recording.id, org_id: recording.orgId, label: c.label,
      count: c.points.length / 2, points: encodePoints(ordered), ...starts, cells_lo: cells.lo, cells_hi: cells.hi,
    };
  });
  if (rows.length > 0) await trx.insertInto('run_centroids').values(rows).execute();
  const added = rows.map((r) => ({ label: r.label, mask: { lo: r.cells_lo, hi: r.cells_hi }, count: r.count }));
  const removed = previous.map((r) => ({ label: r.label, mask: { lo: Number(r.cells_lo), hi: Number(r.cells_hi) }, count: Number(r.count) }));
  // The recording's aggregate can be merged in place unless a cell the old run had is gone (then recompute).
  if (keepsEveryCell(removed, added)) {
    await mergeRecordingCells(trx, recording, [...added, ...removed.map((r) => ({ label: r.label, mask: EMPTY_MASK, count: -r.count }))]);
  } else {
    await refreshRecordingCells(trx, recording.id);
  }
}

function keepsEveryCell(removed: LabelCells[], added: LabelCells[]): boolean {
  const now = new Map(added.map((a) => [a.label, a.mask]));
  return removed.every((r) => {
    const mask = now.get(r.label);
    return mask !== undefined && ((r.mask.lo & ~mask.lo) >>> 0) === 0 && ((r.mask.hi & ~mask.hi) >>> 0) === 0;
  });
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
