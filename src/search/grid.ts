// The coarse grid of the 100×100 centroid space: 8×8 cells, one bit each, kept as two 32-bit halves
// (rows 0–3 in `lo`, rows 4–7 in `hi`) so that JavaScript numbers and both SQL dialects hold them exactly.

export const GRID = 8;
export const SPACE = 100;
export const CELL = SPACE / GRID;
/** The aggregate row that unions every label of a recording; real labels are never empty. */
export const ANY_LABEL = '';

export interface CellMask {
  lo: number;
  hi: number;
}

export const EMPTY_MASK: CellMask = { lo: 0, hi: 0 };

function axisCell(v: number): number {
  const c = Math.floor(v / CELL);
  return c < 0 ? 0 : c >= GRID ? GRID - 1 : c;
}

/** The cell index (row·8 + column) of a point; points on the outer edge fall in the last cell. */
export function cellOf(x: number, y: number): number {
  return axisCell(y) * GRID + axisCell(x);
}

export function withCell(mask: CellMask, cell: number): CellMask {
  return cell < 32
    ? { lo: (mask.lo | (1 << cell)) >>> 0, hi: mask.hi }
    : { lo: mask.lo, hi: (mask.hi | (1 << (cell - 32))) >>> 0 };
}

export function union(a: CellMask, b: CellMask): CellMask {
  return { lo: (a.lo | b.lo) >>> 0, hi: (a.hi | b.hi) >>> 0 };
}

export function intersects(a: CellMask, b: CellMask): boolean {
  return (a.lo & b.lo) >>> 0 !== 0 || (a.hi & b.hi) >>> 0 !== 0;
}

export function isEmpty(m: CellMask): boolean {
  return m.lo === 0 && m.hi === 0;
}

/** The cells holding any of the points (x0, y0, x1, y1, …). */
export function cellMasksOfPoints(points: ArrayLike<number>): CellMask {
  let lo = 0;
  let hi = 0;
  for (let i = 0; i + 1 < points.length; i += 2) {
    const cell = cellOf(points[i]!, points[i + 1]!);
    if (cell < 32) lo |= 1 << cell;
    else hi |= 1 << (cell - 32);
  }
  return { lo: lo >>> 0, hi: hi >>> 0 };
}

/** The bounds of a cell, [x0, y0, x1, y1]. */
export function cellBounds(cell: number): [number, number, number, number] {
  const col = cell % GRID;
  const row = (cell - col) / GRID;
  return [col * CELL, row * CELL, (col + 1) * CELL, (row + 1) * CELL];
}
