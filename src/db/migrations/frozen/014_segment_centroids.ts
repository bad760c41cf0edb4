// What migration 014 computes for one segment of a run, frozen as it was when the migration shipped: the centroid
// rows of its tracks per label (012's rule, spec §6) with their grid cells (003's rule) and counts. The live
// detections and search code may change later, and an applied migration must not change with it.
import { cellMasksOfPoints, decodePoints } from './003_cells.js';
import { framedCentroidRows, type FramedCentroidRow } from './012_centroid_frames.js';

export interface SegmentCentroidRow extends FramedCentroidRow {
  count: number;
  cells: { lo: number; hi: number };
}

export function splitCentroidRows(headersJson: string, boxes: Uint8Array): SegmentCentroidRow[] {
  return framedCentroidRows(headersJson, boxes).map((row) => ({
    ...row,
    count: row.frames.length / 8,
    cells: cellMasksOfPoints(decodePoints(row.points)),
  }));
}
