/**
 * TrackEval's MOTChallenge preprocessing (`MotChallenge2DBox.get_preprocessed_seq_data` with preprocessing on, for
 * the MOT17 and MOT20 benchmarks), over the typed layout: predictions matched (IoU ≥ 0.5, optimal assignment) to a
 * ground-truth box of a distractor class are dropped, then only pedestrian ground truth not marked zero is kept.
 */
import { negativePairs } from './assignment.js';
import { trackEvalIou } from './iou.js';
import { type BoxSet, filterBoxSet, type SequenceInput } from './layout.js';
import { EPS } from './numeric.js';

export type MotBenchmark = 'mot17' | 'mot20';

/** MOTChallenge class numbers (column 8 of the ground truth). */
export const MOT_CLASSES: Readonly<Record<string, number>> = {
  pedestrian: 1,
  person_on_vehicle: 2,
  car: 3,
  bicycle: 4,
  motorbike: 5,
  non_mot_vehicle: 6,
  static_person: 7,
  distractor: 8,
  occluder: 9,
  occluder_on_ground: 10,
  occluder_full: 11,
  reflection: 12,
  crowd: 13,
};

function distractors(benchmark: MotBenchmark): Set<number> {
  const names = ['person_on_vehicle', 'static_person', 'distractor', 'reflection'];
  if (benchmark === 'mot20') names.push('non_mot_vehicle');
  return new Set(names.map((n) => MOT_CLASSES[n]!));
}

/**
 * Returns the sequence as the metrics see it: one class (index 0, pedestrian) on both sides. In the input, the ground
 * truth's `classes` are MOTChallenge class numbers (1 … 13) and its `confidences` the consider flag (column 7);
 * the prediction's classes are not read, as TrackEval reads none from a results file.
 */
export function preprocessMotChallenge(seq: SequenceInput, benchmark: MotBenchmark): SequenceInput {
  const { gt, pred } = seq;
  const distractorClasses = distractors(benchmark);
  // TrackEval checks the raw ids first: an id twice in one timestep is an error even on a box preprocessing drops.
  for (const [side, set] of [
    ['ground truth', gt],
    ['prediction', pred],
  ] as const) {
    for (let t = 0; t < seq.numFrames; t++) {
      const seen = new Set<number>();
      for (let k = set.frameStart[t]!; k < set.frameStart[t + 1]!; k++) {
        if (seen.has(set.ids[k]!)) throw new Error(`${seq.name}: ${side} id ${set.ids[k]} twice in timestep ${t}`);
        seen.add(set.ids[k]!);
      }
    }
  }
  const removePred = new Uint8Array(pred.ids.length);
  let sim = new Float64Array(0);
  let cost = new Float64Array(0);
  let cells = new Int32Array(0);
  for (let t = 0; t < seq.numFrames; t++) {
    const g0 = gt.frameStart[t]!;
    const ng = gt.frameStart[t + 1]! - g0;
    const p0 = pred.frameStart[t]!;
    const np = pred.frameStart[t + 1]! - p0;
    if (ng === 0 || np === 0) continue;
    // TrackEval checks the classes only where it matches, in timesteps with boxes on both sides.
    let distractorHere = false;
    for (let k = g0; k < g0 + ng; k++) {
      const c = gt.classes[k]!;
      if (distractorClasses.has(c)) distractorHere = true;
      if (!(c >= 1 && c <= 13)) {
        throw new Error(`${seq.name}: ground-truth class ${c} in timestep ${t} is not a MOTChallenge class`);
      }
    }
    // Only matches to a distractor drop a prediction: a timestep without one keeps them all, unmatched.
    if (!distractorHere) continue;
    if (sim.length < ng * np) {
      sim = new Float64Array(ng * np);
      cost = new Float64Array(ng * np);
    }
    trackEvalIou(gt.boxes, g0, ng, pred.boxes, p0, np, sim);
    if (cells.length < ng * np) cells = new Int32Array(ng * np);
    let n = 0;
    for (let x = 0; x < ng * np; x++) {
      const s = sim[x]!;
      cost[x] = -(s < 0.5 - EPS ? 0 : s);
      if (cost[x]! < 0) cells[n++] = x;
    }
    const { rows, cols } = negativePairs(cost, ng, np, cells, 0, n);
    for (let k = 0; k < rows.length; k++) {
      const i = rows[k]!;
      const j = cols[k]!;
      if (!(-cost[i * np + j]! > 0 + EPS)) continue;
      if (distractorClasses.has(gt.classes[g0 + i]!)) removePred[p0 + j] = 1;
    }
  }
  const pedestrian = MOT_CLASSES.pedestrian!;
  // TrackEval reads the consider flag as an integer (`astype(int)`, truncation) and keeps it when non-zero.
  const gtKept = filterBoxSet(gt, (k) => Math.trunc(gt.confidences[k]!) !== 0 && gt.classes[k] === pedestrian);
  const predKept = filterBoxSet(pred, (k) => removePred[k] === 0);
  return { ...seq, gt: singleClass(gtKept), pred: singleClass(predKept) };
}

function singleClass(set: BoxSet): BoxSet {
  return { ...set, classes: new Int32Array(set.classes.length) };
}
