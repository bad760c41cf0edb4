// The search region in the 100×100 centroid space: the point-in-polygon test (edges count as inside,
// concave and self-touching shapes allowed) and the grid cells a polygon may reach.
import { GRID, cellBounds, withCell, type CellMask, EMPTY_MASK } from './grid.js';

/**
 * Distance within which a point counts as on an edge. Regions arrive in canvas pixels or normalized
 * units and are scaled into the 100-space, so an edge point can be off by a rounding error.
 */
export const EDGE_TOLERANCE = 1e-9;
const NEAR = 2 * EDGE_TOLERANCE;
/** Cells are widened by more than EDGE_TOLERANCE so the cover never misses an edge point. */
const CELL_SLACK = 1e-6;

export interface Polygon {
  /** x0, y0, x1, y1, … in the 100-space; the last vertex connects back to the first. */
  xy: Float64Array;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export function polygonOf(xy: number[]): Polygon {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < xy.length; i += 2) {
    minX = Math.min(minX, xy[i]!);
    maxX = Math.max(maxX, xy[i]!);
    minY = Math.min(minY, xy[i + 1]!);
    maxY = Math.max(maxY, xy[i + 1]!);
  }
  return { xy: Float64Array.from(xy), minX, minY, maxX, maxY };
}

function nearSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): boolean {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : ((px - ax) * dx + (py - ay) * dy) / len2;
  t = t < 0 ? 0 : Math.min(t, 1);
  const ex = ax + t * dx - px;
  const ey = ay + t * dy - py;
  return ex * ex + ey * ey <= EDGE_TOLERANCE * EDGE_TOLERANCE;
}

/** Within the polygon's bounding box widened by EDGE_TOLERANCE: no point outside it can be inside. */
export function inBoundingBox(poly: Polygon, px: number, py: number): boolean {
  return (
    px >= poly.minX - EDGE_TOLERANCE &&
    px <= poly.maxX + EDGE_TOLERANCE &&
    py >= poly.minY - EDGE_TOLERANCE &&
    py <= poly.maxY + EDGE_TOLERANCE
  );
}

/** Inside by the even-odd rule, or on (within EDGE_TOLERANCE of) an edge. */
export function containsPoint(poly: Polygon, px: number, py: number): boolean {
  if (!inBoundingBox(poly, px, py)) return false;
  const v = poly.xy;
  const n = v.length >> 1;
  let inside = false;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = v[2 * i]!;
    const yi = v[2 * i + 1]!;
    const xj = v[2 * j]!;
    const yj = v[2 * j + 1]!;
    // A point outside the edge's box widened by twice the tolerance is farther than the tolerance from the
    // edge: four comparisons rule most edges out before nearSegment's division.
    if (
      px >= Math.min(xi, xj) - NEAR &&
      px <= Math.max(xi, xj) + NEAR &&
      py >= Math.min(yi, yj) - NEAR &&
      py <= Math.max(yi, yj) + NEAR &&
      nearSegment(px, py, xj, yj, xi, yi)
    )
      return true;
    if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Whether the segment touches the closed box (Liang–Barsky clipping). */
function segmentTouchesBox(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = bx - ax;
  const dy = by - ay;
  const clip = (p: number, q: number): boolean => {
    if (p === 0) return q >= 0;
    const r = q / p;
    if (p < 0) {
      if (r > t1) return false;
      if (r > t0) t0 = r;
    } else {
      if (r < t0) return false;
      if (r < t1) t1 = r;
    }
    return true;
  };
  return clip(-dx, ax - x0) && clip(dx, x1 - ax) && clip(-dy, ay - y0) && clip(dy, y1 - ay) && t0 <= t1;
}

/**
 * Every cell whose (slightly widened) square meets the polygon: an edge touches it, or it lies inside.
 * A conservative superset: any point `containsPoint` accepts lies in one of these cells.
 */
export function coverCells(poly: Polygon): CellMask {
  let mask = EMPTY_MASK;
  const v = poly.xy;
  const n = v.length >> 1;
  for (let cell = 0; cell < GRID * GRID; cell++) {
    const [cx0, cy0, cx1, cy1] = cellBounds(cell);
    const x0 = cx0 - CELL_SLACK;
    const y0 = cy0 - CELL_SLACK;
    const x1 = cx1 + CELL_SLACK;
    const y1 = cy1 + CELL_SLACK;
    if (poly.maxX < x0 || poly.minX > x1 || poly.maxY < y0 || poly.minY > y1) continue;
    let hit = containsPoint(poly, cx0, cy0);
    for (let i = 0, j = n - 1; !hit && i < n; j = i++) {
      hit = segmentTouchesBox(v[2 * j]!, v[2 * j + 1]!, v[2 * i]!, v[2 * i + 1]!, x0, y0, x1, y1);
    }
    if (hit) mask = withCell(mask, cell);
  }
  return mask;
}
