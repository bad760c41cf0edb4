// Every database access of the evaluation domain, scoped by organisation (the job claim, which serves every
// organisation, hands back the row's own). Run bodies are read through the detections domain (jobs.ts).
import type { Kysely } from 'kysely';
import { isPostgres } from '../db/is-postgres.js';
import type { Database, EvaluationsTable } from '../db/schema.js';
import { holdsNul } from '../db/unstorable-text.js';
import { SUMMARY_COLUMNS, type SummaryRow } from '../detections/queries.js';

type Db = Kysely<Database>;

export type CandidateRun = SummaryRow & { frame_count: number | null; width: number | null; height: number | null };

/** Run summaries with their recording's size, oldest recording first: of some recordings, a filter, or all. */
export async function runSummariesOf(
  db: Db,
  orgId: string,
  filter: { recordingIds?: string[]; device?: string; from?: number; to?: number },
): Promise<CandidateRun[]> {
  if (filter.recordingIds?.length === 0 || holdsNul(filter.device)) return [];
  let q = db
    .selectFrom('runs')
    .innerJoin('recordings', 'recordings.id', 'runs.recording_id')
    .select([
      ...SUMMARY_COLUMNS,
      'recordings.media_key',
      'recordings.analysis_id',
      'recordings.frame_count',
      'recordings.width',
      'recordings.height',
    ])
    .where('runs.org_id', '=', orgId)
    .where('recordings.org_id', '=', orgId);
  if (filter.recordingIds) q = q.where('runs.recording_id', 'in', filter.recordingIds);
  if (filter.device !== undefined) q = q.where('recordings.device_key', '=', filter.device);
  if (filter.from !== undefined) q = q.where('recordings.start_timestamp', '>=', filter.from);
  if (filter.to !== undefined) q = q.where('recordings.start_timestamp', '<=', filter.to);
  return q
    .orderBy('recordings.start_timestamp', 'asc')
    .orderBy('recordings.id', 'asc')
    .orderBy('runs.created_at', 'asc')
    .execute();
}

/** The current write of each run still there: a run missing from the map was deleted. */
export async function currentRuns(
  db: Db,
  orgId: string,
  pks: readonly string[],
): Promise<Map<string, { updatedAt: number; version: number }>> {
  const out = new Map<string, { updatedAt: number; version: number }>();
  for (let i = 0; i < pks.length; i += 500) {
    const rows = await db
      .selectFrom('runs')
      .select(['id', 'updated_at', 'version'])
      .where('org_id', '=', orgId)
      .where('id', 'in', pks.slice(i, i + 500))
      .execute();
    for (const r of rows) out.set(r.id, { updatedAt: Number(r.updated_at), version: Number(r.version) });
  }
  return out;
}

export async function insertEvaluation(db: Db, row: EvaluationsTable, mediaKeys: readonly string[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('evaluations').values(row).execute();
    const keys = [...new Set(mediaKeys)];
    for (let i = 0; i < keys.length; i += 200) {
      await trx
        .insertInto('evaluation_recordings')
        .values(
          keys.slice(i, i + 200).map((media_key) => ({
            evaluation_id: row.id,
            org_id: row.org_id,
            media_key,
            created_at: row.created_at,
          })),
        )
        .execute();
    }
  });
}

const LISTED_COLUMNS = [
  'evaluations.id',
  'evaluations.org_id',
  'evaluations.status',
  'evaluations.plan',
  'evaluations.used_runs',
  'evaluations.results',
  'evaluations.error',
  'evaluations.created_at',
  'evaluations.completed_at',
] as const;

export type EvaluationRow = Pick<
  EvaluationsTable,
  'id' | 'org_id' | 'status' | 'plan' | 'used_runs' | 'results' | 'error' | 'created_at' | 'completed_at'
> & { frames?: string | null };

export async function findEvaluation(
  db: Db,
  orgId: string,
  id: string,
  withFrames: boolean,
): Promise<EvaluationRow | undefined> {
  if (holdsNul(id)) return undefined;
  const q = db
    .selectFrom('evaluations')
    .select(LISTED_COLUMNS)
    .where('evaluations.org_id', '=', orgId)
    .where('evaluations.id', '=', id);
  const row = withFrames ? await q.select('evaluations.frames').executeTakeFirst() : await q.executeTakeFirst();
  return row && { ...row, created_at: Number(row.created_at) };
}

/** Newest first by creation, then id; `after` is the previous page's last (createdAt, id). */
export async function listEvaluations(
  db: Db,
  orgId: string,
  f: { mediaKey?: string; after?: { start: number; id: string }; limit: number },
): Promise<EvaluationRow[]> {
  if (holdsNul(f.mediaKey)) return [];
  let q = db.selectFrom('evaluations').select(LISTED_COLUMNS).where('evaluations.org_id', '=', orgId);
  if (f.mediaKey !== undefined) {
    const key = f.mediaKey;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('evaluation_recordings as er')
          .select('er.evaluation_id')
          .whereRef('er.evaluation_id', '=', 'evaluations.id')
          .where('er.org_id', '=', orgId)
          .where('er.media_key', '=', key),
      ),
    );
  }
  if (f.after) {
    const { start, id } = f.after;
    q = q.where((eb) =>
      eb.or([
        eb('evaluations.created_at', '<', start),
        eb.and([eb('evaluations.created_at', '=', start), eb('evaluations.id', '<', id)]),
      ]),
    );
  }
  const rows = await q
    .orderBy('evaluations.created_at', 'desc')
    .orderBy('evaluations.id', 'desc')
    .limit(f.limit)
    .execute();
  return rows.map((r) => ({ ...r, created_at: Number(r.created_at) }));
}

export async function deleteEvaluation(db: Db, orgId: string, id: string): Promise<boolean> {
  if (holdsNul(id)) return false;
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('evaluation_recordings').where('evaluation_id', '=', id).where('org_id', '=', orgId).execute();
    const gone = await trx
      .deleteFrom('evaluations')
      .where('id', '=', id)
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    return Number(gone.numDeletedRows) > 0;
  });
}

export interface ClaimedJob {
  id: string;
  org_id: string;
  plan: string;
  attempts: number;
}

/**
 * Takes over the oldest running evaluation whose lease has lapsed (its instance died), or undefined. PostgreSQL:
 * the row is locked FOR UPDATE SKIP LOCKED, so instances claiming at once take different jobs. SQLite has one
 * writer at a time: one UPDATE … RETURNING checks the lapse and takes the lease in a single write.
 */
export async function claimLapsedJob(
  db: Db,
  owner: string,
  now: number,
  leaseMs: number,
): Promise<ClaimedJob | undefined> {
  const take = (trx: Db, id: string) =>
    trx
      .updateTable('evaluations')
      .set((eb) => ({ lease_owner: owner, lease_expires_at: now + leaseMs, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('lease_expires_at', '<', now)
      .returning(['id', 'org_id', 'plan', 'attempts'])
      .executeTakeFirst();
  if (isPostgres(db)) {
    return db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('evaluations')
        .select('id')
        .where('status', '=', 'running')
        .where('lease_expires_at', '<', now)
        .orderBy('created_at', 'asc')
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      return row ? take(trx, row.id) : undefined;
    });
  }
  const row = await db
    .updateTable('evaluations')
    .set((eb) => ({ lease_owner: owner, lease_expires_at: now + leaseMs, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', (eb) =>
      eb
        .selectFrom('evaluations')
        .select('id')
        .where('status', '=', 'running')
        .where('lease_expires_at', '<', now)
        .orderBy('created_at', 'asc')
        .limit(1),
    )
    .where('status', '=', 'running')
    .where('lease_expires_at', '<', now)
    .returning(['id', 'org_id', 'plan', 'attempts'])
    .executeTakeFirst();
  return row;
}

/** Extends the lease while this instance still holds it; false: the job was deleted, finished or taken over. */
export async function renewLease(db: Db, id: string, owner: string, until: number): Promise<boolean> {
  const r = await db
    .updateTable('evaluations')
    .set({ lease_expires_at: until })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Stores the outcome, if this instance still holds the job; false when it no longer does. */
export async function finishEvaluation(
  db: Db,
  id: string,
  owner: string,
  outcome: Pick<EvaluationsTable, 'status' | 'results' | 'frames' | 'error' | 'used_runs'> & { completed_at: number },
): Promise<boolean> {
  const r = await db
    .updateTable('evaluations')
    .set({ ...outcome, lease_owner: null, lease_expires_at: 0 })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Hands the lease back (the instance is closing): the job is claimable at once. */
export async function releaseLease(db: Db, id: string, owner: string): Promise<void> {
  await db
    .updateTable('evaluations')
    .set({ lease_expires_at: 0 })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'running')
    .execute();
}
