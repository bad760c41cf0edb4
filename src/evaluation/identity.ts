/**
 * Identity metrics (IDF1, IDR, IDP), as TrackEval's `trackeval/metrics/identity.py` computes them: one global
 * assignment of gt tracks to predicted tracks maximising the detections matched at IoU ≥ threshold.
 */
import { maxWeightMatching, type SparseRows } from './matching.js';
import { EPS, mean } from './numeric.js';
import { PairIndex, PairValues } from './pairs.js';
import type { TrackingData } from './tracking-data.js';

export const IDENTITY_INTEGER_FIELDS = ['IDTP', 'IDFN', 'IDFP'] as const;
export const IDENTITY_FLOAT_FIELDS = ['IDF1', 'IDR', 'IDP'] as const;
export type IdentityField = (typeof IDENTITY_INTEGER_FIELDS)[number] | (typeof IDENTITY_FLOAT_FIELDS)[number];
export type IdentityResult = Record<IdentityField, number>;

function result(idtp: number, idfn: number, idfp: number): IdentityResult {
  return {
    IDTP: idtp,
    IDFN: idfn,
    IDFP: idfp,
    IDR: idtp / Math.max(1, idtp + idfn),
    IDP: idtp / Math.max(1, idtp + idfp),
    IDF1: idtp / Math.max(1, idtp + 0.5 * idfp + 0.5 * idfn),
  };
}

export function identitySequence(data: TrackingData, threshold = 0.5): IdentityResult {
  // TrackEval's early returns leave the ratios at 0, which is what the formulas give here too.
  if (data.numTrackerDets === 0) return result(0, data.numGtDets, 0);
  if (data.numGtDets === 0) return result(0, 0, data.numTrackerDets);
  const P = data.numTrackerIds;
  const pairs = new PairIndex(P);
  const potential = new PairValues();
  const { gtStart, trStart, gtIds, trIds, nzStart, nzCell, nzSim } = data;
  for (let t = 0; t < data.numTimesteps; t++) {
    const g0 = gtStart[t]!;
    const p0 = trStart[t]!;
    const np = trStart[t + 1]! - p0;
    for (let z = nzStart[t]!; z < nzStart[t + 1]!; z++) {
      const cell = nzCell[z]!;
      if (!(nzSim[z]! >= threshold)) continue;
      const i = (cell / np) | 0;
      const k = pairs.add(gtIds[g0 + i]!, trIds[p0 + cell - i * np]!);
      potential.ensure(pairs.size);
      potential.values[k]!++;
    }
  }
  // TrackEval solves a (G + P)² problem whose dummy rows and columns stand for "unmatched"; its optimum leaves
  // IDFN = gt dets − matched and IDFP = prediction dets − matched, where "matched" is the largest total of
  // potential matches over a one-to-one pairing of tracks. That total is unique and integral, so a sparse
  // maximum-weight matching over the pairs that ever matched gives the same figures exactly.
  const matched = maxWeightMatching(pairRows(pairs, potential.values, data.numGtIds, P));
  return result(matched, data.numGtDets - matched, data.numTrackerDets - matched);
}

/** The pairs as CSR rows by gt id. */
function pairRows(pairs: PairIndex, values: Float64Array, G: number, P: number): SparseRows {
  const rowStart = new Int32Array(G + 1);
  for (let k = 0; k < pairs.size; k++) rowStart[pairs.gt[k]! + 1]!++;
  for (let g = 0; g < G; g++) rowStart[g + 1] = rowStart[g + 1]! + rowStart[g]!;
  const fill = rowStart.slice(0, G);
  const colIndex = new Int32Array(pairs.size);
  const weights = new Float64Array(pairs.size);
  for (let k = 0; k < pairs.size; k++) {
    const at = fill[pairs.gt[k]!]!++;
    colIndex[at] = pairs.pred[k]!;
    weights[at] = values[k]!;
  }
  return { rows: G, cols: P, rowStart, colIndex, weights };
}

function summed(all: readonly IdentityResult[]): IdentityResult {
  let tp = 0;
  let fn = 0;
  let fp = 0;
  for (const r of all) {
    tp += r.IDTP;
    fn += r.IDFN;
    fp += r.IDFP;
  }
  return result(tp, fn, fp);
}

export const identityCombineSequences = summed;
export const identityCombineDetAveraged = summed;

/** `combine_classes_class_averaged` with `ignore_empty_classes`: counts summed, ratios averaged over classes. */
export function identityCombineClassAveraged(all: readonly IdentityResult[], ignoreEmpty = true): IdentityResult {
  const used = ignoreEmpty ? all.filter((r) => r.IDTP + r.IDFN + r.IDFP > 0 + EPS) : all;
  const res = {} as IdentityResult;
  for (const f of IDENTITY_INTEGER_FIELDS) res[f] = used.reduce((s, r) => s + r[f], 0);
  for (const f of IDENTITY_FLOAT_FIELDS) res[f] = mean(used.map((r) => r[f]));
  return res;
}
