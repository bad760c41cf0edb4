/**
 * HOTA, as TrackEval's `trackeval/metrics/hota.py` computes it: per-timestep matching weighted by the global
 * alignment of the two tracks, then detection and association scores at 19 localisation thresholds α.
 */
import { negativePairs } from './assignment.js';
import { EPS, mean } from './numeric.js';
import { PairIndex, PairValues } from './pairs.js';
import type { TrackingData } from './tracking-data.js';

/** `np.arange(0.05, 0.99, 0.05)`: NumPy fills start + i·step, so 0.15000000000000002 and not 0.15. */
export const ALPHAS: readonly number[] = Array.from({ length: 19 }, (_, i) => 0.05 + i * 0.05);
const A = 19;

export const HOTA_FLOAT_ARRAY_FIELDS = [
  'HOTA',
  'DetA',
  'AssA',
  'DetRe',
  'DetPr',
  'AssRe',
  'AssPr',
  'LocA',
  'OWTA',
] as const;
export const HOTA_INTEGER_ARRAY_FIELDS = ['HOTA_TP', 'HOTA_FN', 'HOTA_FP'] as const;
export const HOTA_FLOAT_FIELDS = ['HOTA(0)', 'LocA(0)', 'HOTALocA(0)'] as const;
export type HotaArrayField = (typeof HOTA_FLOAT_ARRAY_FIELDS)[number] | (typeof HOTA_INTEGER_ARRAY_FIELDS)[number];
export type HotaResult = Record<HotaArrayField, Float64Array> & Record<(typeof HOTA_FLOAT_FIELDS)[number], number>;

function zeros(): HotaResult {
  const res = {} as HotaResult;
  for (const f of HOTA_FLOAT_ARRAY_FIELDS) res[f] = new Float64Array(A);
  for (const f of HOTA_INTEGER_ARRAY_FIELDS) res[f] = new Float64Array(A);
  for (const f of HOTA_FLOAT_FIELDS) res[f] = 0;
  return res;
}

export function hotaSequence(data: TrackingData): HotaResult {
  const res = zeros();
  if (data.numTrackerDets === 0) {
    res.HOTA_FN.fill(data.numGtDets);
    res.LocA.fill(1);
    res['LocA(0)'] = 1;
    return res;
  }
  if (data.numGtDets === 0) {
    res.HOTA_FP.fill(data.numTrackerDets);
    res.LocA.fill(1);
    res['LocA(0)'] = 1;
    return res;
  }
  const { gtStart, trStart, gtIds, trIds, nzStart, nzCell, nzSim } = data;
  const G = data.numGtIds;
  const P = data.numTrackerIds;
  // TrackEval's G × P counters hold zeros for pairs that never overlap, so they are kept per overlapping pair.
  const pairs = new PairIndex(P);
  const potential = new PairValues();
  const gtIdCount = new Float64Array(G);
  const trIdCount = new Float64Array(P);
  let rowSum = new Float64Array(0);
  let colSum = new Float64Array(0);

  for (let t = 0; t < data.numTimesteps; t++) {
    const g0 = gtStart[t]!;
    const ng = gtStart[t + 1]! - g0;
    const p0 = trStart[t]!;
    const np = trStart[t + 1]! - p0;
    if (rowSum.length < ng) rowSum = new Float64Array(ng);
    if (colSum.length < np) colSum = new Float64Array(np);
    rowSum.fill(0, 0, ng);
    colSum.fill(0, 0, np);
    const z0 = nzStart[t]!;
    const z1 = nzStart[t + 1]!;
    // Zeros add nothing to a sum, so summing the non-zero cells in row-major order gives the same bits as the dense
    // sequential sum. NumPy's `similarity.sum(1)` adds rows of more than 8 cells pairwise instead; that changes only
    // the last bits of the alignment (the parity tests on 30 and 60 objects a frame agree to 1e-14).
    for (let z = z0; z < z1; z++) {
      const cell = nzCell[z]!;
      const s = nzSim[z]!;
      const i = (cell / np) | 0;
      rowSum[i] = rowSum[i]! + s;
      colSum[cell - i * np] = colSum[cell - i * np]! + s;
    }
    for (let z = z0; z < z1; z++) {
      const cell = nzCell[z]!;
      const s = nzSim[z]!;
      const i = (cell / np) | 0;
      const j = cell - i * np;
      const denom = colSum[j]! + rowSum[i]! - s;
      if (!(denom > 0 + EPS)) continue;
      const k = pairs.add(gtIds[g0 + i]!, trIds[p0 + j]!);
      potential.ensure(pairs.size);
      potential.values[k]! += s / denom;
    }
    for (let i = 0; i < ng; i++) gtIdCount[gtIds[g0 + i]!]!++;
    for (let j = 0; j < np; j++) trIdCount[trIds[p0 + j]!]!++;
  }

  const nPairs = pairs.size;
  const alignment = new Float64Array(nPairs);
  for (let k = 0; k < nPairs; k++) {
    const pm = potential.values[k]!;
    alignment[k] = pm / (gtIdCount[pairs.gt[k]!]! + trIdCount[pairs.pred[k]!]! - pm);
  }
  // matchesCounts[pair × 19 + α]: a match needs similarity ≥ α > 0, so its pair is among the overlapping ones.
  const matchesCounts = new Float64Array(nPairs * A);
  const locSum = res.LocA;
  let cost = new Float64Array(0);
  let cellPair = new Int32Array(0);
  let frameSim = new Float64Array(0);

  for (let t = 0; t < data.numTimesteps; t++) {
    const g0 = gtStart[t]!;
    const ng = gtStart[t + 1]! - g0;
    const p0 = trStart[t]!;
    const np = trStart[t + 1]! - p0;
    if (ng === 0) {
      for (let a = 0; a < A; a++) res.HOTA_FP[a]! += np;
      continue;
    }
    if (np === 0) {
      for (let a = 0; a < A; a++) res.HOTA_FN[a]! += ng;
      continue;
    }
    if (cost.length < ng * np) {
      cost = new Float64Array(ng * np);
      cellPair = new Int32Array(ng * np);
      frameSim = new Float64Array(ng * np);
    }
    frameSim.fill(0, 0, ng * np);
    // Cells without overlap score 0 (TrackEval's −0 after negation; the solver never tells the two zeros apart).
    cost.fill(0, 0, ng * np);
    const z0 = nzStart[t]!;
    const z1 = nzStart[t + 1]!;
    for (let z = z0; z < z1; z++) {
      const cell = nzCell[z]!;
      const i = (cell / np) | 0;
      const k = pairs.find(gtIds[g0 + i]!, trIds[p0 + cell - i * np]!);
      cellPair[cell] = k;
      frameSim[cell] = nzSim[z]!;
      cost[cell] = -((k === -1 ? 0 : alignment[k]!) * nzSim[z]!);
    }
    const { rows, cols } = negativePairs(cost, ng, np, nzCell, z0, z1);
    for (let a = 0; a < A; a++) {
      const alpha = ALPHAS[a]!;
      let matches = 0;
      // TrackEval adds the matched similarities with Python's sum(), left to right, starting from 0.
      let frameLoc = 0;
      for (let k = 0; k < rows.length; k++) {
        const i = rows[k]!;
        const j = cols[k]!;
        const s = frameSim[i * np + j]!;
        if (s >= alpha - EPS) {
          matches++;
          frameLoc += s;
          matchesCounts[cellPair[i * np + j]! * A + a]!++;
        }
      }
      res.HOTA_TP[a]! += matches;
      res.HOTA_FN[a]! += ng - matches;
      res.HOTA_FP[a]! += np - matches;
      if (matches > 0) locSum[a]! += frameLoc;
    }
  }

  for (let a = 0; a < A; a++) {
    let assA = 0;
    let assRe = 0;
    let assPr = 0;
    for (let k = 0; k < nPairs; k++) {
      const m = matchesCounts[k * A + a]!;
      if (m === 0) continue;
      const gc = gtIdCount[pairs.gt[k]!]!;
      const pc = trIdCount[pairs.pred[k]!]!;
      assA += m * (m / Math.max(1, gc + pc - m));
      assRe += m * (m / Math.max(1, gc));
      assPr += m * (m / Math.max(1, pc));
    }
    const tp = Math.max(1, res.HOTA_TP[a]!);
    res.AssA[a] = assA / tp;
    res.AssRe[a] = assRe / tp;
    res.AssPr[a] = assPr / tp;
    res.LocA[a] = Math.max(1e-10, locSum[a]!) / Math.max(1e-10, res.HOTA_TP[a]!);
  }
  return hotaFinal(res);
}

function hotaFinal(res: HotaResult): HotaResult {
  for (let a = 0; a < A; a++) {
    const tp = res.HOTA_TP[a]!;
    const fn = res.HOTA_FN[a]!;
    const fp = res.HOTA_FP[a]!;
    res.DetRe[a] = tp / Math.max(1, tp + fn);
    res.DetPr[a] = tp / Math.max(1, tp + fp);
    res.DetA[a] = tp / Math.max(1, tp + fn + fp);
    res.HOTA[a] = Math.sqrt(res.DetA[a]! * res.AssA[a]!);
    res.OWTA[a] = Math.sqrt(res.DetRe[a]! * res.AssA[a]!);
  }
  res['HOTA(0)'] = res.HOTA[0]!;
  res['LocA(0)'] = res.LocA[0]!;
  res['HOTALocA(0)'] = res['HOTA(0)'] * res['LocA(0)'];
  return res;
}

/** `combine_sequences` and `combine_classes_det_averaged`: counts summed, association scores and LocA weighted by TP. */
function detWeighted(all: readonly HotaResult[]): HotaResult {
  const res = zeros();
  for (const r of all) for (const f of HOTA_INTEGER_ARRAY_FIELDS) for (let a = 0; a < A; a++) res[f][a]! += r[f][a]!;
  for (let a = 0; a < A; a++) {
    const w = Math.max(1, res.HOTA_TP[a]!);
    let assRe = 0;
    let assPr = 0;
    let assA = 0;
    let loc = 0;
    for (const r of all) {
      const tp = r.HOTA_TP[a]!;
      assRe += r.AssRe[a]! * tp;
      assPr += r.AssPr[a]! * tp;
      assA += r.AssA[a]! * tp;
      loc += r.LocA[a]! * tp;
    }
    res.AssRe[a] = assRe / w;
    res.AssPr[a] = assPr / w;
    res.AssA[a] = assA / w;
    res.LocA[a] = Math.max(1e-10, loc) / Math.max(1e-10, res.HOTA_TP[a]!);
  }
  return hotaFinal(res);
}

export const hotaCombineSequences = detWeighted;
export const hotaCombineDetAveraged = detWeighted;

/** `combine_classes_class_averaged` with `ignore_empty_classes`: counts summed, every score averaged over classes. */
export function hotaCombineClassAveraged(all: readonly HotaResult[], ignoreEmpty = true): HotaResult {
  const used = ignoreEmpty
    ? all.filter((r) => {
        for (let a = 0; a < A; a++) if (r.HOTA_TP[a]! + r.HOTA_FN[a]! + r.HOTA_FP[a]! > 0 + EPS) return true;
        return false;
      })
    : all;
  const res = zeros();
  for (const r of used) for (const f of HOTA_INTEGER_ARRAY_FIELDS) for (let a = 0; a < A; a++) res[f][a]! += r[f][a]!;
  for (const f of HOTA_FLOAT_ARRAY_FIELDS) for (let a = 0; a < A; a++) res[f][a] = mean(used.map((r) => r[f][a]!));
  for (const f of HOTA_FLOAT_FIELDS) res[f] = mean(used.map((r) => r[f]));
  return res;
}
