/**
 * Scores stored runs: per recording, a ground-truth run and, for each prediction, its run or none (an empty
 * prediction). Pure: the bodies are read by the caller (evaluation/jobs.ts) and this runs in a worker thread.
 *
 * Each recording is one sequence, built as `sightline eval` builds a run file pair (inputs/run-boxes.ts), with the
 * recording's frameCount and pixel size where it knows them. Classes are shared by the sequences of one prediction,
 * in order of first appearance, so the figures of one recording are exactly the offline evaluator's.
 */
import { decodeBoxes } from '../detections/run-codec.js';
import { BOX_STRIDE, type TrackHeader } from '../detections/run-types.js';
import type { FrameCounts } from './clear.js';
import { evaluate, type MetricName } from './evaluate.js';
import type { Fields } from './fields.js';
import { type RunSide, runSequence } from './inputs/run-boxes.js';
import type { SequenceInput } from './layout.js';

/** How a prediction was asked for: a runId, or a producer. */
export type PredictionLabel = string | { sourceName: string; sourceVersion?: string };

export interface StoredRunBody {
  runId: string;
  /** The stored track headers (JSON text) and box blob, as run-body-reader.ts reads them. */
  tracks: string;
  boxes: Uint8Array;
  /** The run's own `media` (width, height), used where the recording has no pixel size. */
  media: Record<string, unknown> | null;
}

export interface StoredSequence {
  mediaKey: string;
  frameCount: number | null;
  width: number | null;
  height: number | null;
  groundTruth: StoredRunBody;
  /** One per prediction, in the request's order; null: the recording has no such run. */
  predictions: Array<StoredRunBody | null>;
}

export interface StoredEvaluationInput {
  predictions: PredictionLabel[];
  sequences: StoredSequence[];
  /** The metrics asked for (hota, clear, identity, coco); TrackEval's counts come with any tracking metric. */
  metrics: MetricName[];
  iouThreshold: number;
  classAgnostic: boolean;
}

export interface StoredSequenceResult {
  mediaKey: string;
  groundTruthRunId: string;
  predictionRunId: string | null;
  combined: Fields;
  classes: Record<string, Fields>;
}

export interface StoredResult {
  prediction: PredictionLabel;
  /** True when scored class-agnostically: asked for, or a prediction with no labels against several classes. */
  classAgnostic: boolean;
  combined: Fields;
  classes: Record<string, Fields>;
  classAveraged: Fields;
  detAveraged: Fields;
  sequences: StoredSequenceResult[];
}

export interface StoredEvaluation {
  results: StoredResult[];
  /** Per result, per sequence: the CLEAR counts of each frame at the CLEAR threshold. */
  frames: FrameCounts[][];
}

interface DecodedRun {
  runId: string;
  headers: TrackHeader[];
  columns: Float64Array;
  media: Record<string, unknown> | null;
}

function decode(body: StoredRunBody): DecodedRun {
  return {
    runId: body.runId,
    headers: JSON.parse(body.tracks) as TrackHeader[],
    columns: decodeBoxes(body.boxes),
    media: body.media,
  };
}

function lastFrame(run: DecodedRun | null): number {
  let last = -1;
  if (!run) return last;
  for (let o = 0; o < run.columns.length; o += BOX_STRIDE) last = Math.max(last, run.columns[o]!);
  return last;
}

const positive = (v: unknown): number | undefined => (typeof v === 'number' && v > 0 ? v : undefined);

/** A run with no label on any track or box: a detector that does not classify (TrackEval's MOT results file). */
function unlabelled(run: DecodedRun): boolean {
  return run.headers.every(
    (h) => h.label === undefined && !Object.values(h.extras ?? {}).some((e) => typeof e.label === 'string'),
  );
}

/**
 * A side for runSequence: the recording's frame count when every box lies within it (else the last frame seen
 * decides, as spec'd when it is unknown), its pixel size when known, else the run's own.
 */
function side(run: DecodedRun | null, seq: StoredSequence, frames: number | undefined): RunSide {
  const media: Record<string, unknown> = {};
  if (frames !== undefined) media.frameCount = frames;
  const recorded = positive(seq.width) !== undefined && positive(seq.height) !== undefined;
  const w = recorded ? seq.width : positive(run?.media?.width);
  const h = recorded ? seq.height : positive(run?.media?.height);
  if (w && h) {
    media.width = w;
    media.height = h;
  }
  return {
    file: run?.runId ?? '',
    boxes: run
      ? { headers: run.headers, columns: run.columns, count: run.columns.length / BOX_STRIDE }
      : { headers: [], columns: new Float64Array(0), count: 0 },
    media,
  };
}

/**
 * Rewrites each sequence's class indices from its own names into names shared by all: each sequence's names in its
 * own order (runSequence's, first seen first), those no box uses left out.
 */
function shareClasses(built: Array<{ sequence: SequenceInput; classNames: string[] }>): {
  sequences: SequenceInput[];
  classNames: string[];
} {
  const names: string[] = [];
  const index = new Map<string, number>();
  const sequences = built.map(({ sequence, classNames }) => {
    const used = new Uint8Array(classNames.length);
    for (const c of sequence.gt.classes) used[c] = 1;
    for (const c of sequence.pred.classes) used[c] = 1;
    const local = classNames.map((name, c) => {
      if (!used[c]) return -1;
      let shared = index.get(name);
      if (shared === undefined) {
        shared = names.length;
        index.set(name, shared);
        names.push(name);
      }
      return shared;
    });
    const gt = { ...sequence.gt, classes: sequence.gt.classes.map((c) => local[c]!) };
    const pred = { ...sequence.pred, classes: sequence.pred.classes.map((c) => local[c]!) };
    return { ...sequence, gt, pred };
  });
  if (names.length === 0) names.push('object');
  return { sequences, classNames: names };
}

export function evaluateStoredRuns(input: StoredEvaluationInput): StoredEvaluation {
  const results: StoredResult[] = [];
  const frames: FrameCounts[][] = [];
  const metrics: MetricName[] = input.metrics.some((m) => m !== 'coco') ? [...input.metrics, 'count'] : input.metrics;
  const gts = input.sequences.map((s) => decode(s.groundTruth));
  input.predictions.forEach((prediction, p) => {
    const preds = input.sequences.map((s) => {
      const body = s.predictions[p];
      return body ? decode(body) : null;
    });
    const built = input.sequences.map((seq, i) => {
      const gt = gts[i]!;
      const pred = preds[i]!;
      const last = Math.max(lastFrame(gt), lastFrame(pred));
      const frames = seq.frameCount !== null && seq.frameCount > last ? seq.frameCount : undefined;
      return runSequence(seq.mediaKey, side(gt, seq, frames), side(pred, seq, frames));
    });
    // A prediction with no labels is scored as TrackEval scores a MOTChallenge results file: against a ground truth
    // of one class as that class, against several class-agnostically.
    const present = preds.filter((r): r is DecodedRun => r !== null && r.columns.length > 0);
    const gtClasses = new Set<string>();
    built.forEach(({ sequence, classNames }) => {
      for (const c of sequence.gt.classes) gtClasses.add(classNames[c]!);
    });
    const bare = present.length > 0 && present.every(unlabelled);
    const only = bare && gtClasses.size === 1 ? [...gtClasses][0]! : undefined;
    const classAgnostic = input.classAgnostic || (bare && gtClasses.size > 1);
    const shared = shareClasses(
      only === undefined
        ? built
        : built.map(({ sequence, classNames }) => {
            // Only the prediction's boxes change class: its every box is `object`, the default label.
            const objectClass = classNames.indexOf('object');
            const names = [...classNames, only];
            const pred = {
              ...sequence.pred,
              classes: sequence.pred.classes.map((c) => (c === objectClass ? names.length - 1 : c)),
            };
            return { sequence: { ...sequence, pred }, classNames: names };
          }),
    );
    const result = evaluate(shared.sequences, {
      classNames: shared.classNames,
      metrics,
      iouThreshold: input.iouThreshold,
      classAgnostic,
      frames: true,
    });
    results.push({
      prediction,
      classAgnostic,
      combined: result.combined,
      classes: result.classes,
      classAveraged: result.classAveraged,
      detAveraged: result.detAveraged,
      sequences: result.sequences.map((s, i) => ({
        mediaKey: s.name,
        groundTruthRunId: gts[i]!.runId,
        predictionRunId: preds[i]?.runId ?? null,
        combined: s.combined,
        classes: s.classes,
      })),
    });
    frames.push(result.sequences.map((s) => s.frames!));
  });
  return { results, frames };
}
