// Every query of the detections domain. All of them are scoped by organisation.
import type { Kysely } from 'kysely';
import type { Database, RunsTable } from '../db/schema.js';
import type { Recording } from '../recordings/queries.js';
import type { Store } from '../db/store.js';
import { isPostgres } from '../db/is-postgres.js';
import { lockRecordingsForWrite } from '../db/recording-gate.js';
import { refreshRecordingCells } from '../search/cell-index.js';
import { decodeBoxes, tracksForApi } from './run-codec.js';
import { writePgRuns } from './pg-run-writer.js';
import { centroidRowsOf, runKey, runRowOf, type RunWrite } from './run-rows.js';
import type { StoredRun } from './run-write-batch.js';
import { RunWriteQueue } from './run-write-queue.js';
import { sqliteRunWriter } from './sqlite-run-writer.js';
import type { TrackHeader } from './run-types.js';
import type { ValidatedRun } from './validate-run.js';
import { byCodePoint } from '../db/code-point-order.js';
import { holdsNul } from '../db/unstorable-text.js';
import { DEFAULT_RUN_REVISIONS_KEPT } from './limits.js';

type Db = Kysely<Database>;

export const SUMMARY_COLUMNS = [
  'runs.id',
  'runs.run_id',
  'runs.name',
  'runs.task',
  'runs.schema_version',
  'runs.source',
  'runs.original_coordinate_space',
  'runs.original_box_form',
  'runs.media',
  'runs.categories',
  'runs.recording_timestamp',
  'runs.created_at',
  'runs.updated_at',
  'runs.tracks_stored',
  'runs.boxes_stored',
  'runs.recording_id',
  'runs.version',
  'runs.revision',
  'runs.edited_by',
  'runs.edited_at',
] as const;

export type SummaryRow = Pick<
  RunsTable,
  | 'id'
  | 'run_id'
  | 'name'
  | 'task'
  | 'schema_version'
  | 'source'
  | 'original_coordinate_space'
  | 'original_box_form'
  | 'media'
  | 'categories'
  | 'recording_timestamp'
  | 'created_at'
  | 'updated_at'
  | 'tracks_stored'
  | 'boxes_stored'
  | 'recording_id'
  | 'version'
  | 'revision'
  | 'edited_by'
  | 'edited_at'
> & { media_key: string; analysis_id: string };

export type UpsertResult = StoredRun;

/**
 * Runs up to this many boxes (a few hundred KiB of JSON) wait in the store's write queue and are stored with
 * whatever else waits there; larger ones go to the database at once, alone.
 */
const QUEUED_UP_TO_BOXES = 5000;

const queues = new WeakMap<Store, RunWriteQueue<RunWrite>>();

/**
 * Inserts or truly replaces the run (recording, runId), its centroids and its recording's search aggregate in
 * one transaction: on SQLite through prepared statements, on PostgreSQL through Kysely. Small runs share that
 * transaction with the other small runs waiting at the same time (run-write-queue.ts).
 */
export async function upsertRun(
  store: Store,
  orgId: string,
  recording: Recording,
  run: ValidatedRun,
  options: { editedBy?: string | null; revisionsKept?: number } = {},
): Promise<UpsertResult> {
  const write: RunWrite = {
    key: runKey(recording.id, run.meta.runId),
    orgId,
    recording,
    run,
    editedBy: options.editedBy ?? null,
    revisionsKept: options.revisionsKept ?? DEFAULT_RUN_REVISIONS_KEPT,
  };
  if (run.boxes.count > QUEUED_UP_TO_BOXES) return (await writeRuns(store, [[write]]))[0]!;
  let queue = queues.get(store);
  if (!queue) {
    // SQLite writes block the event loop, so its batches collect until the loop's check phase. A PostgreSQL
    // batch leaves the pool's other connections to the reads that run meanwhile.
    queue = new RunWriteQueue(
      (groups) => writeRuns(store, groups),
      store.sqlite
        ? { maxInFlight: 1, maxKeys: 64, deferToCheckPhase: true }
        : { maxInFlight: 2, maxKeys: 64, deferToCheckPhase: false },
    );
    queues.set(store, queue);
  }
  return queue.write(write);
}

/** Stores the last write of each group, all in one transaction. */
async function writeRuns(store: Store, groups: RunWrite[][]): Promise<StoredRun[]> {
  if (!store.sqlite) return writePgRuns(store.db, groups);
  const now = Date.now();
  const runs = groups.map((group) => {
    const { orgId, recording, run, editedBy, revisionsKept } = group[group.length - 1]!;
    return {
      row: runRowOf(orgId, recording, run, now, 'doubles', editedBy),
      revisionsKept,
      recording,
      centroids: centroidRowsOf(recording, run),
    };
  });
  const write = sqliteRunWriter(store.sqlite);
  // Holding Kysely's connection first: a Kysely transaction awaiting between its statements must not see ours.
  return store.db.connection().execute(async () => write(runs));
}

function summaryQuery(db: Db, orgId: string) {
  return db
    .selectFrom('runs')
    .innerJoin('recordings', 'recordings.id', 'runs.recording_id')
    .select([...SUMMARY_COLUMNS, 'recordings.media_key', 'recordings.analysis_id'])
    .where('runs.org_id', '=', orgId);
}

export async function listRunSummaries(db: Db, orgId: string, recordingId: string): Promise<SummaryRow[]> {
  return summaryQuery(db, orgId)
    .where('runs.recording_id', '=', recordingId)
    .orderBy('runs.created_at', 'asc')
    .orderBy(byCodePoint(db, 'runs.run_id'), 'asc')
    .execute();
}

/** One run's summary with its stored body (tracks and boxes), by its key: one statement, so one version. */
export function runWithBody(db: Db, orgId: string, runPk: string) {
  return summaryQuery(db, orgId).select(['runs.tracks', 'runs.boxes']).where('runs.id', '=', runPk).executeTakeFirst();
}

/** One run's summary by its key. */
export function runSummary(db: Db, orgId: string, runPk: string): Promise<SummaryRow | undefined> {
  return summaryQuery(db, orgId).where('runs.id', '=', runPk).executeTakeFirst();
}

/** Every run of the organisation with that runId, optionally on one recording (by mediaKey). */
export async function findRunsByRunId(db: Db, orgId: string, runId: string, mediaKey?: string): Promise<SummaryRow[]> {
  if (holdsNul(runId, mediaKey)) return [];
  let query = summaryQuery(db, orgId).where('runs.run_id', '=', runId);
  if (mediaKey !== undefined) query = query.where('recordings.media_key', '=', mediaKey);
  // A runId on several recordings: their mediaKeys in a stable order (a batch stamps its runs with one time).
  return query
    .orderBy('runs.created_at', 'asc')
    .orderBy(byCodePoint(db, 'recordings.media_key'), 'asc')
    .limit(50)
    .execute();
}

export async function deleteRun(db: Db, orgId: string, runPk: string, recordingId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // On PostgreSQL the recording first (its gate and a key-share lock on its row), as the run writers take it:
    // deleting the recording and the retention sweep hold the recording and then wait for its runs' rows, and a run
    // delete that held its run row first and then needed the recording (the search aggregate's foreign key)
    // deadlocked with them (half of the races of a recording delete against its run deletes answered 500).
    if (isPostgres(trx)) await lockRecordingsForWrite([recordingId]).execute(trx);
    const gone = await trx
      .deleteFrom('runs')
      .where('id', '=', runPk)
      .where('org_id', '=', orgId)
      .returning('recording_id')
      .executeTakeFirst();
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
    revision: row.revision,
  });
  if (row.edited_by !== null) {
    summary.editedBy = row.edited_by;
    summary.editedAt = new Date(Number(row.edited_at)).toISOString();
  }
  return summary;
}

export function fullRunForApi(row: SummaryRow, body: { tracks: string; boxes: Uint8Array }) {
  const headers = JSON.parse(body.tracks) as TrackHeader[];
  return { ...summaryForApi(row), tracks: tracksForApi(headers, decodeBoxes(body.boxes)) };
}
