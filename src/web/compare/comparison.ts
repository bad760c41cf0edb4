// A ground-truth layer against a prediction layer, scored in the browser with the evaluation engine the server and
// the CLI use (src/evaluation, pure TypeScript): the recording's figures, CLEAR's per-frame counts for the
// timeline, and each box's part in CLEAR's matching for the overlay.
import { clearMatches } from '../../evaluation/clear-matches.js';
import { type EvaluationResult, evaluate } from '../../evaluation/evaluate.js';
import { type BoxSet, boxSetFromRows, filterBoxSet, type SequenceInput } from '../../evaluation/layout.js';
import { trackingData } from '../../evaluation/tracking-data.js';
import type { Track } from '../types.js';

export interface CompareInput {
  gt: readonly Track[];
  pred: readonly Track[];
  /** The recording's pixel size (boxes are normalised); without it, IoU is the same and COCO has no area ranges. */
  width: number | null;
  height: number | null;
  frameCount: number | null;
  iouThreshold: number;
}

/** A box's part in CLEAR's matching. */
export const MATCHED = 1;
export const MISSED = 2;
export const FALSE_POSITIVE = 3;

export interface CompareOutput {
  classNames: string[];
  result: EvaluationResult;
  /** Per box of each layer, in the editor's frame-index order (frame, then track, then box). */
  gtStatus: Uint8Array;
  predStatus: Uint8Array;
  /** Per ground-truth box: 1 where its track's identity switches. */
  gtSwitch: Uint8Array;
  /** CLEAR's per-frame counts at the threshold, all classes added up. */
  tp: Int32Array;
  fp: Int32Array;
  fn: Int32Array;
  idsw: Int32Array;
  /** The frames with an identity switch, ascending. */
  switchFrames: number[];
}

/** Class of a box: its label, else its track's, else `object` (as the server scores runs). */
const classOf = (track: Track, box: Track['boxes'][number]): string => box.label ?? track.label ?? 'object';

function boxSet(tracks: readonly Track[], frames: number, sx: number, sy: number, classIndex: (c: string) => number) {
  const f: number[] = [];
  const ids: number[] = [];
  const xywh: number[] = [];
  const classes: number[] = [];
  const scores: number[] = [];
  // Tracks, then their boxes, in order: grouped by frame (stably) this is the editor's frame-index order.
  tracks.forEach((track, t) => {
    for (const box of track.boxes) {
      f.push(box.frame);
      ids.push(t);
      xywh.push(box.x * sx, box.y * sy, box.w * sx, box.h * sy);
      classes.push(classIndex(classOf(track, box)));
      scores.push(box.confidence ?? track.confidence ?? 1);
    }
  });
  return boxSetFromRows(frames, f, ids, xywh, classes, scores);
}

function lastFrame(tracks: readonly Track[]): number {
  let last = -1;
  for (const t of tracks) for (const b of t.boxes) if (b.frame > last) last = b.frame;
  return last;
}

/** The indices of a box set's boxes of one class, in order (what filterBoxSet keeps, in its order). */
function indicesOf(set: BoxSet, cls: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < set.classes.length; k++) if (set.classes[k] === cls) out.push(k);
  return out;
}

export function compareRuns(input: CompareInput): CompareOutput {
  const frames = Math.max(input.frameCount ?? 0, lastFrame(input.gt) + 1, lastFrame(input.pred) + 1, 1);
  const pixels = (input.width ?? 0) > 0 && (input.height ?? 0) > 0;
  const sx = pixels ? input.width! : 1;
  const sy = pixels ? input.height! : 1;
  const classNames: string[] = [];
  const classIndex = (name: string): number => {
    let c = classNames.indexOf(name);
    if (c === -1) c = classNames.push(name) - 1;
    return c;
  };
  const gt = boxSet(input.gt, frames, sx, sy, classIndex);
  const pred = boxSet(input.pred, frames, sx, sy, classIndex);
  if (classNames.length === 0) classNames.push('object');
  const sequence: SequenceInput = { name: 'recording', numFrames: frames, gt, pred, pixelSize: pixels };
  const result = evaluate([sequence], {
    classNames,
    metrics: ['hota', 'clear', 'identity', 'count', 'coco'],
    iouThreshold: input.iouThreshold,
    frames: true,
  });
  const gtStatus = new Uint8Array(gt.ids.length).fill(MISSED);
  const predStatus = new Uint8Array(pred.ids.length).fill(FALSE_POSITIVE);
  const gtSwitch = new Uint8Array(gt.ids.length);
  for (let c = 0; c < classNames.length; c++) {
    const gi = indicesOf(gt, c);
    const pi = indicesOf(pred, c);
    const data = trackingData(
      filterBoxSet(gt, (k) => gt.classes[k] === c),
      filterBoxSet(pred, (k) => pred.classes[k] === c),
    );
    const m = clearMatches(data, input.iouThreshold);
    gi.forEach((k, q) => {
      if (m.gtMatch[q] !== -1) gtStatus[k] = MATCHED;
      gtSwitch[k] = m.idsw[q]!;
    });
    pi.forEach((k, q) => {
      if (m.predMatch[q] !== -1) predStatus[k] = MATCHED;
    });
  }
  const counts = result.sequences[0]!.frames!;
  const switchFrames: number[] = [];
  for (let t = 0; t < frames; t++) if (counts.idsw[t]! > 0) switchFrames.push(t);
  return {
    classNames,
    result,
    gtStatus,
    predStatus,
    gtSwitch,
    tp: counts.tp,
    fp: counts.fp,
    fn: counts.fn,
    idsw: counts.idsw,
    switchFrames,
  };
}
