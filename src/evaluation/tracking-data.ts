/**
 * The per-sequence, per-class data the tracking metrics read: TrackEval's preprocessed `data` dict, as typed arrays.
 * Ids are relabelled to 0 … n − 1 in ascending order of the original id, as TrackEval does, and each timestep carries
 * its gt × prediction IoU matrix.
 */
import { trackEvalIou } from './iou.js';
import { type BoxSet, filterBoxSet } from './layout.js';

export interface TrackingData {
  numTimesteps: number;
  numGtIds: number;
  numTrackerIds: number;
  numGtDets: number;
  numTrackerDets: number;
  /** Gt detections of timestep t are `gtStart[t]` … `gtStart[t + 1] − 1`. */
  gtStart: Int32Array;
  gtIds: Int32Array;
  trStart: Int32Array;
  trIds: Int32Array;
  /**
   * The similarity (IoU) matrices, sparse: the non-zero cells of timestep t are `nzStart[t]` … `nzStart[t + 1] − 1`,
   * each a row-major offset `nzCell` within that timestep's (gt × prediction) matrix and its value `nzSim`. Most boxes
   * overlap few others, so a long run's matrices are mostly zeros, which add nothing to the metrics' sums.
   */
  nzStart: Int32Array;
  nzCell: Int32Array;
  nzSim: Float64Array;
}

/** Relabels ids to their rank among the distinct ids; returns the count of distinct ids. */
function relabel(ids: Int32Array): { ids: Int32Array; count: number } {
  const distinct = Int32Array.from(new Set(ids)).sort();
  const rank = new Map<number, number>();
  for (let k = 0; k < distinct.length; k++) rank.set(distinct[k]!, k);
  const out = new Int32Array(ids.length);
  for (let k = 0; k < ids.length; k++) out[k] = rank.get(ids[k]!)!;
  return { ids: out, count: distinct.length };
}

/** TrackEval refuses a track id twice in one timestep; the metrics' per-id counters assume it never happens. */
function checkUniqueIds(start: Int32Array, ids: Int32Array, count: number, side: string): void {
  const seen = new Int32Array(count).fill(-1);
  for (let t = 0; t + 1 < start.length; t++) {
    for (let k = start[t]!; k < start[t + 1]!; k++) {
      const id = ids[k]!;
      if (seen[id] === t) throw new Error(`${side}: a track id appears twice in timestep ${t}`);
      seen[id] = t;
    }
  }
}

/** Builds the metrics' data from two box sets already restricted to the boxes to evaluate. */
export function trackingData(gt: BoxSet, pred: BoxSet): TrackingData {
  const T = gt.frameStart.length - 1;
  const g = relabel(gt.ids);
  const p = relabel(pred.ids);
  checkUniqueIds(gt.frameStart, g.ids, g.count, 'ground truth');
  checkUniqueIds(pred.frameStart, p.ids, p.count, 'prediction');
  const nzStart = new Int32Array(T + 1);
  let nzCell = new Int32Array(1024);
  let nzSim = new Float64Array(1024);
  let nz = 0;
  let frame = new Float64Array(0);
  for (let t = 0; t < T; t++) {
    const g0 = gt.frameStart[t]!;
    const ng = gt.frameStart[t + 1]! - g0;
    const p0 = pred.frameStart[t]!;
    const np = pred.frameStart[t + 1]! - p0;
    if (frame.length < ng * np) frame = new Float64Array(ng * np);
    trackEvalIou(gt.boxes, g0, ng, pred.boxes, p0, np, frame);
    for (let c = 0; c < ng * np; c++) {
      if (frame[c] === 0) continue;
      if (nz === nzCell.length) {
        const cells = new Int32Array(nz * 2);
        cells.set(nzCell);
        nzCell = cells;
        const values = new Float64Array(nz * 2);
        values.set(nzSim);
        nzSim = values;
      }
      nzCell[nz] = c;
      nzSim[nz] = frame[c]!;
      nz++;
    }
    nzStart[t + 1] = nz;
  }
  return {
    numTimesteps: T,
    numGtIds: g.count,
    numTrackerIds: p.count,
    numGtDets: gt.ids.length,
    numTrackerDets: pred.ids.length,
    gtStart: gt.frameStart,
    gtIds: g.ids,
    trStart: pred.frameStart,
    trIds: p.ids,
    nzStart,
    nzCell: nzCell.subarray(0, nz),
    nzSim: nzSim.subarray(0, nz),
  };
}

/** The data for one class: ground truth of class `cls` against predictions of class `cls`. */
export function classTrackingData(gt: BoxSet, pred: BoxSet, cls: number): TrackingData {
  return trackingData(
    filterBoxSet(gt, (k) => gt.classes[k] === cls),
    filterBoxSet(pred, (k) => pred.classes[k] === cls),
  );
}
