// A run-label's centroids are stored ordered by grid row, with the index where each row's points start
// (row1_start … row7_start; row 0 starts at 0 and row 8 "starts" at count). A search then reads only the
// byte range of the rows its region covers (substr in SQL) instead of every point of the run-label.
import { GRID, cellOf, type CellMask } from './grid.js';

export const ROW_START_COLUMNS = [
  'row1_start',
  'row2_start',
  'row3_start',
  'row4_start',
  'row5_start',
  'row6_start',
  'row7_start',
] as const;
export type RowStartColumn = (typeof ROW_START_COLUMNS)[number];
export type RowStarts = Record<RowStartColumn, number>;

/** Bytes per stored point: two float64 (see detections/centroids.ts). */
export const POINT_BYTES = 16;

/** The grid row of a y coordinate, by cellOf's rule, so a point's row is the row of its cell. */
export function rowOf(y: number): number {
  return Math.floor(cellOf(0, y) / GRID);
}

/** Bytes per stored frame: one float64, in the order of the points (detections/centroids.ts). */
export const FRAME_BYTES = 8;

/**
 * The points (x0, y0, x1, y1, …) ordered by grid row (stable within a row), where each row starts, and the
 * points' frames (one per point) in the same order.
 */
export function orderByRow(
  points: ArrayLike<number>,
  frames: ArrayLike<number> = [],
): { ordered: number[]; orderedFrames: number[]; starts: RowStarts } {
  const n = points.length >> 1;
  const counts = new Array<number>(GRID + 1).fill(0);
  for (let i = 0; i < n; i++) counts[rowOf(points[2 * i + 1]!) + 1]!++;
  for (let r = 1; r <= GRID; r++) counts[r]! += counts[r - 1]!;
  const next = counts.slice();
  const ordered = new Array<number>(2 * n);
  const orderedFrames = new Array<number>(frames.length === 0 ? 0 : n);
  for (let i = 0; i < n; i++) {
    const at = next[rowOf(points[2 * i + 1]!)]!++;
    ordered[2 * at] = points[2 * i]!;
    ordered[2 * at + 1] = points[2 * i + 1]!;
    if (frames.length > 0) orderedFrames[at] = frames[i]!;
  }
  const starts = Object.fromEntries(ROW_START_COLUMNS.map((c, i) => [c, counts[i + 1]!])) as RowStarts;
  return { ordered, orderedFrames, starts };
}

/** The first and last grid row holding a cell of the mask (rows 0–3 in `lo`, 4–7 in `hi`, 8 bits each). */
export function rowSpan(mask: CellMask): [number, number] {
  const rows: number[] = [];
  for (let r = 0; r < GRID; r++) {
    const word = r < 4 ? mask.lo : mask.hi;
    if (((word >>> ((r % 4) * GRID)) & 0xff) !== 0) rows.push(r);
  }
  return [rows[0] ?? 0, rows[rows.length - 1] ?? GRID - 1];
}
