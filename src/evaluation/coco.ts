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

/** One image × category × area range after matching (`evaluateImg`'s dict), reduced to what accumulate reads. */
interface ImageEval {
  /** Scores of the kept detections, descending (stable). */
  scores: Float64Array;
  /** T × D: 1 when matched to a gt with a non-zero id. */
  matched: Uint8Array;
  /** T × D: 1 when ignored. */
  ignored: Uint8Array;
  /** Number of gt not ignored. */
  npig: number;
}

export interface CocoEvaluation {
  categoryIds: number[];
  /** precision[t][r][k][a][m] flattened, −1 where pycocotools leaves −1. */
  precision: Float64Array;
  /** recall[t][k][a][m] flattened. */
  recall: Float64Array;
}

/** Stable order of indices by descending key (NumPy's `argsort(-key, kind='mergesort')`). */
function stableDescending(keys: Float64Array | number[], n: number): Int32Array {
  const idx = Array.from({ length: n }, (_, k) => k);
  idx.sort((a, b) => {
    const ka = keys[a]!;
    const kb = keys[b]!;
    return kb > ka ? 1 : kb < ka ? -1 : 0;
  });
  return Int32Array.from(idx);
}

function groupKey(img: number, cat: number): string {
  return `${img}:${cat}`;
}

/** `COCOeval.evaluate()` followed by `accumulate()`. */
export function cocoEvaluate(input: CocoInput): CocoEvaluation {
  const imgIds = Array.from(new Set(Array.from(input.imageIds))).sort((a, b) => a - b);
  const catIds = Array.from(new Set(Array.from(input.categoryIds))).sort((a, b) => a - b);
  const imgSet = new Set(imgIds);
  const catSet = new Set(catIds);
  const { gt, dt } = input;
  // pycocotools' loadRes refuses results on images the ground truth does not have.
  for (let k = 0; k < dt.imageIds.length; k++) {
    if (!imgSet.has(dt.imageIds[k]!)) throw new Error(`result on image ${dt.imageIds[k]}, not in the ground truth`);
  }

  // _prepare: annotations grouped per (image, category), in image order then input order.
  const gts = new Map<string, number[]>();
  const dts = new Map<string, number[]>();
  const byImage = (ids: Int32Array, cats: Int32Array, into: Map<string, number[]>): void => {
    for (let k = 0; k < ids.length; k++) {
      if (!imgSet.has(ids[k]!) || !catSet.has(cats[k]!)) continue;
      const key = groupKey(ids[k]!, cats[k]!);
      const list = into.get(key);
      if (list) list.push(k);
      else into.set(key, [k]);
    }
  };
  byImage(gt.imageIds, gt.categoryIds, gts);
  byImage(dt.imageIds, dt.categoryIds, dts);

  const K = catIds.length;
  const I = imgIds.length;
  const evals: (ImageEval | null)[] = new Array(K * AREAS * I).fill(null);
  const maxDet = MAX_DETS[2];
  for (let k = 0; k < K; k++) {
    for (let i = 0; i < I; i++) {
      const key = groupKey(imgIds[i]!, catIds[k]!);
      const g = gts.get(key) ?? [];
      const d = dts.get(key) ?? [];
      if (g.length === 0 && d.length === 0) continue;
      // computeIoU: detections by descending score, at most maxDets[-1]; gt in input order.
      const dScores = d.map((x) => dt.scores[x]!);
      const dOrder = stableDescending(dScores, d.length);
      const D = Math.min(d.length, maxDet);
      const G = g.length;
      const dBoxes = new Float64Array(D * 4);
      const dAreas = new Float64Array(D);
      const sortedScores = new Float64Array(D);
      for (let x = 0; x < D; x++) {
        const src = d[dOrder[x]!]!;
        dBoxes.set(dt.boxes.subarray(src * 4, src * 4 + 4), x * 4);
        dAreas[x] = dt.boxes[src * 4 + 2]! * dt.boxes[src * 4 + 3]!;
        sortedScores[x] = dt.scores[src]!;
      }
      const gBoxes = new Float64Array(G * 4);
      const crowd = new Uint8Array(G);
      for (let x = 0; x < G; x++) {
        gBoxes.set(gt.boxes.subarray(g[x]! * 4, g[x]! * 4 + 4), x * 4);
        crowd[x] = gt.isCrowd[g[x]!]!;
      }
      const ious = new Float64Array(D * G);
      cocoIou(dBoxes, D, gBoxes, G, crowd, ious);

      for (let a = 0; a < AREAS; a++) {
        const [lo, hi] = AREA_RANGES[a]!;
        const gIgnore = new Uint8Array(G);
        for (let x = 0; x < G; x++) {
          const ar = gt.areas[g[x]!]!;
          gIgnore[x] = crowd[x] || ar < lo || ar > hi ? 1 : 0;
        }
        // Gt ordered with the ignored last (stable).
        const gOrder: number[] = [];
        for (let x = 0; x < G; x++) if (!gIgnore[x]) gOrder.push(x);
        for (let x = 0; x < G; x++) if (gIgnore[x]) gOrder.push(x);
        const matched = new Uint8Array(T * D);
        const ignored = new Uint8Array(T * D);
        const dtmZero = new Uint8Array(T * D).fill(1);
        if (D > 0 && G > 0) {
          // Every threshold is at least 0.5, so a gt below IoU 0.5 with a detection is never its match; skipping it
          // cannot change the outcome either (see matchDetection). Candidates keep the sorted gt order.
          const candStart = new Int32Array(D + 1);
          const cand: number[] = [];
          for (let x = 0; x < D; x++) {
            for (let y = 0; y < G; y++) if (ious[x * G + gOrder[y]!]! >= IOU_THRESHOLDS[0]!) cand.push(y);
            candStart[x + 1] = cand.length;
          }
          const gtm = new Uint8Array(T * G);
          for (let t = 0; t < T; t++) {
            for (let x = 0; x < D; x++) {
              const m = matchDetection(
                t,
                x,
                G,
                gOrder,
                gIgnore,
                crowd,
                ious,
                gtm,
                cand,
                candStart[x]!,
                candStart[x + 1]!,
              );
              if (m === -1) continue;
              const gm = gOrder[m]!;
              ignored[t * D + x] = gIgnore[gm]!;
              const gtId = gt.ids[g[gm]!]!;
              matched[t * D + x] = gtId !== 0 ? 1 : 0;
              dtmZero[t * D + x] = gtId === 0 ? 1 : 0;
              // gtm holds the detection's id, 1 … n, so it is never 0 here.
              gtm[t * G + m] = 1;
            }
          }
        }
        for (let x = 0; x < D; x++) {
          const outside = dAreas[x]! < lo || dAreas[x]! > hi;
          if (!outside) continue;
          for (let t = 0; t < T; t++) if (dtmZero[t * D + x]) ignored[t * D + x] = 1;
        }
        let npig = 0;
        for (let x = 0; x < G; x++) if (!gIgnore[x]) npig++;
        evals[(k * AREAS + a) * I + i] = { scores: sortedScores, matched, ignored, npig };
      }
    }
  }
  return accumulate(evals, catIds, I);
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
  gOrder: number[],
  gIgnore: Uint8Array,
  crowd: Uint8Array,
  ious: Float64Array,
  gtm: Uint8Array,
  cand: number[],
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

function accumulate(evals: (ImageEval | null)[], catIds: number[], I: number): CocoEvaluation {
  const K = catIds.length;
  const precision = new Float64Array(T * R * K * AREAS * M).fill(-1);
  const recall = new Float64Array(T * K * AREAS * M).fill(-1);
  for (let k = 0; k < K; k++) {
    for (let a = 0; a < AREAS; a++) {
      const E: ImageEval[] = [];
      for (let i = 0; i < I; i++) {
        const e = evals[(k * AREAS + a) * I + i];
        if (e) E.push(e);
      }
      if (E.length === 0) continue;
      let npig = 0;
      for (const e of E) npig += e.npig;
      if (npig === 0) continue;
      // A stable sort of a subsequence is the subsequence of the stable sort, so one order over the kept
      // detections (at most 100 per image) serves maxDets 1 and 10 too.
      let total = 0;
      for (const e of E) total += e.scores.length;
      const scores = new Float64Array(total);
      const owner = new Int32Array(total);
      const pos = new Int32Array(total);
      let at = 0;
      for (let q = 0; q < E.length; q++) {
        const e = E[q]!;
        for (let x = 0; x < e.scores.length; x++) {
          scores[at] = e.scores[x]!;
          owner[at] = q;
          pos[at] = x;
          at++;
        }
      }
      const fullOrder = stableDescending(scores, total);
      // Per detection in score order: its rank within its image, and per threshold 0 (ignored), 1 (tp) or 2 (fp).
      const rankInImage = new Int32Array(total);
      const state = new Uint8Array(total * T);
      for (let x = 0; x < total; x++) {
        const o = fullOrder[x]!;
        const e = E[owner[o]!]!;
        const D = e.scores.length;
        rankInImage[x] = pos[o]!;
        for (let t = 0; t < T; t++) {
          const cell = t * D + pos[o]!;
          state[x * T + t] = e.ignored[cell] ? 0 : e.matched[cell] ? 1 : 2;
        }
      }
      const kept = new Int32Array(total);
      const tpRc = new Float64Array(total);
      const tpPr = new Float64Array(total);
      for (let m = 0; m < M; m++) {
        const maxDet = MAX_DETS[m]!;
        let n = 0;
        for (let x = 0; x < total; x++) if (rankInImage[x]! < maxDet) kept[n++] = x;
        for (let t = 0; t < T; t++) {
          // pycocotools computes recall and precision at every detection; only the true positives matter: recall
          // rises only there, so `searchsorted` lands on one (or on the first detection, for threshold 0), and the
          // precision after a true positive only falls until the next one, so the running maximum from the right is
          // the maximum over the true positives to the right.
          let tp = 0;
          let fp = 0;
          let q = 0;
          for (let x = 0; x < n; x++) {
            const st = state[kept[x]! * T + t]!;
            if (st === 2) fp++;
            else if (st === 1) {
              tp++;
              tpRc[q] = tp / npig;
              tpPr[q] = tp / (fp + tp + EPS);
              q++;
            }
          }
          recall[((t * K + k) * AREAS + a) * M + m] = n > 0 ? tp / npig : 0;
          for (let x = q - 1; x > 0; x--) if (tpPr[x]! > tpPr[x - 1]!) tpPr[x - 1] = tpPr[x]!;
          let x = 0;
          for (let r = 0; r < R; r++) {
            const thr = RECALL_THRESHOLDS[r]!;
            while (x < q && tpRc[x]! < thr) x++;
            precision[(((t * R + r) * K + k) * AREAS + a) * M + m] = x < q ? tpPr[x]! : 0;
          }
        }
      }
    }
  }
  return { categoryIds: catIds, precision, recall };
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
