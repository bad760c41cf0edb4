// What an evaluation scores, fixed when it is posted: the parameters, the predictions as asked for, and per recording
// the runs chosen. Stored with the evaluation, so whichever instance computes it scores the same runs.
import type { EvaluationParameters } from './request-body.js';
import type { PredictionLabel } from './stored-runs.js';

/** One stored run, as chosen: its row id and the write (updatedAt, version) it was at. */
export interface RunRef {
  pk: string;
  runId: string;
  updatedAt: number;
  version: number;
}

export interface PlannedSequence {
  mediaKey: string;
  recordingId: string;
  frameCount: number | null;
  width: number | null;
  height: number | null;
  groundTruth: RunRef;
  /** One per prediction; null: the recording has no such run, and it is scored against an empty prediction. */
  predictions: Array<RunRef | null>;
}

export interface Plan {
  parameters: EvaluationParameters;
  predictions: PredictionLabel[];
  sequences: PlannedSequence[];
}

/** A run as it was read for scoring: `stale` compares it with the run's current row. */
export interface UsedRun {
  pk: string;
  updatedAt: number;
  version: number;
}

/** Every run the plan names, once each. */
export function plannedRuns(plan: Plan): UsedRun[] {
  const seen = new Map<string, UsedRun>();
  for (const s of plan.sequences) {
    for (const r of [s.groundTruth, ...s.predictions]) {
      if (r) seen.set(r.pk, { pk: r.pk, updatedAt: r.updatedAt, version: r.version });
    }
  }
  return [...seen.values()];
}
