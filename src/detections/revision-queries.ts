// The queries of run revisions (spec §9): listing them, reading an earlier one back, and changing a run's content by a
// patch or a restore with the content it replaces kept as a reverse delta. Scoped by organisation like every query.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../db/is-postgres.js';
import { lockRecordingsForWrite } from '../db/recording-gate.js';
import type { Database, RunRevisionsTable } from '../db/schema.js';
import type { Store } from '../db/store.js';
import { cellChange, labelCellRows, labelCellsOf } from '../search/label-cells.js';
import { lockRecordingCells, mergeLabelCellRows, refreshRecordingCells } from '../search/cell-index.js';
import type { SummaryRow } from './queries.js';
import { decodeBoxes, encodeBoxes, isSegmentedBoxes, SEGMENTED_BOXES } from './run-codec.js';
import { applyReverseDelta, runOf, tracksOf, type ReverseDelta, type TrackSlice } from './run-delta.js';
import { centroidRowsOf } from './run-rows.js';
import type { TrackHeader } from './run-types.js';
import { touchedSegments, type SegmentChange } from './run-segments.js';
import { pruneSegments, readJoinedSegments, writeSegments } from './segment-queries.js';

type Db = Kysely<Database>;

/** The header fields a revision has of its own, as stored in runs and run_revisions. */
export type RevisionHeader = Pick<
  SummaryRow,
  | 'name'
  | 'task'
  | 'schema_version'
  | 'source'
  | 'original_coordinate_space'
  | 'original_box_form'
  | 'media'
  | 'categories'
>;

/** One revision's content: its header fields and its tracks. */
export interface RevisionContent {
  header: RevisionHeader;
  tracks: TrackSlice[];
}

export interface RevisionListEntry {
  revision: number;
  createdAt: string;
  source: unknown;
  tracksStored: number;
  boxesStored: number;
  editedBy?: string;
  current: boolean;
}

export function headerOf(row: RevisionHeader): RevisionHeader {
  const { name, task, schema_version, source, original_coordinate_space, original_box_form, media, categories } = row;
  return { name, task, schema_version, source, original_coordinate_space, original_box_form, media, categories };
}

/** The run's revisions, newest first, the current one (from `run`) first of all. */
export async function listRevisions(db: Db, orgId: string, run: SummaryRow): Promise<RevisionListEntry[]> {
  const rows = await db
    .selectFrom('run_revisions')
    .select(['revision', 'created_at', 'source', 'tracks_stored', 'boxes_stored', 'edited_by'])
    .where('run_pk', '=', run.id)
    .where('org_id', '=', orgId)
    .where('revision', '<', run.revision)
    .orderBy('revision', 'desc')
    .execute();
  const entry = (
    r: Pick<RunRevisionsTable, 'revision' | 'source' | 'tracks_stored' | 'boxes_stored' | 'edited_by'>,
    createdAt: number,
    current: boolean,
  ): RevisionListEntry => ({
    revision: r.revision,
    createdAt: new Date(Number(createdAt)).toISOString(),
    source: JSON.parse(r.source),
    tracksStored: r.tracks_stored,
    boxesStored: r.boxes_stored,
    ...(r.edited_by !== null ? { editedBy: r.edited_by } : {}),
    current,
  });
  return [entry(run, run.updated_at, true), ...rows.map((r) => entry(r, r.created_at, false))];
}

/** A stored revision row as a summary row of the run (the run's identity, the revision's own fields). */
export function revisionSummary(run: SummaryRow, rev: RunRevisionsTable): SummaryRow {
  return {
    ...run,
    ...headerOf(rev),
    updated_at: Number(rev.created_at),
    tracks_stored: rev.tracks_stored,
    boxes_stored: rev.boxes_stored,
    revision: rev.revision,
    edited_by: rev.edited_by,
    edited_at: rev.edited_at === null ? null : Number(rev.edited_at),
  };
}

const tracksOfStored = (tracks: string, boxes: Uint8Array): TrackSlice[] => {
  const headers = JSON.parse(tracks) as TrackHeader[];
  return tracksOf({ headers, columns: decodeBoxes(boxes), count: 0 });
};

function deltaOf(rev: RunRevisionsTable): ReverseDelta {
  return {
    positions: JSON.parse(rev.positions ?? '[]') as number[],
    tracks: tracksOfStored(rev.tracks, rev.boxes),
    added: JSON.parse(rev.added ?? '[]') as string[],
  };
}

/**
 * Revision `n` (older than the current one) of the run: its stored row and its content, rebuilt from the nearest
 * whole content at or above it (a kept whole revision, or the current body given) through the deltas between.
 * Undefined when it is not kept (never made, or past RUN_REVISIONS_KEPT, or expired).
 */
export async function readRevision(
  db: Db,
  orgId: string,
  run: SummaryRow,
  current: { tracks: string; boxes: Uint8Array },
  n: number,
): Promise<{ row: SummaryRow; content: RevisionContent } | undefined> {
  if (!Number.isSafeInteger(n) || n < 1 || n >= run.revision) return undefined;
  // Rows are never changed once written, and a later change only adds rows above run.revision - 1: this reads one
  // version even while the run changes.
  const marks = await db
    .selectFrom('run_revisions')
    .select(['revision', 'whole'])
    .where('run_pk', '=', run.id)
    .where('org_id', '=', orgId)
    .where('revision', '>=', n)
    .where('revision', '<', run.revision)
    .orderBy('revision', 'asc')
    .execute();
  if (marks[0]?.revision !== n) return undefined;
  const fullAt = marks.find((m) => Number(m.whole) === 1)?.revision;
  const top = fullAt ?? run.revision - 1;
  const rows = await db
    .selectFrom('run_revisions')
    .selectAll()
    .where('run_pk', '=', run.id)
    .where('org_id', '=', orgId)
    .where('revision', '>=', n)
    .where('revision', '<=', top)
    .orderBy('revision', 'desc')
    .execute();
  // A gap (pruned meanwhile) cannot be crossed.
  if (rows.length !== top - n + 1) return undefined;
  let tracks: TrackSlice[];
  let i = 0;
  if (fullAt !== undefined) {
    // A whole revision kept from a run in segments has them under its number.
    const whole = rows[0]!;
    const body = isSegmentedBoxes(whole.boxes) ? await readJoinedSegments(db, run.id, whole.revision) : whole;
    tracks = tracksOfStored(body.tracks, body.boxes);
    // Its segments went with it when a cap pruned it meanwhile.
    if (tracks.length !== whole.tracks_stored) return undefined;
    i = 1;
  } else tracks = tracksOfStored(current.tracks, current.boxes);
  for (; i < rows.length; i++) tracks = applyReverseDelta(tracks, deltaOf(rows[i]!));
  const rev = rows[rows.length - 1]!;
  return { row: revisionSummary(run, rev), content: { header: headerOf(rev), tracks } };
}

export type ContentChange =
  | { ok: true; revision: number; tracksStored: number; boxesStored: number }
  | { ok: false; currentRevision: number | undefined };

export interface NewContent {
  /** The run as read: the write happens only if it is still this version (else { ok: false }). */
  run: SummaryRow;
  header: RevisionHeader;
  /** Rebuilds the run's content as read from the new one. */
  delta: ReverseDelta;
  /** The run's counts after the change. */
  tracksStored: number;
  boxesStored: number;
  /** The current segments the change writes and drops (with their track index), or all of them. */
  segments: SegmentChange;
  editedBy: string | null;
  revisionsKept: number;
}

/**
 * Makes the segments written the run's content under the next revision, keeps the content it replaces as a delta,
 * drops the revisions past the cap, and moves the run's centroids and its recording's search cells, in one
 * transaction. The run's boxes are in segments (run-segments.ts): only the segments the change touches are written,
 * and only their centroid rows (one per label and segment) are replaced. The run's row
 * is changed only if it is still the version read: a conditional UPDATE, which on PostgreSQL waits for a
 * concurrent writer's row lock and then sees its change. So of two changes made on one revision one wins and the
 * other learns the current revision, never overwriting it.
 */
/** Rows per insert of a run's centroids or segments: within both dialects' limits on bound parameters. */
const ROWS_PER_INSERT = 256;

export async function changeRunContent(store: Store, orgId: string, change: NewContent): Promise<ContentChange> {
  const { run, delta, tracksStored, boxesStored } = change;
  const now = Date.now();
  // Each dialect's own format, as a posted run (run-codec.ts says why).
  const format = store.sqlite ? 'doubles' : 'columns';
  const recording = { id: run.recording_id, orgId, startTimestamp: Number(run.recording_timestamp) };
  // The centroids of the segments written: every other segment's rows stay as they are.
  const centroids = change.segments.write.flatMap((w) =>
    centroidRowsOf(recording, { boxes: runOf(w.tracks) }).map((c) => ({ ...c, segment: w.segment })),
  );
  const touched = touchedSegments(change.segments);
  const deltaBoxes = encodeBoxes(runOf(delta.tracks), 'columns');
  return store.db.transaction().execute(async (trx): Promise<ContentChange> => {
    if (isPostgres(trx)) await lockRecordingsForWrite([run.recording_id]).execute(trx);
    const updated = await trx
      .updateTable('runs')
      .set({
        ...change.header,
        updated_at: now,
        edited_by: change.editedBy,
        edited_at: change.editedBy === null ? null : now,
        tracks_stored: tracksStored,
        boxes_stored: boxesStored,
        tracks: '[]',
        boxes: SEGMENTED_BOXES,
        version: sql`version + 1`,
        revision: sql`revision + 1`,
      })
      .where('id', '=', run.id)
      .where('org_id', '=', orgId)
      .where('version', '=', run.version)
      .returning(['revision'])
      .executeTakeFirst();
    if (!updated) {
      const now = await trx
        .selectFrom('runs')
        .select('revision')
        .where('id', '=', run.id)
        .where('org_id', '=', orgId)
        .executeTakeFirst();
      return { ok: false, currentRevision: now?.revision };
    }
    await writeSegments(trx, run.id, change.segments, format);
    await trx
      .insertInto('run_revisions')
      .values({
        run_pk: run.id,
        org_id: orgId,
        revision: updated.revision - 1,
        created_at: run.updated_at,
        edited_by: run.edited_by,
        edited_at: run.edited_at,
        ...headerOf(run),
        tracks_stored: run.tracks_stored,
        boxes_stored: run.boxes_stored,
        whole: 0,
        positions: JSON.stringify(delta.positions),
        added: JSON.stringify(delta.added),
        tracks: JSON.stringify(delta.tracks.map((t) => t.header)),
        boxes: deltaBoxes,
      })
      .execute();
    await trx
      .deleteFrom('run_revisions')
      .where('run_pk', '=', run.id)
      .where('revision', '<=', updated.revision - change.revisionsKept)
      .execute();
    await pruneSegments(trx, run.id, updated.revision - change.revisionsKept);

    // The search index follows the current content only.
    let removed = trx.deleteFrom('run_centroids').where('run_pk', '=', run.id);
    if (touched) removed = removed.where('segment', 'in', touched);
    const previous =
      touched?.length === 0 ? [] : await removed.returning(['label', 'cells_lo', 'cells_hi', 'count']).execute();
    for (let i = 0; i < centroids.length; i += ROWS_PER_INSERT)
      await trx
        .insertInto('run_centroids')
        .values(centroids.slice(i, i + ROWS_PER_INSERT).map((c) => ({ ...c, run_pk: run.id })))
        .execute();
    await lockRecordingCells(trx, [run.recording_id]);
    const cells = cellChange(previous.map(labelCellsOf), centroids.map(labelCellsOf));
    if (cells === 'recompute') await refreshRecordingCells(trx, run.recording_id);
    else await mergeLabelCellRows(trx, labelCellRows(recording, cells.merge));
    return { ok: true, revision: updated.revision, tracksStored, boxesStored };
  });
}
