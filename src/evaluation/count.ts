/** TrackEval's `trackeval/metrics/count.py`: detections and distinct ids on each side. */
import type { TrackingData } from './tracking-data.js';

export interface CountResult {
  Dets: number;
  GT_Dets: number;
  IDs: number;
  GT_IDs: number;
}

export function countSequence(data: TrackingData): CountResult {
  return { Dets: data.numTrackerDets, GT_Dets: data.numGtDets, IDs: data.numTrackerIds, GT_IDs: data.numGtIds };
}

/** Every combination (over sequences, class- or det-averaged) is a sum. */
export function countCombine(all: readonly CountResult[]): CountResult {
  const res: CountResult = { Dets: 0, GT_Dets: 0, IDs: 0, GT_IDs: 0 };
  for (const r of all) {
    res.Dets += r.Dets;
    res.GT_Dets += r.GT_Dets;
    res.IDs += r.IDs;
    res.GT_IDs += r.GT_IDs;
  }
  return res;
}
