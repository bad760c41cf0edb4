/**
 * The typed input layout. Boxes live in flat typed arrays grouped by frame (CSR offsets), so the hot loops read
 * numbers, not objects. Within a frame, boxes keep their input order: the assignment solver breaks ties by position,
 * and the references see boxes in file order.
 */

/** One side (ground truth or prediction) of one sequence. */
export interface BoxSet {
  /** Boxes of timestep t are indices `frameStart[t]` … `frameStart[t + 1] − 1`; length is frames + 1. */
  frameStart: Int32Array;
  /** Track id of each box (any integers; they are relabelled to 0 … n − 1 in ascending order for the metrics). */
  ids: Int32Array;
  /** `[x, y, w, h]` per box, in pixels. */
  boxes: Float64Array;
  /** Class of each box: an index into the input's class names. */
  classes: Int32Array;
  /** Confidence of each box (the score for COCO; in MOTChallenge ground truth, the consider flag). */
  confidences: Float64Array;
}

export interface SequenceInput {
  name: string;
  /** Number of timesteps; every box's frame index is below it. */
  numFrames: number;
  gt: BoxSet;
  pred: BoxSet;
  /** Whether box areas are in real pixels; without, the COCO area-range figures are −1. Default true. */
  pixelSize?: boolean;
}

/** Builds a BoxSet from per-box frame indices (any order; a stable grouping keeps the order within a frame). */
export function boxSetFromRows(
  numFrames: number,
  frames: ArrayLike<number>,
  ids: ArrayLike<number>,
  boxes: ArrayLike<number>,
  classes: ArrayLike<number>,
  confidences: ArrayLike<number>,
): BoxSet {
  const n = frames.length;
  const frameStart = new Int32Array(numFrames + 1);
  for (let k = 0; k < n; k++) {
    const f = frames[k]!;
    if (!(f >= 0 && f < numFrames)) throw new RangeError(`frame ${f} outside 0 … ${numFrames - 1}`);
    frameStart[f + 1]!++;
  }
  for (let t = 0; t < numFrames; t++) frameStart[t + 1] = frameStart[t + 1]! + frameStart[t]!;
  const fill = frameStart.slice(0, numFrames);
  const out: BoxSet = {
    frameStart,
    ids: new Int32Array(n),
    boxes: new Float64Array(n * 4),
    classes: new Int32Array(n),
    confidences: new Float64Array(n),
  };
  for (let k = 0; k < n; k++) {
    const at = fill[frames[k]!]!++;
    out.ids[at] = ids[k]!;
    for (let c = 0; c < 4; c++) out.boxes[at * 4 + c] = boxes[k * 4 + c]!;
    out.classes[at] = classes[k]!;
    out.confidences[at] = confidences[k]!;
  }
  return out;
}

export function emptyBoxSet(numFrames: number): BoxSet {
  return {
    frameStart: new Int32Array(numFrames + 1),
    ids: new Int32Array(0),
    boxes: new Float64Array(0),
    classes: new Int32Array(0),
    confidences: new Float64Array(0),
  };
}

/** Keeps the boxes for which `keep` is true, frame grouping and order unchanged. */
export function filterBoxSet(set: BoxSet, keep: (box: number) => boolean): BoxSet {
  const frames = set.frameStart.length - 1;
  let all = true;
  for (let k = 0; k < set.ids.length && all; k++) all = keep(k);
  // Nothing dropped (one class, say): the set is shared, not copied; the metrics never write to it.
  if (all) return set;
  const picked: number[] = [];
  const frameStart = new Int32Array(frames + 1);
  for (let t = 0; t < frames; t++) {
    for (let k = set.frameStart[t]!; k < set.frameStart[t + 1]!; k++) if (keep(k)) picked.push(k);
    frameStart[t + 1] = picked.length;
  }
  const n = picked.length;
  const out: BoxSet = {
    frameStart,
    ids: new Int32Array(n),
    boxes: new Float64Array(n * 4),
    classes: new Int32Array(n),
    confidences: new Float64Array(n),
  };
  for (let i = 0; i < n; i++) {
    const k = picked[i]!;
    out.ids[i] = set.ids[k]!;
    out.boxes.set(set.boxes.subarray(k * 4, k * 4 + 4), i * 4);
    out.classes[i] = set.classes[k]!;
    out.confidences[i] = set.confidences[k]!;
  }
  return out;
}

/**
 * The set split by class in one pass: element c holds the boxes of class c, frame grouping and order unchanged, as
 * `filterBoxSet` by class would give them (a class holding every box shares the set). Boxes of a class outside
 * 0 … classCount − 1 are in none.
 */
export function splitByClass(set: BoxSet, classCount: number): BoxSet[] {
  const frames = set.frameStart.length - 1;
  const n = set.ids.length;
  const counts = new Int32Array(classCount);
  for (let k = 0; k < n; k++) {
    const c = set.classes[k]!;
    if (c >= 0 && c < classCount) counts[c]!++;
  }
  const out: BoxSet[] = [];
  for (let c = 0; c < classCount; c++) {
    const m = counts[c]!;
    out.push(
      m === n
        ? set
        : {
            frameStart: new Int32Array(frames + 1),
            ids: new Int32Array(m),
            boxes: new Float64Array(m * 4),
            classes: new Int32Array(m).fill(c),
            confidences: new Float64Array(m),
          },
    );
  }
  const fill = new Int32Array(classCount);
  for (let t = 0; t < frames; t++) {
    for (let k = set.frameStart[t]!; k < set.frameStart[t + 1]!; k++) {
      const c = set.classes[k]!;
      if (!(c >= 0 && c < classCount) || counts[c] === n) continue;
      const to = out[c]!;
      const at = fill[c]!++;
      to.ids[at] = set.ids[k]!;
      for (let v = 0; v < 4; v++) to.boxes[at * 4 + v] = set.boxes[k * 4 + v]!;
      to.confidences[at] = set.confidences[k]!;
    }
    for (let c = 0; c < classCount; c++) if (counts[c] !== n) out[c]!.frameStart[t + 1] = fill[c]!;
  }
  return out;
}

/** The sequence with every box of class 0: class-agnostic evaluation scores it with the single class `all`. */
export function classAgnostic(seq: SequenceInput): SequenceInput {
  const one = (set: BoxSet): BoxSet => ({ ...set, classes: new Int32Array(set.classes.length) });
  return { ...seq, gt: one(seq.gt), pred: one(seq.pred) };
}
