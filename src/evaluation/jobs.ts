// Computing evaluations. The row in `evaluations` is the job: the instance that holds its lease reads the runs, scores
// them in a worker thread and stores the outcome, renewing the lease meanwhile. An instance that dies stops renewing;
// once the lease lapses, any instance with background jobs on claims the job (queries.ts) and computes it again from
// its stored plan. Nothing of a job lives only in one process's memory.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import { readRunSnapshot } from '../detections/run-body-reader.js';
import { newId } from '../util/ids.js';
import { FairTurns } from '../util/fair-turns.js';
import { type Computation, EvaluationFailure, EvaluationWorkers } from './compute.js';
import type { Plan, RunRef, UsedRun } from './plan.js';
import { claimLapsedJob, finishEvaluation, releaseLease, renewLease } from './queries.js';
import type { StoredRunBody, StoredSequence } from './stored-runs.js';

/** A job claimed this many times without finishing (each time its instance died) fails instead of a further try. */
export const MAX_ATTEMPTS = 3;

export interface EvaluationJobs {
  /** This instance's name in `lease_owner`. */
  readonly owner: string;
  /** Computes a job this instance holds the lease of; resolves once it is stored (or given up, or lost). */
  run(id: string, orgId: string, plan: Plan): Promise<void>;
  /** Claims and computes one lapsed job, if any; true when there was one. */
  resumeOne(): Promise<boolean>;
  /** Stops every job of this instance and hands its lease back, so that another instance resumes it at once. */
  close(): Promise<void>;
}

interface Running {
  id: string;
  stop(): void;
}

/** The runs of one sequence, each summary and body read as one version; a run gone meanwhile fails the job. */
async function readRun(
  store: Store,
  orgId: string,
  mediaKey: string,
  ref: RunRef,
): Promise<{ body: StoredRunBody; used: UsedRun }> {
  const run = await readRunSnapshot(store, orgId, ref.pk);
  if (!run)
    throw new EvaluationFailure(`run "${ref.runId}" of recording "${mediaKey}" was deleted before it was scored`);
  return {
    body: {
      runId: run.row.run_id,
      tracks: run.body.tracks,
      boxes: run.body.boxes,
      media: run.row.media === null ? null : (JSON.parse(run.row.media) as Record<string, unknown>),
    },
    used: { pk: run.row.id, updatedAt: Number(run.row.updated_at), version: Number(run.row.version) },
  };
}

export function evaluationJobs(store: Store, config: Config, log: FastifyBaseLogger): EvaluationJobs {
  const owner = newId();
  const { leaseMs, holdForTests } = config.evaluation;
  // One computation at a time per instance: each holds two large runs in memory and a core busy.
  const turns = new FairTurns(1);
  const workers = new EvaluationWorkers();
  const running = new Set<Running>();
  let closed = false;

  async function compute(orgId: string, plan: Plan, lost: () => boolean, hold: (c: Computation) => void) {
    const used = new Map<string, UsedRun>();
    const sequences: StoredSequence[] = [];
    for (const s of plan.sequences) {
      const gt = await readRun(store, orgId, s.mediaKey, s.groundTruth);
      used.set(gt.used.pk, gt.used);
      const predictions: Array<StoredRunBody | null> = [];
      for (const ref of s.predictions) {
        if (!ref) {
          predictions.push(null);
          continue;
        }
        const p = await readRun(store, orgId, s.mediaKey, ref);
        used.set(p.used.pk, p.used);
        predictions.push(p.body);
      }
      sequences.push({
        mediaKey: s.mediaKey,
        frameCount: s.frameCount,
        width: s.width,
        height: s.height,
        groundTruth: gt.body,
        predictions,
      });
      if (lost()) return undefined;
    }
    const computation = workers.compute({
      predictions: plan.predictions,
      sequences,
      metrics: plan.parameters.metrics,
      iouThreshold: plan.parameters.iouThreshold,
      classAgnostic: plan.parameters.classAgnostic,
    });
    hold(computation);
    const outcome = await computation.result;
    return { outcome, used: [...used.values()] };
  }

  async function run(id: string, orgId: string, plan: Plan): Promise<void> {
    if (closed) return;
    let lost = false;
    let computation: Computation | undefined;
    let release: () => void = () => {};
    const stopped = new Promise<void>((resolve) => {
      release = resolve;
    });
    const self: Running = {
      id,
      stop() {
        lost = true;
        computation?.stop();
        release();
      },
    };
    running.add(self);
    // Renewed at a third of the lease: two renewals may fail (a slow database) before it lapses.
    const heartbeat = setInterval(
      () => {
        renewLease(store.db, id, owner, Date.now() + leaseMs)
          .then((held) => {
            if (!held) self.stop();
          })
          .catch((err: unknown) => log.warn({ err, evaluation: id }, 'evaluation lease renewal failed'));
      },
      Math.max(1, Math.floor(leaseMs / 3)),
    );
    heartbeat.unref();
    try {
      // Test only: the job stays running, its lease renewed, until this instance dies or closes.
      if (holdForTests) return await stopped;
      const turn = turns.acquire(orgId);
      await Promise.race([turn, stopped]);
      if (lost) {
        // The turn still comes: handed on at once.
        void turn.then(() => turns.release(orgId));
        return;
      }
      try {
        const done = await Promise.race([
          compute(
            orgId,
            plan,
            () => lost,
            (c) => {
              computation = c;
            },
          ),
          stopped.then(() => undefined),
        ]);
        if (!done || lost) return;
        const { outcome, used } = done;
        await finishEvaluation(store.db, id, owner, {
          status: 'complete',
          results: JSON.stringify(outcome.results),
          frames: JSON.stringify(
            outcome.frames.map((perSeq) =>
              perSeq.map((f) => [Array.from(f.tp), Array.from(f.fp), Array.from(f.fn), Array.from(f.idsw)]),
            ),
          ),
          error: null,
          used_runs: JSON.stringify(used),
          completed_at: Date.now(),
        });
      } catch (err) {
        if (lost) return;
        if (!(err instanceof EvaluationFailure)) throw err;
        await finishEvaluation(store.db, id, owner, {
          status: 'failed',
          results: null,
          frames: null,
          error: err.message,
          used_runs: JSON.stringify([]),
          completed_at: Date.now(),
        });
      } finally {
        turns.release(orgId);
      }
    } catch (err) {
      // A database that failed mid-way: the lease lapses and the job is tried again (here or elsewhere).
      log.error({ err, evaluation: id }, 'evaluation failed; it is retried once its lease lapses');
    } finally {
      clearInterval(heartbeat);
      running.delete(self);
    }
  }

  return {
    owner,
    run,
    async resumeOne() {
      if (closed) return false;
      const job = await claimLapsedJob(store.db, owner, Date.now(), leaseMs);
      if (!job) return false;
      const attempts = Number(job.attempts);
      if (attempts > MAX_ATTEMPTS) {
        await finishEvaluation(store.db, job.id, owner, {
          status: 'failed',
          results: null,
          frames: null,
          error: `The evaluation was started ${attempts - 1} times and its instance stopped each time; it was given up`,
          used_runs: JSON.stringify([]),
          completed_at: Date.now(),
        });
        return true;
      }
      log.info({ evaluation: job.id, attempt: attempts }, 'resuming an evaluation whose lease lapsed');
      await run(job.id, job.org_id, JSON.parse(job.plan) as Plan);
      return true;
    },
    async close() {
      closed = true;
      const ids = [...running].map((r) => r.id);
      for (const r of running) r.stop();
      // Handed back rather than left to lapse: another instance resumes them at its next look.
      for (const id of ids) await releaseLease(store.db, id, owner).catch(() => {});
      await workers.close();
    },
  };
}
