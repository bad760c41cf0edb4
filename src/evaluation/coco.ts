/**
 * COCO bbox evaluation, as pycocotools' `COCOeval(iouType="bbox")` with default parameters computes it: `evaluate`
 * (greedy matching by descending score, crowd and area-range ignores), `accumulate` (101-point interpolated
 * precision) and `summarize` (the 12 stats). Sorting by score is stable, like NumPy's mergesort, so equal scores keep
 * the input order within an image and the image order across images.
 */
import { cocoIou } from './iou.js';
import { EPS } from './numeric.js';

/** Annotations in input order (the order of the instances file or the results file). */
export interface CocoGroundTruth {
  imageIds: Int32Array;
  categoryIds: Int32Array;
  /** `[x, y, w, h]` per annotation. */
  boxes: Float64Array;
  /** The annotation's own `area` field (pycocotools uses it, not w·h, for the area ranges). */
  areas: Float64Array;
  isCrowd: Uint8Array;
  /** Annotation ids; pycocotools treats a match with id 0 as no match, and so does this. */
  ids: Float64Array;
}

export interface CocoDetections {
  imageIds: Int32Array;
  categoryIds: Int32Array;
  boxes: Float64Array;
  scores: Float64Array;
}

export interface CocoInput {
  /** Every image of the ground truth (pycocotools evaluates `sorted(getImgIds())`). */
  imageIds: ArrayLike<number>;
  /** Every category of the ground truth. */
  categoryIds: ArrayLike<number>;
  gt: CocoGroundTruth;
  dt: CocoDetections;
}

export const COCO_STATS = [
  'AP',
  'AP50',
  'AP75',
  'APs',
  'APm',
  'APl',
  'AR1',
  'AR10',
  'AR100',
  'ARs',
  'ARm',
  'ARl',
] as const;
export type CocoStat = (typeof COCO_STATS)[number];
export type CocoStats = Record<CocoStat, number>;

/** `np.linspace(.5, 0.95, 10)` and `np.linspace(0, 1, 101)`: i·step + start, with the end point set exactly. */
function linspace(start: number, stop: number, num: number): Float64Array {
  const out = new Float64Array(num);
  const step = (stop - start) / (num - 1);
  for (let i = 0; i < num; i++) out[i] = i * step + start;
  out[num - 1] = stop;
  return out;
}
export const IOU_THRESHOLDS = linspace(0.5, 0.95, 10);
export const RECALL_THRESHOLDS = linspace(0, 1, 101);
const MAX_DETS = [1, 10, 100] as const;
const AREA_RANGES: readonly (readonly [number, number])[] = [
  [0, 1e5 ** 2],
  [0, 32 ** 2],
  [32 ** 2, 96 ** 2],
  [96 ** 2, 1e5 ** 2],
];
const T = 10;
const R = 101;
const AREAS = 4;
const M = 3;

export interface CocoEvaluation {
  categoryIds: number[];
  /** precision[t][r][k][a][m] flattened, −1 where pycocotools leaves −1. */
  precision: Float64Array;
  /** recall[t][k][a][m] flattened. */
  recall: Float64Array;
}

/**
 * One category's detections after matching, image after image (pycocotools' order of `evalImgs`), each image's by
 * descending score and at most maxDets[-1]: what `accumulate` reads of `evaluateImg`'s dicts, in flat arrays. Per
 * image dicts of small typed arrays cost more to allocate and collect than the matching itself.
 */
interface CategoryEval {
  /** Detections of the category. */
  total: number;
  scores: Float64Array;
  /** Each detection's position within its image's sorted detections. */
  rank: Uint8Array;
  /**
   * [area][detection][threshold]: 0 ignored, 1 true positive, 2 false positive. A detection's thresholds side by
   * side: accumulate visits detections in score order, across images.
   */
  state: Uint8Array;
  /** Per area range, the number of ground truths not ignored. */
  npig: Float64Array;
}

const IGNORED = 0;
const TRUE_POSITIVE = 1;
const FALSE_POSITIVE = 2;

/** Stable order of indices by descending key (NumPy's `argsort(-key, kind='mergesort')`). */
function stableDescending(keys: Float64Array, n: number): Int32Array {
  const idx = new Int32Array(n);
  for (let k = 0; k < n; k++) idx[k] = k;
  // A difference of two distinct doubles is never 0 and has the sign of the comparison; equal keys (and ∞ − ∞,
  // which is NaN) fall back to the index, which keeps the sort stable.
  return idx.sort((a, b) => keys[b]! - keys[a]! || a - b);
}

/** Annotations grouped by (category, image): group `k · I + i` is `items[start[g]]` … `items[start[g + 1] − 1]`. */
interface Groups {
  start: Int32Array;
  items: Int32Array;
}

/** A stable counting sort on (category, image), so each group keeps the input order; others are left out. */
function groupByCategoryImage(
  imageIds: Int32Array,
  categoryIds: Int32Array,
  imgIndex: Map<number, number>,
  catIndex: Map<number, number>,
  I: number,
  K: number,
): Groups {
  const n = imageIds.length;
  const group = new Int32Array(n);
  const start = new Int32Array(K * I + 1);
  for (let x = 0; x < n; x++) {
    const i = imgIndex.get(imageIds[x]!);
    const k = catIndex.get(categoryIds[x]!);
    const g = i === undefined || k === undefined ? -1 : k * I + i;
    group[x] = g;
    if (g >= 0) start[g + 1]!++;
  }
  for (let g = 0; g < K * I; g++) start[g + 1] = start[g + 1]! + start[g]!;
  const fill = start.slice(0, K * I);
  const items = new Int32Array(start[K * I]!);
  for (let x = 0; x < n; x++) if (group[x]! >= 0) items[fill[group[x]!]!++] = x;
  return { start, items };
}

/** Typed arrays reused from image to image, grown when an image needs more. */
class Scratch {
  order = new Int32Array(64);
  dBoxes = new Float64Array(256);
  dAreas = new Float64Array(64);
  outside = new Uint8Array(64);
  gBoxes = new Float64Array(256);
  crowd = new Uint8Array(64);
  gIgnore = new Uint8Array(64);
  gOrder = new Int32Array(64);
  ious = new Float64Array(4096);
  gtm = new Uint8Array(T * 64);
  candStart = new Int32Array(65);
  cand = new Int32Array(4096);
  nearStart = new Int32Array(65);
  near = new Int32Array(4096);
  gPosition = new Int32Array(64);
  gCounts = new Uint8Array(64);

  fit(d: number, g: number): void {
    if (this.order.length < d) {
      this.order = new Int32Array(d * 2);
      this.dBoxes = new Float64Array(d * 8);
      this.dAreas = new Float64Array(d * 2);
      this.outside = new Uint8Array(d * 2);
      this.candStart = new Int32Array(d * 2 + 1);
      this.nearStart = new Int32Array(d * 2 + 1);
    }
    if (this.crowd.length < g) {
      this.gBoxes = new Float64Array(g * 8);
      this.crowd = new Uint8Array(g * 2);
      this.gIgnore = new Uint8Array(g * 2);
      this.gOrder = new Int32Array(g * 2);
      this.gtm = new Uint8Array(T * g * 2);
      this.gPosition = new Int32Array(g * 2);
      this.gCounts = new Uint8Array(g * 2);
    }
    if (this.ious.length < d * g) this.ious = new Float64Array(d * g * 2);
    if (this.cand.length < d * g) {
      this.cand = new Int32Array(d * g * 2);
      this.near = new Int32Array(d * g * 2);
    }
  }
}

/** `COCOeval.evaluate()` followed by `accumulate()`. */
export function cocoEvaluate(input: CocoInput): CocoEvaluation {
  const imgIds = Array.from(new Set(Array.from(input.imageIds))).sort((a, b) => a - b);
  const catIds = Array.from(new Set(Array.from(input.categoryIds))).sort((a, b) => a - b);
  const imgIndex = new Map(imgIds.map((id, i) => [id, i]));
  const catIndex = new Map(catIds.map((id, k) => [id, k]));
  const { gt, dt } = input;
  // pycocotools' loadRes refuses results on images the ground truth does not have.
  for (let x = 0; x < dt.imageIds.length; x++) {
    if (!imgIndex.has(dt.imageIds[x]!)) throw new Error(`result on image ${dt.imageIds[x]}, not in the ground truth`);
  }
  const K = catIds.length;
  const I = imgIds.length;
  // _prepare: annotations grouped per (image, category), in input order.
  const gts = groupByCategoryImage(gt.imageIds, gt.categoryIds, imgIndex, catIndex, I, K);
  const dts = groupByCategoryImage(dt.imageIds, dt.categoryIds, imgIndex, catIndex, I, K);
  const precision = new Float64Array(T * R * K * AREAS * M).fill(-1);
  const recall = new Float64Array(T * K * AREAS * M).fill(-1);
  const scratch = new Scratch();
  for (let k = 0; k < K; k++) {
    let total = 0;
    for (let g = k * I; g < (k + 1) * I; g++) total += Math.min(dts.start[g + 1]! - dts.start[g]!, MAX_DETS[2]);
    const ev: CategoryEval = {
      total,
      scores: new Float64Array(total),
      rank: new Uint8Array(total),
      state: new Uint8Array(AREAS * T * total),
      npig: new Float64Array(AREAS),
    };
    let base = 0;
    for (let g = k * I; g < (k + 1) * I; g++) base += evaluateImage(input, gts, dts, g, ev, base, scratch);
    accumulateCategory(ev, k, K, precision, recall);
  }
  return { categoryIds: catIds, precision, recall };
}

/**
 * `evaluateImg` for one image and category at every area range: detections by descending score (stable), at most
 * maxDets[-1]; gt in input order, then with the ignored last. Writes the category's arrays from `base`; returns the
 * number of detections kept.
 */
function evaluateImage(
  input: CocoInput,
  gts: Groups,
  dts: Groups,
  group: number,
  ev: CategoryEval,
  base: number,
  s: Scratch,
): number {
  const { gt, dt } = input;
  const g0 = gts.start[group]!;
  const G = gts.start[group + 1]! - g0;
  const d0 = dts.start[group]!;
  const nd = dts.start[group + 1]! - d0;
  if (G === 0 && nd === 0) return 0;
  s.fit(nd, G);
  const { order, dBoxes, dAreas, gBoxes, crowd, gIgnore, gOrder, ious, gtm, cand, candStart, outside } = s;
  const { near, nearStart, gPosition, gCounts } = s;
  // Insertion sort: stable, and images hold few detections; a crowded one takes the library sort.
  for (let x = 0; x < nd; x++) order[x] = x;
  if (nd <= 64) {
    for (let x = 1; x < nd; x++) {
      const o = order[x]!;
      const key = dt.scores[dts.items[d0 + o]!]!;
      let y = x - 1;
      while (y >= 0 && dt.scores[dts.items[d0 + order[y]!]!]! < key) {
        order[y + 1] = order[y]!;
        y--;
      }
      order[y + 1] = o;
    }
  } else {
    const keys = new Float64Array(nd);
    for (let x = 0; x < nd; x++) keys[x] = dt.scores[dts.items[d0 + x]!]!;
    order.set(stableDescending(keys, nd));
  }
  const D = Math.min(nd, MAX_DETS[2]);
  for (let x = 0; x < D; x++) {
    const src = dts.items[d0 + order[x]!]!;
    for (let c = 0; c < 4; c++) dBoxes[x * 4 + c] = dt.boxes[src * 4 + c]!;
    dAreas[x] = dt.boxes[src * 4 + 2]! * dt.boxes[src * 4 + 3]!;
    ev.scores[base + x] = dt.scores[src]!;
    ev.rank[base + x] = x;
  }
  for (let y = 0; y < G; y++) {
    const src = gts.items[g0 + y]!;
    for (let c = 0; c < 4; c++) gBoxes[y * 4 + c] = gt.boxes[src * 4 + c]!;
    crowd[y] = gt.isCrowd[src]!;
    // pycocotools reads a match with annotation id 0 as no match.
    gCounts[y] = gt.ids[src]! !== 0 ? 1 : 0;
  }
  cocoIou(dBoxes, D, gBoxes, G, crowd, ious);
  // Every threshold is at least 0.5, so a gt below IoU 0.5 with a detection is never its match; skipping it cannot
  // change the outcome either (see matchDetection). The gts each detection reaches, in input order, for every area.
  let nearCount = 0;
  for (let x = 0; x < D; x++) {
    for (let y = 0; y < G; y++) if (ious[x * G + y]! >= IOU_THRESHOLDS[0]!) near[nearCount++] = y;
    nearStart[x + 1] = nearCount;
  }

  for (let a = 0; a < AREAS; a++) {
    const [lo, hi] = AREA_RANGES[a]!;
    let npig = 0;
    for (let y = 0; y < G; y++) {
      const ar = gt.areas[gts.items[g0 + y]!]!;
      gIgnore[y] = crowd[y] || ar < lo || ar > hi ? 1 : 0;
      if (!gIgnore[y]) gOrder[npig++] = y;
    }
    ev.npig[a] = ev.npig[a]! + npig;
    for (let y = 0, at = npig; y < G; y++) if (gIgnore[y]) gOrder[at++] = y;
    for (let y = 0; y < G; y++) gPosition[gOrder[y]!] = y;
    for (let x = 0; x < D; x++) outside[x] = dAreas[x]! < lo || dAreas[x]! > hi ? 1 : 0;
    if (G > 0) {
      // Candidates by sorted position: the sorted order keeps the input order among the gts not ignored, then among
      // the ignored, so these are a detection's near gts not ignored, then its near ignored ones.
      let n = 0;
      for (let x = 0; x < D; x++) {
        for (let c = nearStart[x]!; c < nearStart[x + 1]!; c++)
          if (!gIgnore[near[c]!]) cand[n++] = gPosition[near[c]!]!;
        for (let c = nearStart[x]!; c < nearStart[x + 1]!; c++) if (gIgnore[near[c]!]) cand[n++] = gPosition[near[c]!]!;
        candStart[x + 1] = n;
      }
      gtm.fill(0, 0, T * G);
    }
    for (let t = 0; t < T; t++) {
      for (let x = 0; x < D; x++) {
        const m =
          G > 0
            ? matchDetection(t, x, G, gOrder, gIgnore, crowd, ious, gtm, cand, candStart[x]!, candStart[x + 1]!)
            : -1;
        // A detection matched to a gt takes the gt's ignore flag; one unmatched (or matched to annotation id 0, which
        // pycocotools reads as no match) is ignored when its area lies outside the range.
        let ignored = 0;
        let matched = false;
        if (m !== -1) {
          const gm = gOrder[m]!;
          ignored = gIgnore[gm]!;
          matched = gCounts[gm] === 1;
          // gtm holds the detection's id, 1 … n, so it is never 0 here.
          gtm[t * G + m] = 1;
        }
        if (!matched && outside[x]) ignored = 1;
        ev.state[(a * ev.total + base + x) * T + t] = ignored ? IGNORED : matched ? TRUE_POSITIVE : FALSE_POSITIVE;
      }
    }
  }
  return D;
}

/**
 * `evaluateImg`'s greedy choice for detection x at threshold t, over the candidate gts (sorted positions with
 * IoU ≥ 0.5). pycocotools walks every gt; the ones left out here have IoU below any threshold, so they would be
 * skipped, or would stop the walk at the first ignored gt after a match to a gt not ignored, after which no later
 * (also ignored) gt can be taken anyway.
 */
function matchDetection(
  t: number,
  x: number,
  G: number,
  gOrder: Int32Array,
  gIgnore: Uint8Array,
  crowd: Uint8Array,
  ious: Float64Array,
  gtm: Uint8Array,
  cand: Int32Array,
  from: number,
  to: number,
): number {
  let iou = Math.min(IOU_THRESHOLDS[t]!, 1 - 1e-10);
  let m = -1;
  for (let c = from; c < to; c++) {
    const y = cand[c]!;
    const gy = gOrder[y]!;
    if (gtm[t * G + y] && !crowd[gy]) continue;
    if (m > -1 && gIgnore[gOrder[m]!] === 0 && gIgnore[gy] === 1) break;
    const v = ious[x * G + gy]!;
    if (v < iou) continue;
    iou = v;
    m = y;
  }
  return m;
}

/** `accumulate()` for one category: precision and recall at every threshold, area range and maxDets. */
function accumulateCategory(
  ev: CategoryEval,
  k: number,
  K: number,
  precision: Float64Array,
  recall: Float64Array,
): void {
  const { total, state } = ev;
  // A stable sort of a subsequence is the subsequence of the stable sort, so one order over the kept detections (at
  // most 100 per image) serves every area range and maxDets 1 and 10 too.
  const order = stableDescending(ev.scores, total);
  const kept = [new Int32Array(total), new Int32Array(total), new Int32Array(total)];
  const keptCount = [0, 0, 0];
  for (let m = 0; m < M; m++) {
    const maxDet = MAX_DETS[m]!;
    const list = kept[m]!;
    let n = 0;
    for (let x = 0; x < total; x++) if (ev.rank[order[x]!]! < maxDet) list[n++] = order[x]!;
    keptCount[m] = n;
  }
  // Per threshold, its true positives' recall and precision: rows of `total` in tpRc and tpPr.
  const tpRc = new Float64Array(T * total);
  const tpPr = new Float64Array(T * total);
  const tps = new Int32Array(T);
  const fps = new Int32Array(T);
  const qs = new Int32Array(T);
  for (let a = 0; a < AREAS; a++) {
    const npig = ev.npig[a]!;
    if (npig === 0) continue;
    for (let m = 0; m < M; m++) {
      const list = kept[m]!;
      const n = keptCount[m]!;
      tps.fill(0);
      fps.fill(0);
      qs.fill(0);
      // pycocotools computes recall and precision at every detection; only the true positives matter: recall rises
      // only there, so `searchsorted` lands on one (or on the first detection, for threshold 0), and the precision
      // after a true positive only falls until the next one, so the running maximum from the right is the maximum
      // over the true positives to the right.
      for (let x = 0; x < n; x++) {
        const cell = (a * total + list[x]!) * T;
        for (let t = 0; t < T; t++) {
          const st = state[cell + t]!;
          if (st === FALSE_POSITIVE) fps[t]!++;
          else if (st === TRUE_POSITIVE) {
            const tp = ++tps[t]!;
            const q = t * total + qs[t]!++;
            tpRc[q] = tp / npig;
            tpPr[q] = tp / (fps[t]! + tp + EPS);
          }
        }
      }
      for (let t = 0; t < T; t++) {
        recall[((t * K + k) * AREAS + a) * M + m] = n > 0 ? tps[t]! / npig : 0;
        const from = t * total;
        const to = from + qs[t]!;
        for (let x = to - 1; x > from; x--) if (tpPr[x]! > tpPr[x - 1]!) tpPr[x - 1] = tpPr[x]!;
        let x = from;
        for (let r = 0; r < R; r++) {
          const thr = RECALL_THRESHOLDS[r]!;
          while (x < to && tpRc[x]! < thr) x++;
          precision[(((t * R + r) * K + k) * AREAS + a) * M + m] = x < to ? tpPr[x]! : 0;
        }
      }
    }
  }
}

/** `COCOeval.summarize()`'s 12 stats over the given categories (all by default), −1 where nothing is defined. */
export function cocoSummarize(ev: CocoEvaluation, categories?: readonly number[]): CocoStats {
  const K = ev.categoryIds.length;
  const ks = categories ? categories.map((c) => ev.categoryIds.indexOf(c)).filter((k) => k >= 0) : [...Array(K).keys()];
  const thrIndex = (thr: number): number[] => {
    const out: number[] = [];
    for (let t = 0; t < T; t++) if (IOU_THRESHOLDS[t] === thr) out.push(t);
    return out;
  };
  const allT = [...Array(T).keys()];
  const summarize = (ap: boolean, ts: number[], a: number, m: number): number => {
    let sum = 0;
    let count = 0;
    for (const t of ts) {
      for (const k of ks) {
        if (ap) {
          for (let r = 0; r < R; r++) {
            const v = ev.precision[(((t * R + r) * K + k) * AREAS + a) * M + m]!;
            if (v > -1) {
              sum += v;
              count++;
            }
          }
        } else {
          const v = ev.recall[((t * K + k) * AREAS + a) * M + m]!;
          if (v > -1) {
            sum += v;
            count++;
          }
        }
      }
    }
    return count === 0 ? -1 : sum / count;
  };
  return {
    AP: summarize(true, allT, 0, 2),
    AP50: summarize(true, thrIndex(0.5), 0, 2),
    AP75: summarize(true, thrIndex(0.75), 0, 2),
    APs: summarize(true, allT, 1, 2),
    APm: summarize(true, allT, 2, 2),
    APl: summarize(true, allT, 3, 2),
    AR1: summarize(false, allT, 0, 0),
    AR10: summarize(false, allT, 0, 1),
    AR100: summarize(false, allT, 0, 2),
    ARs: summarize(false, allT, 1, 2),
    ARm: summarize(false, allT, 2, 2),
    ARl: summarize(false, allT, 3, 2),
  };
}
