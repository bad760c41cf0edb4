/**
 * Optimal linear assignment, a line-by-line port of SciPy's `linear_sum_assignment` (rectangular_lsap.cpp:
 * Crouse's shortest augmenting path variant of Jonker–Volgenant). The port keeps SciPy's visiting order and its
 * tie rules (columns scanned from the last to the first, a free column preferred among equal path costs), so on
 * ties it picks the same assignment SciPy does, and metrics that depend on which of two equal matches is taken
 * come out as the references compute them.
 */

export interface Assignment {
  /** Row index of each assigned pair, ascending. */
  rows: Int32Array;
  /** Column index of each assigned pair. */
  cols: Int32Array;
}

/** Reusable buffers: the solver runs once per frame, and reallocating for every frame dominates small problems. */
class Workspace {
  u = new Float64Array(0);
  v = new Float64Array(0);
  shortest = new Float64Array(0);
  path = new Int32Array(0);
  col4row = new Int32Array(0);
  row4col = new Int32Array(0);
  srList = new Int32Array(0);
  scList = new Int32Array(0);
  remaining = new Int32Array(0);
  order = new Int32Array(0);
  transposed = new Float64Array(0);

  ensure(nr: number, nc: number, cells: number): void {
    if (this.u.length < nr) {
      this.u = new Float64Array(nr);
      this.col4row = new Int32Array(nr);
      this.srList = new Int32Array(nr);
    }
    if (this.v.length < nc) {
      this.v = new Float64Array(nc);
      this.shortest = new Float64Array(nc);
      this.path = new Int32Array(nc);
      this.row4col = new Int32Array(nc);
      this.scList = new Int32Array(nc);
      this.remaining = new Int32Array(nc);
      this.order = new Int32Array(nc);
    }
    if (this.transposed.length < cells) this.transposed = new Float64Array(cells);
  }
}

const shared = new Workspace();

/**
 * Minimum-cost assignment on a row-major `nr` × `nc` cost matrix (or maximum with `maximize`). Every row is assigned
 * when `nr` ≤ `nc`, every column otherwise. Throws on NaN or −∞ entries and on infeasible matrices, as SciPy does.
 */
export function linearSumAssignment(cost: Float64Array, nr: number, nc: number, maximize = false): Assignment {
  if (nr === 0 || nc === 0) return { rows: new Int32Array(0), cols: new Int32Array(0) };
  const transpose = nc < nr;
  const w = shared;
  w.ensure(Math.min(nr, nc), Math.max(nr, nc), transpose || maximize ? nr * nc : 0);
  let c = cost;
  if (transpose || maximize) {
    c = w.transposed;
    if (transpose) {
      for (let i = 0; i < nr; i++) for (let j = 0; j < nc; j++) c[j * nr + i] = cost[i * nc + j]!;
      const t = nr;
      nr = nc;
      nc = t;
    } else {
      c.set(cost.subarray(0, nr * nc));
    }
    if (maximize) for (let i = 0; i < nr * nc; i++) c[i] = -c[i]!;
  }
  for (let i = 0; i < nr * nc; i++) {
    const x = c[i]!;
    if (Number.isNaN(x) || x === Number.NEGATIVE_INFINITY) throw new Error('cost matrix is invalid (NaN or -inf)');
  }

  const { u, v, shortest, path, col4row, row4col, srList, scList, remaining } = w;
  u.fill(0, 0, nr);
  v.fill(0, 0, nc);
  path.fill(-1, 0, nc);
  col4row.fill(-1, 0, nr);
  row4col.fill(-1, 0, nc);

  for (let curRow = 0; curRow < nr; curRow++) {
    // Shortest augmenting path from curRow (SciPy's augmenting_path). SR and SC are kept as lists of the rows and
    // columns they hold, so resetting and updating them costs their size, not nr + nc.
    let minVal = 0;
    let numRemaining = nc;
    // Filled in reverse so that a constant matrix yields the identity assignment, as in SciPy.
    for (let it = 0; it < nc; it++) remaining[it] = nc - it - 1;
    shortest.fill(Number.POSITIVE_INFINITY, 0, nc);
    let nsr = 0;
    let nsc = 0;
    let sink = -1;
    let i = curRow;
    while (sink === -1) {
      let index = -1;
      let lowest = Number.POSITIVE_INFINITY;
      srList[nsr++] = i;
      const base = i * nc;
      const ui = u[i]!;
      for (let it = 0; it < numRemaining; it++) {
        const j = remaining[it]!;
        const r = minVal + c[base + j]! - ui - v[j]!;
        if (r < shortest[j]!) {
          path[j] = i;
          shortest[j] = r;
        }
        const sj = shortest[j]!;
        if (sj < lowest || (sj === lowest && row4col[j] === -1)) {
          lowest = sj;
          index = it;
        }
      }
      minVal = lowest;
      if (minVal === Number.POSITIVE_INFINITY) throw new Error('cost matrix is infeasible');
      const j = remaining[index]!;
      if (row4col[j] === -1) sink = j;
      else i = row4col[j]!;
      scList[nsc++] = j;
      remaining[index] = remaining[--numRemaining]!;
    }

    u[curRow] = u[curRow]! + minVal;
    for (let k = 0; k < nsr; k++) {
      const r = srList[k]!;
      if (r !== curRow) u[r] = u[r]! + (minVal - shortest[col4row[r]!]!);
    }
    for (let k = 0; k < nsc; k++) {
      const j = scList[k]!;
      v[j] = v[j]! - (minVal - shortest[j]!);
    }

    let j = sink;
    for (;;) {
      const r = path[j]!;
      row4col[j] = r;
      const t = col4row[r]!;
      col4row[r] = j;
      j = t;
      if (r === curRow) break;
    }
  }

  const rows = new Int32Array(nr);
  const cols = new Int32Array(nr);
  if (transpose) {
    // SciPy returns the pairs of a transposed problem ordered by original row (argsort of col4row); the original
    // rows are distinct and below nc, so a direct placement sorts them.
    const at = w.order;
    at.fill(-1, 0, nc);
    for (let k = 0; k < nr; k++) at[col4row[k]!] = k;
    let n = 0;
    for (let r = 0; r < nc; r++) {
      const k = at[r]!;
      if (k === -1) continue;
      rows[n] = r;
      cols[n] = k;
      n++;
    }
  } else {
    for (let k = 0; k < nr; k++) {
      rows[k] = k;
      cols[k] = col4row[k]!;
    }
  }
  return { rows, cols };
}

let rowDegree = new Int32Array(0);
let colDegree = new Int32Array(0);

/**
 * The pairs with a negative cost (a positive score) in SciPy's minimum-cost assignment, rows ascending. The metrics
 * only count such pairs, so when no row and no column has two negative cells, every optimal assignment holds exactly
 * all of them, whatever its tie-breaking, and they are returned without solving; otherwise the full solver decides.
 * `cells` (row-major offsets, ascending) lists the only cells that may be negative.
 */
export function negativePairs(
  cost: Float64Array,
  nr: number,
  nc: number,
  cells: Int32Array,
  from: number,
  to: number,
): Assignment {
  if (rowDegree.length < nr) rowDegree = new Int32Array(nr);
  if (colDegree.length < nc) colDegree = new Int32Array(nc);
  rowDegree.fill(0, 0, nr);
  colDegree.fill(0, 0, nc);
  let simple = true;
  let count = 0;
  for (let k = from; k < to; k++) {
    const cell = cells[k]!;
    if (!(cost[cell]! < 0)) continue;
    const i = (cell / nc) | 0;
    const j = cell - i * nc;
    count++;
    if (++rowDegree[i]! > 1 || ++colDegree[j]! > 1) {
      simple = false;
      break;
    }
  }
  if (simple) {
    const rows = new Int32Array(count);
    const cols = new Int32Array(count);
    let n = 0;
    for (let k = from; k < to; k++) {
      const cell = cells[k]!;
      if (!(cost[cell]! < 0)) continue;
      const i = (cell / nc) | 0;
      rows[n] = i;
      cols[n] = cell - i * nc;
      n++;
    }
    return { rows, cols };
  }
  const all = linearSumAssignment(cost, nr, nc);
  let n = 0;
  for (let k = 0; k < all.rows.length; k++) {
    if (cost[all.rows[k]! * nc + all.cols[k]!]! < 0) {
      all.rows[n] = all.rows[k]!;
      all.cols[n] = all.cols[k]!;
      n++;
    }
  }
  return { rows: all.rows.subarray(0, n), cols: all.cols.subarray(0, n) };
}
