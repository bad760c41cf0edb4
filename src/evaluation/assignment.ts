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
  if (!simple) {
    const split = componentPairs(cost, nr, nc, cells, from, to);
    if (split) return split;
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

// Scratch for componentPairs: union-find over rows (0 … nr − 1) and columns (nr …), edges grouped by component.
let parent = new Int32Array(0);
let edgeCell = new Int32Array(0);
let edgeRoot = new Int32Array(0);
let colOfRow = new Int32Array(0);
let usedCol = new Uint8Array(0);

function root(x: number): number {
  while (parent[x] !== x) {
    parent[x] = parent[parent[x]!]!;
    x = parent[x]!;
  }
  return x;
}

/** Brute-force search budget per component; a component needing more goes to the full solver. */
const SEARCH_BUDGET = 4096;
const MAX_COMPONENT_EDGES = 24;

/**
 * The negative pairs of the minimum-cost assignment found component by component of the graph of negative cells.
 * They are the edges of a maximum-weight matching (weight −cost); when every component's best matching beats its
 * second best by more than rounding could blur, the maximum is unique, so SciPy's solver returns exactly these
 * pairs whatever its tie rules. Undefined when a component is too large or has a (near) tie: then only the full
 * solver reproduces SciPy's choice.
 */
function componentPairs(
  cost: Float64Array,
  nr: number,
  nc: number,
  cells: Int32Array,
  from: number,
  to: number,
): Assignment | undefined {
  const nodes = nr + nc;
  if (parent.length < nodes) {
    parent = new Int32Array(nodes);
    usedCol = new Uint8Array(nodes);
  }
  if (colOfRow.length < nr) colOfRow = new Int32Array(nr);
  if (edgeCell.length < to - from) {
    edgeCell = new Int32Array(to - from);
    edgeRoot = new Int32Array(to - from);
  }
  for (let x = 0; x < nodes; x++) parent[x] = x;
  let m = 0;
  for (let k = from; k < to; k++) {
    const cell = cells[k]!;
    if (!(cost[cell]! < 0)) continue;
    const i = (cell / nc) | 0;
    const a = root(i);
    const b = root(nr + cell - i * nc);
    if (a !== b) parent[a] = b;
    edgeCell[m++] = cell;
  }
  for (let e = 0; e < m; e++) edgeRoot[e] = root((edgeCell[e]! / nc) | 0);
  colOfRow.fill(-1, 0, nr);
  // Each component: its edges (row-major, so grouped by row in ascending order), searched exhaustively.
  const seen = new Set<number>();
  const compEdges: number[] = [];
  for (let e = 0; e < m; e++) {
    const r = edgeRoot[e]!;
    if (seen.has(r)) continue;
    seen.add(r);
    compEdges.length = 0;
    for (let f = e; f < m; f++) if (edgeRoot[f] === r) compEdges.push(edgeCell[f]!);
    if (compEdges.length === 1) {
      const cell = compEdges[0]!;
      const i = (cell / nc) | 0;
      colOfRow[i] = cell - i * nc;
      continue;
    }
    if (compEdges.length > MAX_COMPONENT_EDGES) return undefined;
    const best = bestMatching(cost, nc, compEdges);
    if (!best) return undefined;
    for (const cell of best) {
      const i = (cell / nc) | 0;
      colOfRow[i] = cell - i * nc;
    }
  }
  let count = 0;
  for (let i = 0; i < nr; i++) if (colOfRow[i] !== -1) count++;
  const rows = new Int32Array(count);
  const cols = new Int32Array(count);
  let n = 0;
  for (let i = 0; i < nr; i++) {
    if (colOfRow[i] === -1) continue;
    rows[n] = i;
    cols[n] = colOfRow[i]!;
    n++;
  }
  return { rows, cols };
}

/**
 * The maximum-weight matching of a small component (its edges as row-major cells, grouped by row), when it is
 * unique beyond rounding; undefined on a near tie or when the search passes its budget.
 */
function bestMatching(cost: Float64Array, nc: number, edges: number[]): number[] | undefined {
  // Row groups: edges[groupStart[g]] … edges[groupStart[g + 1] − 1] share a row.
  const groupStart: number[] = [0];
  for (let e = 1; e < edges.length; e++) {
    if (((edges[e]! / nc) | 0) !== ((edges[e - 1]! / nc) | 0)) groupStart.push(e);
  }
  groupStart.push(edges.length);
  const groups = groupStart.length - 1;
  let best = Number.NEGATIVE_INFINITY;
  let second = Number.NEGATIVE_INFINITY;
  let bestPick: number[] = [];
  const pick: number[] = [];
  let visits = 0;
  const search = (g: number, total: number): boolean => {
    if (++visits > SEARCH_BUDGET) return false;
    if (g === groups) {
      if (total > best) {
        second = best;
        best = total;
        bestPick = pick.slice();
      } else if (total > second) second = total;
      return true;
    }
    for (let e = groupStart[g]!; e < groupStart[g + 1]!; e++) {
      const cell = edges[e]!;
      const j = cell % nc;
      if (usedCol[j]) continue;
      usedCol[j] = 1;
      pick.push(cell);
      const ok = search(g + 1, total - cost[cell]!);
      pick.pop();
      usedCol[j] = 0;
      if (!ok) return false;
    }
    return search(g + 1, total);
  };
  const done = search(0, 0);
  for (const cell of edges) usedCol[cell % nc] = 0;
  if (!done) return undefined;
  if (!(best - second > 1e-9 * Math.max(1, Math.abs(best)))) return undefined;
  return bestPick;
}
