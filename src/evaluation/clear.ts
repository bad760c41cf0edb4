/**
 * CLEAR MOT, as TrackEval's `trackeval/metrics/clear.py` computes it: per-timestep matching that first keeps the
 * previous timestep's pairs (a bonus of 1000) and then maximises IoU, with TrackEval's epsilon rules at the threshold.
 */
import { negativePairs } from './assignment.js';
import { EPS, mean } from './numeric.js';
import type { TrackingData } from './tracking-data.js';

export const CLEAR_INTEGER_FIELDS = [
  'CLR_TP',
  'CLR_FN',
  'CLR_FP',
  'IDSW',
  'MT',
  'PT',
  'ML',
  'Frag',
  'CLR_Frames',
] as const;
export const CLEAR_FLOAT_FIELDS = [
  'MOTA',
  'MOTP',
  'MODA',
  'CLR_Re',
  'CLR_Pr',
  'MTR',
  'PTR',
  'MLR',
  'sMOTA',
  'CLR_F1',
  'FP_per_frame',
  'MOTAL',
  'MOTP_sum',
] as const;
export type ClearField = (typeof CLEAR_INTEGER_FIELDS)[number] | (typeof CLEAR_FLOAT_FIELDS)[number];
/** All CLEAR fields, including `MOTP_sum`, the summed IoU TrackEval carries to combine MOTP. */
export type ClearResult = Record<ClearField, number>;

/** Per-frame counts at the CLEAR threshold, added to (so several classes can share one timeline). */
export interface FrameCounts {
  tp: Int32Array;
  fp: Int32Array;
  fn: Int32Array;
  idsw: Int32Array;
}

function zeros(): ClearResult {
  const res = {} as ClearResult;
  for (const f of CLEAR_INTEGER_FIELDS) res[f] = 0;
  for (const f of CLEAR_FLOAT_FIELDS) res[f] = 0;
  return res;
}

export function clearSequence(data: TrackingData, threshold = 0.5, frames?: FrameCounts): ClearResult {
  const res = zeros();
  const { gtStart, trStart, gtIds, trIds, nzStart, nzCell, nzSim } = data;
  // TrackEval returns early for an empty side, with MLR = 1 and, notably, CLR_Frames left at 0.
  if (data.numTrackerDets === 0) {
    res.CLR_FN = data.numGtDets;
    res.ML = data.numGtIds;
    res.MLR = 1;
    if (frames) for (let t = 0; t < data.numTimesteps; t++) frames.fn[t]! += gtStart[t + 1]! - gtStart[t]!;
    return res;
  }
  if (data.numGtDets === 0) {
    res.CLR_FP = data.numTrackerDets;
    res.MLR = 1;
    if (frames) for (let t = 0; t < data.numTimesteps; t++) frames.fp[t]! += trStart[t + 1]! - trStart[t]!;
    return res;
  }

  const nIds = data.numGtIds;
  const gtIdCount = new Float64Array(nIds);
  const gtMatchedCount = new Float64Array(nIds);
  const gtFragCount = new Float64Array(nIds);
  // −1 stands for TrackEval's NaN: tracker ids are never negative.
  const prevTrackerId = new Int32Array(nIds).fill(-1);
  const prevTimestepTrackerId = new Int32Array(nIds).fill(-1);
  const notPreviouslyTracked = new Uint8Array(nIds);
  let cost = new Float64Array(0);
  let frameSim = new Float64Array(0);
  let tp = 0;
  let fn = 0;
  let fp = 0;
  let idsw = 0;
  let motpSum = 0;

  for (let t = 0; t < data.numTimesteps; t++) {
    const g0 = gtStart[t]!;
    const ng = gtStart[t + 1]! - g0;
    const p0 = trStart[t]!;
    const np = trStart[t + 1]! - p0;
    if (ng === 0) {
      fp += np;
      if (frames) frames.fp[t]! += np;
      continue;
    }
    if (np === 0) {
      fn += ng;
      for (let i = 0; i < ng; i++) gtIdCount[gtIds[g0 + i]!]!++;
      if (frames) frames.fn[t]! += ng;
      continue;
    }
    if (cost.length < ng * np) {
      cost = new Float64Array(ng * np);
      frameSim = new Float64Array(ng * np);
    }
    frameSim.fill(0, 0, ng * np);
    // Cells without overlap score 0 (TrackEval's −0 after negation; the solver never tells the two zeros apart).
    cost.fill(0, 0, ng * np);
    const z0 = nzStart[t]!;
    const z1 = nzStart[t + 1]!;
    for (let z = z0; z < z1; z++) {
      const cell = nzCell[z]!;
      const s = nzSim[z]!;
      frameSim[cell] = s;
      if (s < threshold - EPS) continue;
      const i = (cell / np) | 0;
      const bonus = trIds[p0 + cell - i * np] === prevTimestepTrackerId[gtIds[g0 + i]!] ? 1 : 0;
      cost[cell] = -(1000 * bonus + s);
    }
    const { rows, cols } = negativePairs(cost, ng, np, nzCell, z0, z1);
    for (let k = 0; k < nIds; k++) notPreviouslyTracked[k] = prevTimestepTrackerId[k] === -1 ? 1 : 0;
    prevTimestepTrackerId.fill(-1);
    let matches = 0;
    let frameIdsw = 0;
    for (let k = 0; k < rows.length; k++) {
      const i = rows[k]!;
      const j = cols[k]!;
      if (!(-cost[i * np + j]! > 0 + EPS)) continue;
      const gid = gtIds[g0 + i]!;
      const tid = trIds[p0 + j]!;
      const prev = prevTrackerId[gid]!;
      if (prev !== -1 && prev !== tid) frameIdsw++;
      gtMatchedCount[gid]!++;
      prevTrackerId[gid] = tid;
      prevTimestepTrackerId[gid] = tid;
      motpSum += frameSim[i * np + j]!;
      matches++;
    }
    for (let i = 0; i < ng; i++) gtIdCount[gtIds[g0 + i]!]!++;
    for (let k = 0; k < nIds; k++) if (notPreviouslyTracked[k] && prevTimestepTrackerId[k] !== -1) gtFragCount[k]!++;
    idsw += frameIdsw;
    tp += matches;
    fn += ng - matches;
    fp += np - matches;
    if (frames) {
      frames.tp[t]! += matches;
      frames.fn[t]! += ng - matches;
      frames.fp[t]! += np - matches;
      frames.idsw[t]! += frameIdsw;
    }
  }

  let mt = 0;
  let ptOrMore = 0;
  let frag = 0;
  for (let k = 0; k < nIds; k++) {
    const n = gtIdCount[k]!;
    if (n > 0) {
      const ratio = gtMatchedCount[k]! / n;
      if (ratio > 0.8) mt++;
      if (ratio >= 0.2) ptOrMore++;
    }
    if (gtFragCount[k]! > 0) frag += gtFragCount[k]! - 1;
  }
  res.CLR_TP = tp;
  res.CLR_FN = fn;
  res.CLR_FP = fp;
  res.IDSW = idsw;
  res.MT = mt;
  res.PT = ptOrMore - mt;
  res.ML = nIds - mt - res.PT;
  res.Frag = frag;
  res.MOTP_sum = motpSum;
  res.CLR_Frames = data.numTimesteps;
  return clearFinal(res);
}

/** TrackEval's `_compute_final_fields`: the ratios from the summed counts. */
function clearFinal(res: ClearResult): ClearResult {
  const numGtIds = res.MT + res.ML + res.PT;
  const gtDets = Math.max(1, res.CLR_TP + res.CLR_FN);
  res.MTR = res.MT / Math.max(1, numGtIds);
  res.MLR = res.ML / Math.max(1, numGtIds);
  res.PTR = res.PT / Math.max(1, numGtIds);
  res.CLR_Re = res.CLR_TP / gtDets;
  res.CLR_Pr = res.CLR_TP / Math.max(1, res.CLR_TP + res.CLR_FP);
  res.MODA = (res.CLR_TP - res.CLR_FP) / gtDets;
  res.MOTA = (res.CLR_TP - res.CLR_FP - res.IDSW) / gtDets;
  res.MOTP = res.MOTP_sum / Math.max(1, res.CLR_TP);
  res.sMOTA = (res.MOTP_sum - res.CLR_FP - res.IDSW) / gtDets;
  res.CLR_F1 = res.CLR_TP / Math.max(1, res.CLR_TP + 0.5 * res.CLR_FN + 0.5 * res.CLR_FP);
  res.FP_per_frame = res.CLR_FP / Math.max(1, res.CLR_Frames);
  const safeLogIdsw = res.IDSW > 0 ? Math.log10(res.IDSW) : res.IDSW;
  res.MOTAL = (res.CLR_TP - res.CLR_FP - safeLogIdsw) / gtDets;
  return res;
}

function summed(all: readonly ClearResult[]): ClearResult {
  const res = zeros();
  for (const r of all) {
    for (const f of CLEAR_INTEGER_FIELDS) res[f] += r[f];
    res.MOTP_sum += r.MOTP_sum;
  }
  return clearFinal(res);
}

/** `combine_sequences`: counts summed, ratios recomputed. */
export const clearCombineSequences = summed;
/** `combine_classes_det_averaged`: the same as over sequences. */
export const clearCombineDetAveraged = summed;

/** `combine_classes_class_averaged` with `ignore_empty_classes`: counts summed, ratios averaged over classes. */
export function clearCombineClassAveraged(all: readonly ClearResult[], ignoreEmpty = true): ClearResult {
  const used = ignoreEmpty ? all.filter((r) => r.CLR_TP + r.CLR_FN + r.CLR_FP > 0) : all;
  const res = zeros();
  for (const f of CLEAR_INTEGER_FIELDS) for (const r of used) res[f] += r[f];
  for (const f of CLEAR_FLOAT_FIELDS) res[f] = mean(used.map((r) => r[f]));
  return res;
}
