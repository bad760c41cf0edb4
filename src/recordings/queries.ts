// Recordings: the table every detection run hangs off, always read within one organisation.
import type { Kysely } from 'kysely';
import type { Database, RecordingsTable } from '../db/schema.js';
import { newId } from '../util/ids.js';

type Db = Kysely<Database>;

export interface Recording {
  id: string; orgId: string; mediaKey: string; analysisId: string; startTimestamp: number;
  deviceKey: string | null; provider: string | null; width: number | null; height: number | null;
  fps: number | null; frameCount: number | null; durationMs: number | null; createdAt: number;
}

export interface NewRecording {
  mediaKey: string; analysisId?: string; startTimestamp: number; deviceKey?: string | null; provider?: string | null;
  width?: number | null; height?: number | null; fps?: number | null; frameCount?: number | null; durationMs?: number | null;
}

export function toRecording(row: RecordingsTable): Recording {
  return {
    id: row.id, orgId: row.org_id, mediaKey: row.media_key, analysisId: row.analysis_id, startTimestamp: row.start_timestamp,
    deviceKey: row.device_key, provider: row.provider, width: row.width, height: row.height, fps: row.fps,
    frameCount: row.frame_count, durationMs: row.duration_ms, createdAt: row.created_at,
  };
}

export async function insertRecording(db: Db, orgId: string, input: NewRecording): Promise<Recording> {
  const row: RecordingsTable = {
    id: newId(), org_id: orgId, media_key: input.mediaKey, analysis_id: input.analysisId ?? newId(),
    start_timestamp: input.startTimestamp, device_key: input.deviceKey ?? null, provider: input.provider ?? null,
    width: input.width ?? null, height: input.height ?? null, fps: input.fps ?? null,
    frame_count: input.frameCount ?? null, duration_ms: input.durationMs ?? null, created_at: Date.now(),
  };
  await db.insertInto('recordings').values(row).execute();
  return toRecording(row);
}

/** The recording a run names, inside the caller's organisation only; mediaKey wins over analysisId. */
export async function resolveTarget(db: Db, orgId: string, target: { mediaKey?: string; analysisId?: string }): Promise<Recording | undefined> {
  let query = db.selectFrom('recordings').selectAll().where('org_id', '=', orgId);
  if (target.mediaKey !== undefined) query = query.where('media_key', '=', target.mediaKey);
  else if (target.analysisId !== undefined) query = query.where('analysis_id', '=', target.analysisId);
  else return undefined;
  const row = await query.executeTakeFirst();
  return row && toRecording(row);
}

export async function listRecordings(db: Db, orgId: string): Promise<Recording[]> {
  const rows = await db.selectFrom('recordings').selectAll().where('org_id', '=', orgId)
    .orderBy('start_timestamp', 'desc').orderBy('id', 'desc').execute();
  return rows.map(toRecording);
}
