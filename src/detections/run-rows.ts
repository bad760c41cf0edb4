// The rows one stored run consists of: its runs row and one run_centroids row per label. Pure; both writers
// (Kysely on PostgreSQL, prepared statements on SQLite) store exactly these.
import type { RunCentroidsTable, RunsTable } from '../db/schema.js';
import type { Recording } from '../recordings/queries.js';
import { cellMasksOfPoints } from '../search/grid.js';
import { orderByRow, type RowStarts } from '../search/point-rows.js';
import { newId } from '../util/ids.js';
import { computeCentroids, encodePoints, type LabelCentroids } from './centroids.js';
import { encodeBoxes, type BoxFormat } from './run-codec.js';
import type { RunBoxes } from './run-types.js';
import type { ValidatedRun } from './validate-run.js';

/** Every column of a runs row, in the order both writers insert them. */
export const RUN_COLUMNS = [
  'id',
  'org_id',
  'recording_id',
  'run_id',
  'name',
  'task',
  'schema_version',
  'source',
  'original_coordinate_space',
  'original_box_form',
  'media',
  'categories',
  'recording_timestamp',
  'created_at',
  'updated_at',
  'version',
  'revision',
  'edited_by',
  'edited_at',
  'tracks_stored',
  'boxes_stored',
  'tracks',
  'boxes',
] as const satisfies ReadonlyArray<keyof RunsTable>;

/** What a re-post of the same (recording, runId) replaces: everything but the identity and created_at. */
export const REPLACED_RUN_COLUMNS = [
  'name',
  'task',
  'schema_version',
  'source',
  'original_coordinate_space',
  'original_box_form',
  'media',
  'categories',
  'recording_timestamp',
  'updated_at',
  'edited_by',
  'edited_at',
  'tracks_stored',
  'boxes_stored',
  'tracks',
  'boxes',
] as const satisfies ReadonlyArray<keyof RunsTable>;

/**
 * Keeps the run's current content as its revision before a replace overwrites it: whole, as a replace may change
 * everything (a patch or a restore keeps a reverse delta instead, revision-writer.ts). The column lists of both
 * writers' INSERT … SELECT, the runs row's columns in the order of run_revisions'.
 */
export const REVISION_COPY_COLUMNS =
  'run_pk, org_id, revision, created_at, edited_by, edited_at, name, task, schema_version, source, ' +
  'original_coordinate_space, original_box_form, media, categories, tracks_stored, boxes_stored, whole, positions, ' +
  'added, tracks, boxes';
export const REVISION_COPY_SELECT =
  'r.id, r.org_id, r.revision, r.updated_at, r.edited_by, r.edited_at, r.name, r.task, r.schema_version, r.source, ' +
  'r.original_coordinate_space, r.original_box_form, r.media, r.categories, r.tracks_stored, r.boxes_stored, 1, ' +
  'null, null, r.tracks, r.boxes';

/** `version` counts writes: 1 after the insert, so concurrent posts still learn which one created the run. */
export function runRowOf(
  orgId: string,
  recording: Recording,
  run: ValidatedRun,
  now: number,
  format: BoxFormat,
  editedBy: string | null = null,
): RunsTable {
  const { meta, boxes } = run;
  return {
    id: newId(now),
    org_id: orgId,
    recording_id: recording.id,
    run_id: meta.runId,
    name: meta.name ?? null,
    task: meta.task,
    schema_version: meta.schemaVersion,
    source: JSON.stringify(meta.source),
    original_coordinate_space: meta.originalCoordinateSpace,
    original_box_form: meta.originalBoxForm,
    media: meta.media ? JSON.stringify(meta.media) : null,
    categories: meta.categories ? JSON.stringify(meta.categories) : null,
    recording_timestamp: recording.startTimestamp,
    created_at: now,
    updated_at: now,
    version: 1,
    revision: 1,
    edited_by: editedBy,
    edited_at: editedBy === null ? null : now,
    tracks_stored: boxes.headers.length,
    boxes_stored: boxes.count,
    tracks: JSON.stringify(boxes.headers),
    boxes: encodeBoxes(boxes, format),
  };
}

export type CentroidRow = Omit<RunCentroidsTable, 'run_pk' | 'segment' | 'cells_lo' | 'cells_hi' | keyof RowStarts> &
  RowStarts & { cells_lo: number; cells_hi: number };

/** One row per label (without its run's key, known only once the run row is written). */
export function centroidRowsOf(recording: Pick<Recording, 'id' | 'orgId'>, run: { boxes: RunBoxes }): CentroidRow[] {
  return computeCentroids(run.boxes).map((c) => centroidRowOf(recording, c));
}

/** One label's row from its points (x0, y0, x1, y1, … in any order) and their frames (one per point). */
export function centroidRowOf(recording: Pick<Recording, 'id' | 'orgId'>, c: LabelCentroids): CentroidRow {
  const cells = cellMasksOfPoints(c.points);
  // Points ordered by grid row, with each row's start, so a search reads only the rows it covers.
  const { ordered, orderedFrames, starts } = orderByRow(c.points, c.frames);
  return {
    recording_id: recording.id,
    org_id: recording.orgId,
    label: c.label,
    count: c.points.length / 2,
    points: encodePoints(ordered),
    frames: encodePoints(orderedFrames),
    ...starts,
    cells_lo: cells.lo,
    cells_hi: cells.hi,
  };
}

/** One request's run to store, under the key by which writes of the same run queue and coalesce. */
export interface RunWrite {
  key: string;
  orgId: string;
  recording: Recording;
  run: ValidatedRun;
  /** The person's username when a session user writes (spec §9 editedBy), else null. */
  editedBy: string | null;
  /** RUN_REVISIONS_KEPT: revisions a run keeps, the current one included. */
  revisionsKept: number;
}

export function runKey(recordingId: string, runId: string): string {
  return `${recordingId}\u0000${runId}`;
}
