// Runs to evaluate over HTTP, and the pure engine's figures for the same runs (built as `sightline eval` builds a
// Sightline run file pair), to compare the server's answers with.
import { validateRun } from '../../src/detections/validate-run.js';
import { evaluate, type EvaluationResult, type MetricName } from '../../src/evaluation/evaluate.js';
import { type RunSide, runSequence } from '../../src/evaluation/inputs/run-boxes.js';
import type { SequenceInput } from '../../src/evaluation/layout.js';

function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
}

export interface RunShape {
  tracks?: number;
  frames?: number;
  seed?: number;
  labels?: boolean;
}

type Box = { frame: number; x: number; y: number; w: number; h: number; confidence?: number };
type Track = { id: string; label?: string; boxes: Box[] };

/** A ground truth: tracks of persons and cars moving across the frame. */
export function groundTruth(runId: string, sourceName: string, shape: RunShape = {}, sourceVersion?: string) {
  const { tracks = 6, frames = 40, seed = 7 } = shape;
  const rand = rng(seed);
  const out: Track[] = [];
  for (let t = 0; t < tracks; t++) {
    let x = 0.05 + rand() * 0.6;
    const y = 0.05 + rand() * 0.6;
    const w = 0.05 + rand() * 0.1;
    const h = 0.1 + rand() * 0.15;
    const start = Math.floor(rand() * 5);
    const boxes: Box[] = [];
    for (let f = start; f < frames - Math.floor(rand() * 5); f++) {
      x = Math.min(0.8, x + 0.003);
      boxes.push({ frame: f, x, y, w, h });
    }
    out.push({ id: `g${t}`, label: t % 3 === 2 ? 'car' : 'person', boxes });
  }
  return run(runId, sourceName, out, sourceVersion);
}

/**
 * A prediction of that ground truth: boxes shifted a little, one track missed, one split in two (an identity
 * switch), a false-positive track, scores on every box.
 */
export function prediction(
  gt: ReturnType<typeof groundTruth>,
  runId: string,
  sourceName: string,
  shape: { seed?: number; labels?: boolean } = {},
  sourceVersion?: string,
) {
  const rand = rng(shape.seed ?? 11);
  const tracks: Track[] = [];
  gt.tracks.forEach((t, i) => {
    if (i === 1) return;
    const moved = t.boxes.map((b) => ({
      ...b,
      x: b.x + (rand() - 0.5) * 0.02,
      y: b.y + (rand() - 0.5) * 0.02,
      confidence: Math.round((0.3 + rand() * 0.7) * 1000) / 1000,
    }));
    const label = shape.labels === false ? undefined : t.label;
    if (i === 0) {
      const half = Math.floor(moved.length / 2);
      tracks.push({ id: `p${i}a`, label, boxes: moved.slice(0, half) });
      tracks.push({ id: `p${i}b`, label, boxes: moved.slice(half) });
    } else tracks.push({ id: `p${i}`, label, boxes: moved });
  });
  tracks.push({
    id: 'fp',
    label: shape.labels === false ? undefined : 'person',
    boxes: [3, 4, 5, 6].map((frame) => ({ frame, x: 0.85, y: 0.8, w: 0.1, h: 0.15, confidence: 0.4 })),
  });
  return run(runId, sourceName, tracks, sourceVersion);
}

function run(runId: string, sourceName: string, tracks: Track[], sourceVersion?: string) {
  return {
    schemaVersion: '1.0',
    source: { kind: 'model', name: sourceName, runId, ...(sourceVersion ? { version: sourceVersion } : {}) },
    coordinateSpace: 'normalized' as const,
    tracks: tracks.map((t) => ({ ...t, label: t.label })),
  };
}

export interface RecordingSize {
  frameCount: number | null;
  width: number | null;
  height: number | null;
}

function side(body: object | null, size: RecordingSize): RunSide {
  const media: Record<string, unknown> = {};
  if (size.frameCount !== null) media.frameCount = size.frameCount;
  if (size.width !== null && size.height !== null) Object.assign(media, { width: size.width, height: size.height });
  if (!body) return { file: 'x', boxes: { headers: [], columns: new Float64Array(0), count: 0 }, media };
  const v = validateRun({ ...body, mediaKey: 'x' });
  if (!v.ok) throw new Error(v.detail);
  return { file: 'x', boxes: v.boxes, media };
}

/** The engine's figures for ground truth and prediction run bodies on recordings of that size, as one sequence each. */
export function engineFigures(
  pairs: Array<{ name: string; gt: object; pred: object | null; size: RecordingSize }>,
  metrics: MetricName[] = ['hota', 'clear', 'identity', 'coco', 'count'],
  options: { iouThreshold?: number; classAgnostic?: boolean } = {},
): EvaluationResult {
  const names: string[] = [];
  const sequences: SequenceInput[] = pairs.map(({ name, gt, pred, size }) => {
    const built = runSequence(name, side(gt, size), side(pred, size));
    // Each sequence's classes in its own order, as the server shares them between recordings.
    const used = new Set([...built.sequence.gt.classes, ...built.sequence.pred.classes]);
    built.classNames.forEach((n, c) => {
      if (used.has(c) && !names.includes(n)) names.push(n);
    });
    const remap = (classes: Int32Array) => classes.map((c) => names.indexOf(built.classNames[c]!));
    return {
      ...built.sequence,
      gt: { ...built.sequence.gt, classes: remap(built.sequence.gt.classes) },
      pred: { ...built.sequence.pred, classes: remap(built.sequence.pred.classes) },
    };
  });
  return evaluate(sequences, { classNames: names, metrics, ...options });
}
