// Retention (spec §6): runs expire with their recording at startTimestamp + retentionDays of its organisation.
// The sweep removes them (and their centroids and search cells) in bounded batches, one transaction each;
// the recording rows go too unless the organisation keeps recordings. Several sweepers may run at once:
// PostgreSQL hands each batch's recordings to one of them (FOR UPDATE SKIP LOCKED); SQLite has one writer.
import { sql } from 'kysely';
import { purgeAudit } from '../admin/audit.js';
import { deleteExpiredSessions, deleteStaleLoginCounters } from '../auth/queries.js';
import type { Store } from '../db/store.js';

export interface SweepOptions {
  now?: number;
  batchSize?: number;
  dryRun?: boolean;
  /** Keep every recording row this time, whatever the organisation's setting. */
  keepRecordings?: boolean;
  log?: (fields: Record<string, unknown>, message: string) => void;
}

export interface SweepResult {
  runsRemoved: number;
  recordingsRemoved: number;
  recordingsEmptied: number;
  sessionsRemoved: number;
  loginCountersRemoved: number;
  /** Audit entries past their organisation's retention (at least 90 days). */
  auditEntriesRemoved: number;
  batches: number;
  dryRun: boolean;
}

export const DEFAULT_SWEEP_BATCH = 500;
const DAY = 86_400;

export async function sweepExpired(store: Store, options: SweepOptions = {}): Promise<SweepResult> {
  const now = options.now ?? Date.now();
  const nowSeconds = Math.floor(now / 1000);
  const batchSize = options.batchSize ?? DEFAULT_SWEEP_BATCH;
  const log = options.log ?? (() => {});
  const db = store.db;
  const result: SweepResult = {
    runsRemoved: 0,
    recordingsRemoved: 0,
    recordingsEmptied: 0,
    sessionsRemoved: 0,
    loginCountersRemoved: 0,
    auditEntriesRemoved: 0,
    batches: 0,
    dryRun: options.dryRun ?? false,
  };
  const orgs = await db
    .selectFrom('organisations')
    .select(['id', 'name', 'retention_days', 'keep_recordings'])
    .execute();

  for (const org of orgs) {
    const cutoff = nowSeconds - org.retention_days * DAY;
    const keep = options.keepRecordings === true || org.keep_recordings === 1;
    if (options.dryRun) {
      // What the real sweep would count: its runs, and its recordings removed, or emptied when they are kept.
      const runs = await db
        .selectFrom('runs')
        .innerJoin('recordings', 'recordings.id', 'runs.recording_id')
        .select([
          db.fn.countAll<number>().as('n'),
          (eb) => eb.fn.count<number>('runs.recording_id').distinct().as('recordings'),
        ])
        .where('recordings.org_id', '=', org.id)
        .where('recordings.start_timestamp', '<=', cutoff)
        .executeTakeFirstOrThrow();
      const recs = await db
        .selectFrom('recordings')
        .select(db.fn.countAll<number>().as('n'))
        .where('org_id', '=', org.id)
        .where('start_timestamp', '<=', cutoff)
        .executeTakeFirstOrThrow();
      result.runsRemoved += Number(runs.n);
      if (!keep) result.recordingsRemoved += Number(recs.n);
      else result.recordingsEmptied += Number(runs.recordings);
      if (Number(runs.n) > 0 || (!keep && Number(recs.n) > 0)) {
        log(
          { organisation: org.name, runs: Number(runs.n), recordings: keep ? 0 : Number(recs.n), dryRun: true },
          'retention sweep would remove',
        );
      }
      continue;
    }
    for (;;) {
      const batch = await db.transaction().execute(async (trx) => {
        if (store.dialect === 'sqlite') {
          // Take SQLite's write lock before reading, so another process's sweep cannot interleave.
          await trx
            .updateTable('organisations')
            .set({ retention_days: sql`retention_days` })
            .where('id', '=', org.id)
            .execute();
        }
        let pick = trx
          .selectFrom('recordings as r')
          .select(['r.id', 'r.media_key'])
          .where('r.org_id', '=', org.id)
          .where('r.start_timestamp', '<=', cutoff);
        if (keep)
          pick = pick.where((eb) =>
            eb.exists(eb.selectFrom('runs').select('runs.id').whereRef('runs.recording_id', '=', 'r.id')),
          );
        pick = pick.orderBy('r.start_timestamp').limit(batchSize);
        if (store.dialect === 'pg') pick = pick.forUpdate().skipLocked();
        const picked = await pick.execute();
        if (picked.length === 0) return undefined;
        const ids = picked.map((p) => p.id);
        const runs = await trx
          .deleteFrom('runs')
          .where('recording_id', 'in', ids)
          .where('org_id', '=', org.id)
          .executeTakeFirst();
        await trx.deleteFrom('run_centroids').where('recording_id', 'in', ids).execute();
        await trx.deleteFrom('recording_label_cells').where('recording_id', 'in', ids).execute();
        if (!keep) await trx.deleteFrom('recordings').where('id', 'in', ids).where('org_id', '=', org.id).execute();
        return { picked, runs: Number(runs.numDeletedRows) };
      });
      if (!batch) break;
      result.batches++;
      result.runsRemoved += batch.runs;
      if (keep) result.recordingsEmptied += batch.picked.length;
      else result.recordingsRemoved += batch.picked.length;
      log(
        {
          organisation: org.name,
          runs: batch.runs,
          recordings: batch.picked.length,
          recordingsKept: keep,
          mediaKeys: batch.picked.slice(0, 10).map((p) => p.media_key),
          more: Math.max(0, batch.picked.length - 10),
        },
        'retention sweep removed expired runs',
      );
      if (batch.picked.length < batchSize) break;
    }
  }
  result.sessionsRemoved = options.dryRun
    ? Number(
        (
          await db
            .selectFrom('sessions')
            .select(db.fn.countAll<number>().as('n'))
            .where('expires_at', '<=', now)
            .executeTakeFirstOrThrow()
        ).n,
      )
    : await deleteExpiredSessions(db, now);
  if (!options.dryRun) {
    result.loginCountersRemoved = await deleteStaleLoginCounters(db, now);
    result.auditEntriesRemoved = await purgeAudit(db, now);
  }
  return result;
}
