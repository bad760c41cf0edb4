// An evaluation as the API answers it, from its stored row: the figures as stored, `stale` from the runs' current
// writes, and the per-frame counts only when asked for.
import type { EvaluationRow } from './queries.js';
import { type Plan, plannedRuns, type UsedRun } from './plan.js';
import type { StoredResult } from './stored-runs.js';

/** The runs an evaluation depends on: those it read, or while it runs, those it will read. */
export function runsOf(row: EvaluationRow): UsedRun[] {
  const used = JSON.parse(row.used_runs) as UsedRun[];
  return row.status === 'complete' ? used : plannedRuns(JSON.parse(row.plan) as Plan);
}

/** True when a run used has been replaced (another write) or deleted since. */
export function isStale(
  used: readonly UsedRun[],
  current: Map<string, { updatedAt: number; version: number }>,
): boolean {
  return used.some((u) => {
    const now = current.get(u.pk);
    return !now || now.updatedAt !== u.updatedAt || now.version !== u.version;
  });
}

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

export function evaluationForApi(row: EvaluationRow, stale: boolean) {
  const plan = JSON.parse(row.plan) as Plan;
  const results = row.results === null ? [] : (JSON.parse(row.results) as StoredResult[]);
  const frames = row.frames ? (JSON.parse(row.frames) as number[][][][]) : undefined;
  return {
    id: row.id,
    status: row.status,
    createdAt: iso(row.created_at),
    completedAt: iso(row.completed_at),
    ...(row.error === null ? {} : { error: row.error }),
    parameters: {
      metrics: plan.parameters.metrics,
      iouThreshold: plan.parameters.iouThreshold,
      // A prediction without labels against several classes is scored class-agnostically, and says so.
      classAgnostic: plan.parameters.classAgnostic || (results.length > 0 && results.every((r) => r.classAgnostic)),
    },
    stale,
    results: results.map((r, i) => ({
      ...r,
      sequences: r.sequences.map((s, j) => {
        const f = frames?.[i]?.[j];
        if (!f) return s;
        const [tp, fp, fn, idsw] = f as [number[], number[], number[], number[]];
        return {
          ...s,
          frames: tp.map((n, frame) => ({ frame, tp: n, fp: fp[frame]!, fn: fn[frame]!, idsw: idsw[frame]! })),
        };
      }),
    })),
  };
}
