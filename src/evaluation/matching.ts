/**
 * Maximum-weight bipartite matching on a sparse graph (rows and columns need not all be matched), by successive
 * shortest augmenting paths with Dijkstra and dual potentials. Identity's figures depend only on the optimal total,
 * which is unique, so this may take any optimal matching; it spares the dense (G + P)² matrix TrackEval builds.
 */

/** Edges of each row: CSR offsets `rowStart` into `cols`/`weights`; weights must be positive. */
export interface SparseRows {
  rows: number;
  cols: number;
  rowStart: Int32Array;
  colIndex: Int32Array;
  weights: Float64Array;
}

/** The largest total weight of a matching. */
export function maxWeightMatching(g: SparseRows): number {
  const { rows, cols, rowStart, colIndex, weights } = g;
  // Min-cost assignment of every row, with −weight on edges and a private zero-cost "unmatched" column per row.
  // Columns 0 … cols − 1 are real; column cols + i is row i's dummy.
  const nCol = cols + rows;
  const v = new Float64Array(nCol);
  const u = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    let m = 0;
    for (let e = rowStart[i]!; e < rowStart[i + 1]!; e++) m = Math.min(m, -weights[e]!);
    u[i] = m;
  }
  const row4col = new Int32Array(nCol).fill(-1);
  const col4row = new Int32Array(rows).fill(-1);
  const dist = new Float64Array(nCol).fill(Number.POSITIVE_INFINITY);
  const pred = new Int32Array(nCol);
  const done = new Uint8Array(nCol);
  const touched: number[] = [];
  const heap = new Heap();

  for (let r = 0; r < rows; r++) {
    heap.clear();
    touched.length = 0;
    const relax = (i: number, base: number): void => {
      for (let e = rowStart[i]!; e <= rowStart[i + 1]!; e++) {
        // The last step visits the row's dummy column.
        const j = e < rowStart[i + 1]! ? colIndex[e]! : cols + i;
        if (done[j]) continue;
        const c = e < rowStart[i + 1]! ? -weights[e]! : 0;
        const d = base + c - u[i]! - v[j]!;
        if (d < dist[j]!) {
          if (dist[j] === Number.POSITIVE_INFINITY) touched.push(j);
          dist[j] = d;
          pred[j] = i;
          heap.push(j, d);
        }
      }
    };
    relax(r, 0);
    let sink = -1;
    let minVal = 0;
    const finalized: number[] = [];
    while (sink === -1) {
      const j = heap.pop(dist, done);
      minVal = dist[j]!;
      done[j] = 1;
      finalized.push(j);
      const owner = row4col[j]!;
      if (owner === -1) sink = j;
      else relax(owner, minVal);
    }
    // Dual update: the rows reached and the columns finalized shift by how much shorter their path was.
    u[r] = u[r]! + minVal;
    for (const j of finalized) {
      const owner = row4col[j]!;
      if (owner !== -1) u[owner] = u[owner]! + (minVal - dist[j]!);
      v[j] = v[j]! - (minVal - dist[j]!);
    }
    let j = sink;
    for (;;) {
      const i = pred[j]!;
      row4col[j] = i;
      const t = col4row[i]!;
      col4row[i] = j;
      j = t;
      if (i === r) break;
    }
    for (const t of touched) {
      dist[t] = Number.POSITIVE_INFINITY;
      done[t] = 0;
    }
  }
  let total = 0;
  for (let i = 0; i < rows; i++) {
    const j = col4row[i]!;
    if (j >= cols) continue;
    for (let e = rowStart[i]!; e < rowStart[i + 1]!; e++) if (colIndex[e] === j) total += weights[e]!;
  }
  return total;
}

/** A binary min-heap of (column, key) with lazy deletion: stale entries are skipped on pop. */
class Heap {
  private items = new Int32Array(64);
  private keys = new Float64Array(64);
  private n = 0;

  clear(): void {
    this.n = 0;
  }

  push(item: number, key: number): void {
    if (this.n === this.items.length) {
      const items = new Int32Array(this.n * 2);
      items.set(this.items);
      this.items = items;
      const keys = new Float64Array(this.n * 2);
      keys.set(this.keys);
      this.keys = keys;
    }
    let k = this.n++;
    while (k > 0) {
      const parent = (k - 1) >> 1;
      if (this.keys[parent]! <= key) break;
      this.items[k] = this.items[parent]!;
      this.keys[k] = this.keys[parent]!;
      k = parent;
    }
    this.items[k] = item;
    this.keys[k] = key;
  }

  /** The unfinished item with the smallest current key; there always is one (each row has its dummy column). */
  pop(current: Float64Array, done: Uint8Array): number {
    for (;;) {
      if (this.n === 0) throw new Error('matching: no augmenting path');
      const top = this.items[0]!;
      const key = this.keys[0]!;
      const lastItem = this.items[--this.n]!;
      const lastKey = this.keys[this.n]!;
      let k = 0;
      for (;;) {
        let child = 2 * k + 1;
        if (child >= this.n) break;
        if (child + 1 < this.n && this.keys[child + 1]! < this.keys[child]!) child++;
        if (this.keys[child]! >= lastKey) break;
        this.items[k] = this.items[child]!;
        this.keys[k] = this.keys[child]!;
        k = child;
      }
      this.items[k] = lastItem;
      this.keys[k] = lastKey;
      if (!done[top] && key === current[top]) return top;
    }
  }
}
