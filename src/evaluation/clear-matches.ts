/**
 * Which boxes CLEAR MOT matched, box by box: the same per-timestep matching as `clearSequence` (the previous
 * timestep's pairs kept with TrackEval's bonus of 1000, then the most IoU, ties broken as SciPy breaks them), kept
 * per box instead of counted. The editor's comparison draws from it: a matched box, a false positive, a missed
 * ground-truth box, and the ground-truth box at which an identity switch happens.
 */
import { negativePairs } from './assignment.js';
import { EPS } from './numeric.js';
import type { TrackingData } from './tracking-data.js';

export interface ClearMatches {
  /** Per ground-truth detection (the data's order): the matched prediction detection, or −1 for a miss. */
  gtMatch: Int32Array;
  /** Per prediction detection: the matched ground-truth detection, or −1 for a false positive. */
  predMatch: Int32Array;
  /** Per ground-truth detection: 1 where its track's identity switches (its match is a new prediction track). */
  idsw: Uint8Array;
}

export function clearMatches(data: TrackingData, threshold = 0.5): ClearMatches {
  const { gtStart, trStart, gtIds, trIds, nzStart, nzCell, nzSim } = data;
  const out: ClearMatches = {
    gtMatch: new Int32Array(data.numGtDets).fill(-1),
    predMatch: new Int32Array(data.numTrackerDets).fill(-1),
    idsw: new Uint8Array(data.numGtDets),
  };
  if (data.numTrackerDets === 0 || data.numGtDets === 0) return out;
  const nIds = data.numGtIds;
  // −1 stands for TrackEval's NaN, as in clearSequence.
  const prevTrackerId = new Int32Array(nIds).fill(-1);
  const prevTimestepTrackerId = new Int32Array(nIds).fill(-1);
  let cost = new Float64Array(0);
  for (let t = 0; t < data.numTimesteps; t++) {
    const g0 = gtStart[t]!;
    const ng = gtStart[t + 1]! - g0;
    const p0 = trStart[t]!;
    const np = trStart[t + 1]! - p0;
    if (ng === 0 || np === 0) continue;
    if (cost.length < ng * np) cost = new Float64Array(ng * np);
    cost.fill(0, 0, ng * np);
    const z0 = nzStart[t]!;
    const z1 = nzStart[t + 1]!;
    for (let z = z0; z < z1; z++) {
      const cell = nzCell[z]!;
      const s = nzSim[z]!;
      if (s < threshold - EPS) continue;
      const i = (cell / np) | 0;
      const bonus = trIds[p0 + cell - i * np] === prevTimestepTrackerId[gtIds[g0 + i]!] ? 1 : 0;
      cost[cell] = -(1000 * bonus + s);
    }
    const { rows, cols } = negativePairs(cost, ng, np, nzCell, z0, z1);
    prevTimestepTrackerId.fill(-1);
    for (let k = 0; k < rows.length; k++) {
      const i = rows[k]!;
      const j = cols[k]!;
      if (!(-cost[i * np + j]! > 0 + EPS)) continue;
      const gid = gtIds[g0 + i]!;
      const tid = trIds[p0 + j]!;
      const prev = prevTrackerId[gid]!;
      if (prev !== -1 && prev !== tid) out.idsw[g0 + i] = 1;
      out.gtMatch[g0 + i] = p0 + j;
      out.predMatch[p0 + j] = g0 + i;
      prevTrackerId[gid] = tid;
      prevTimestepTrackerId[gid] = tid;
    }
  }
  return out;
}
