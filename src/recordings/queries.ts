// Recordings: the table every detection run hangs off, always read within one organisation.
import { sql, type Kysely } from 'kysely';
import type { Database, RecordingsTable } from '../db/schema.js';
import { batchedLookup } from '../db/lookup-batcher.js';
import { preparedQuery } from '../db/prepared-query.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { isPostgres } from '../db/is-postgres.js';
import { lockRecordingForDelete } from '../db/recording-gate.js';
import { newId } from '../util/ids.js';
import { holdsNul, withoutNul } from '../db/unstorable-text.js';

type Db = Kysely<Database>;

export interface Recording {
  id: string;
  orgId: string;
  mediaKey: string;
  analysisId: string;
  startTimestamp: number;
  deviceKey: string | null;
  provider: string | null;
  width: number | null;
  height: number | null;
  fps: number | null;
  frameCount: number | null;
  durationMs: number | null;
  createdAt: number;
}

export interface NewRecording {
  mediaKey: string;
  analysisId?: string;
  startTimestamp: number;
  deviceKey?: string | null;
  provider?: string | null;
  /** The start was not sent but read from the key's file name: a repeat that leaves it out is no conflict. */
  startFromKey?: boolean;
  width?: number | null;
  height?: number | null;
  fps?: number | null;
  frameCount?: number | null;
  durationMs?: number | null;
}

export function toRecording(row: RecordingsTable): Recording {
  return {
    id: row.id,
    orgId: row.org_id,
    mediaKey: row.media_key,
    analysisId: row.analysis_id,
    startTimestamp: row.start_timestamp,
    deviceKey: row.device_key,
    provider: row.provider,
    width: row.width,
    height: row.height,
    fps: row.fps,
    frameCount: row.frame_count,
    durationMs: row.duration_ms,
    createdAt: row.created_at,
  };
}

export async function insertRecording(db: Db, orgId: string, input: NewRecording): Promise<Recording> {
  const row: RecordingsTable = {
    id: newId(),
    org_id: orgId,
    media_key: input.mediaKey,
    analysis_id: input.analysisId ?? newId(),
    start_timestamp: input.startTimestamp,
    device_key: input.deviceKey ?? null,
    provider: input.provider ?? null,
    width: input.width ?? null,
    height: input.height ?? null,
    fps: input.fps ?? null,
    frame_count: input.frameCount ?? null,
    duration_ms: input.durationMs ?? null,
    created_at: Date.now(),
  };
  await db.insertInto('recordings').values(row).execute();
  return toRecording(row);
}

/** The recording a run names, inside the caller's organisation only; mediaKey wins over analysisId. */
export async function resolveTarget(
  db: Db,
  orgId: string,
  target: { mediaKey?: string; analysisId?: string },
): Promise<Recording | undefined> {
  let row: RecordingsTable | undefined;
  if (target.mediaKey !== undefined) row = await recordingByMediaKey(db, `${orgId}\n${target.mediaKey}`);
  else if (target.analysisId !== undefined) row = await recordingByAnalysisId(db, `${orgId}\n${target.analysisId}`);
  else return undefined;
  return row && toRecording(row);
}

// Every run POST resolves its recording: these run without building the query each time, and on PostgreSQL the
// lookups of concurrent requests share a query (lookup-batcher.ts). A key is "<orgId>\n<mediaKey or analysisId>":
// ids never hold a newline, so the first one splits it.
// Named columns, not *: a planned statement must keep its result type when a later migration adds a column.
const RECORDING_COLUMNS = [
  'id',
  'org_id',
  'media_key',
  'analysis_id',
  'start_timestamp',
  'device_key',
  'provider',
  'width',
  'height',
  'fps',
  'frame_count',
  'duration_ms',
  'created_at',
] as const satisfies ReadonlyArray<keyof RecordingsTable>;
type KeyColumn = 'media_key' | 'analysis_id';

function recordingLookup(column: KeyColumn) {
  const many = preparedQuery((db: Db) =>
    db
      .selectFrom('recordings')
      .select(RECORDING_COLUMNS)
      .where(sql<boolean>`(org_id, ${sql.ref(column)}) in (select * from unnest(${[]}::text[], ${[]}::text[]))`),
  );
  const one = preparedQuery((db: Db) =>
    db.selectFrom('recordings').select(RECORDING_COLUMNS).where('org_id', '=', '').where(column, '=', ''),
  );
  const split = (key: string) => [key.slice(0, key.indexOf('\n')), key.slice(key.indexOf('\n') + 1)];
  return batchedLookup(
    async (db: Db, keys: string[]) => {
      const pairs = keys.map(split);
      const rows = await many(
        db,
        pairs.map((p) => p[0]),
        pairs.map((p) => p[1]),
      );
      return new Map(rows.map((r) => [`${r.org_id}\n${r[column]}`, r as RecordingsTable]));
    },
    async (db: Db, key: string) => (await one(db, ...split(key)))[0] as RecordingsTable | undefined,
  );
}
const recordingByMediaKey = recordingLookup('media_key');
const recordingByAnalysisId = recordingLookup('analysis_id');

export async function listRecordings(db: Db, orgId: string): Promise<Recording[]> {
  const rows = await db
    .selectFrom('recordings')
    .selectAll()
    .where('org_id', '=', orgId)
    .orderBy('start_timestamp', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toRecording);
}

// ——— Registry API (issue 4) ———

export interface RecordingView {
  id: string;
  mediaKey: string;
  analysisId: string;
  startTimestamp: number;
  deviceKey: string | null;
  provider: string | null;
  width: number | null;
  height: number | null;
  fps: number | null;
  frameCount: number | null;
  durationMs: number | null;
  createdAt: string;
}

export function recordingForApi(r: Recording): RecordingView {
  return {
    id: r.id,
    mediaKey: r.mediaKey,
    analysisId: r.analysisId,
    startTimestamp: r.startTimestamp,
    deviceKey: r.deviceKey,
    provider: r.provider,
    width: r.width,
    height: r.height,
    fps: r.fps,
    frameCount: r.frameCount,
    durationMs: r.durationMs,
    createdAt: new Date(r.createdAt).toISOString(),
  };
}

/** The storage account the organisation chose for the editor's asset URLs (null: the server's setting decides). */
export async function editorStorageAccountOf(db: Db, orgId: string): Promise<string | null> {
  const row = await db
    .selectFrom('organisations')
    .select('editor_storage_account')
    .where('id', '=', orgId)
    .executeTakeFirst();
  return row?.editor_storage_account ?? null;
}

/** By internal id first, then by mediaKey; only inside the organisation. */
export async function findRecording(db: Db, orgId: string, idOrKey: string): Promise<Recording | undefined> {
  if (holdsNul(idOrKey)) return undefined;
  const rows = await db
    .selectFrom('recordings')
    .selectAll()
    .where('org_id', '=', orgId)
    .where((eb) => eb.or([eb('id', '=', idOrKey), eb('media_key', '=', idOrKey)]))
    .limit(2)
    .execute();
  const row = rows.find((r) => r.id === idOrKey) ?? rows[0];
  return row && toRecording(row);
}

const COMPARED = [
  'analysisId',
  'startTimestamp',
  'deviceKey',
  'provider',
  'width',
  'height',
  'fps',
  'frameCount',
  'durationMs',
] as const;

/** The fields a re-registration sets to another value than the stored one; absent fields never conflict. */
export function conflictingFields(stored: Recording, input: NewRecording): string[] {
  return COMPARED.filter(
    (f) => input[f] !== undefined && input[f] !== stored[f] && !(f === 'startTimestamp' && input.startFromKey),
  );
}

export type Registration =
  | { outcome: 'created' | 'existing'; recording: Recording }
  | { outcome: 'conflict'; recording: Recording; fields: string[] }
  | { outcome: 'analysis_id_taken' };

/**
 * Registers a recording once per (organisation, mediaKey). Re-registering with the same values returns the
 * stored one; other values are a conflict. A concurrent twin is resolved by the unique constraint.
 */
export async function registerRecording(
  db: Db,
  orgId: string,
  input: NewRecording,
  options: { compare?: boolean } = {},
): Promise<Registration> {
  const compare = options.compare ?? true;
  const judge = (stored: Recording): Registration => {
    const fields = compare ? conflictingFields(stored, input) : [];
    return fields.length > 0
      ? { outcome: 'conflict', recording: stored, fields }
      : { outcome: 'existing', recording: stored };
  };
  const existing = await resolveTarget(db, orgId, { mediaKey: input.mediaKey });
  if (existing) return judge(existing);
  if (input.analysisId !== undefined) {
    const taken = await db
      .selectFrom('recordings')
      .select('id')
      .where('analysis_id', '=', input.analysisId)
      .executeTakeFirst();
    if (taken) {
      // Taken by a twin registered since the lookup above (concurrent identical registrations) is no conflict.
      const twin = await resolveTarget(db, orgId, { mediaKey: input.mediaKey });
      return twin ? judge(twin) : { outcome: 'analysis_id_taken' };
    }
  }
  try {
    return { outcome: 'created', recording: await insertRecording(db, orgId, input) };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const twin = await resolveTarget(db, orgId, { mediaKey: input.mediaKey });
    if (twin) return judge(twin);
    return { outcome: 'analysis_id_taken' };
  }
}

export interface ListFilters {
  device?: string;
  from?: number;
  to?: number;
  hasDetections?: boolean;
  labels?: string[];
  after?: { start: number; id: string };
  limit: number;
}

export interface ListedRecording extends Recording {
  runCount: number;
}

/** Newest first by start time, then id; `after` is the keyset position of the previous page's last row. */
export async function listRecordingsPage(db: Db, orgId: string, f: ListFilters): Promise<ListedRecording[]> {
  const labels = f.labels && withoutNul(f.labels);
  if (holdsNul(f.device) || (labels && labels.length === 0 && f.labels!.length > 0)) return [];
  let q = db
    .selectFrom('recordings as r')
    .selectAll('r')
    .select((eb) =>
      eb
        .selectFrom('runs')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('runs.recording_id', '=', 'r.id')
        .as('run_count'),
    )
    .where('r.org_id', '=', orgId);
  if (f.device !== undefined) q = q.where('r.device_key', '=', f.device);
  if (f.from !== undefined) q = q.where('r.start_timestamp', '>=', f.from);
  if (f.to !== undefined) q = q.where('r.start_timestamp', '<=', f.to);
  if (f.hasDetections !== undefined) {
    q = q.where((eb) => {
      const runs = eb.exists(eb.selectFrom('runs').select('runs.id').whereRef('runs.recording_id', '=', 'r.id'));
      return f.hasDetections ? runs : eb.not(runs);
    });
  }
  if (labels && labels.length > 0) {
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('recording_label_cells as c')
          .select('c.recording_id')
          .whereRef('c.recording_id', '=', 'r.id')
          .where('c.label', 'in', labels),
      ),
    );
  }
  if (f.after) {
    const { start, id } = f.after;
    q = q.where((eb) =>
      eb.or([eb('r.start_timestamp', '<', start), eb.and([eb('r.start_timestamp', '=', start), eb('r.id', '<', id)])]),
    );
  }
  const rows = await q.orderBy('r.start_timestamp', 'desc').orderBy('r.id', 'desc').limit(f.limit).execute();
  return rows.map((row) => ({ ...toRecording(row), runCount: Number(row.run_count ?? 0) }));
}

/** Removes the recording with its runs, their centroids and its search cells, in one transaction. */
export async function deleteRecording(db: Db, orgId: string, recordingId: string): Promise<number | undefined> {
  return db.transaction().execute(async (trx) => {
    // The recording's row first, as the retention sweep does: a run being written holds a key-share lock on it
    // (its foreign key), so this waits for that write instead of deadlocking with it over the search cells; and a
    // write that starts later waits here, then finds the recording gone (404).
    if (isPostgres(trx)) {
      await lockRecordingForDelete(recordingId).execute(trx);
      await trx
        .selectFrom('recordings')
        .select('id')
        .where('id', '=', recordingId)
        .where('org_id', '=', orgId)
        .forUpdate()
        .execute();
    }
    const runs = await trx
      .deleteFrom('runs')
      .where('recording_id', '=', recordingId)
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    await trx.deleteFrom('run_centroids').where('recording_id', '=', recordingId).where('org_id', '=', orgId).execute();
    await trx
      .deleteFrom('recording_label_cells')
      .where('recording_id', '=', recordingId)
      .where('org_id', '=', orgId)
      .execute();
    const gone = await trx
      .deleteFrom('recordings')
      .where('id', '=', recordingId)
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    return Number(gone.numDeletedRows) > 0 ? Number(runs.numDeletedRows) : undefined;
  });
}
