/**
 * Sparse (gt id, prediction id) pairs. The metrics' global counters are G × P matrices in TrackEval, but only pairs
 * that overlap somewhere can hold a non-zero value, and a long run has thousands of ids on each side, so the
 * counters are kept per pair that actually occurs.
 */
export class PairIndex {
  private readonly index = new Map<number, number>();
  gt = new Int32Array(64);
  pred = new Int32Array(64);
  size = 0;

  constructor(private readonly predCount: number) {}

  /** Index of the pair, or −1 when it never occurred. */
  find(g: number, p: number): number {
    return this.index.get(g * this.predCount + p) ?? -1;
  }

  /** Index of the pair, created on first use. */
  add(g: number, p: number): number {
    const key = g * this.predCount + p;
    const found = this.index.get(key);
    if (found !== undefined) return found;
    const at = this.size++;
    if (at === this.gt.length) {
      const gt = new Int32Array(at * 2);
      gt.set(this.gt);
      this.gt = gt;
      const pred = new Int32Array(at * 2);
      pred.set(this.pred);
      this.pred = pred;
    }
    this.gt[at] = g;
    this.pred[at] = p;
    this.index.set(key, at);
    return at;
  }
}

/** A growable Float64Array addressed by pair index (`width` values per pair). */
export class PairValues {
  values: Float64Array;
  constructor(private readonly width = 1) {
    this.values = new Float64Array(64 * width);
  }
  ensure(pairs: number): void {
    if (pairs * this.width <= this.values.length) return;
    const grown = new Float64Array(Math.max(pairs * this.width, this.values.length * 2));
    grown.set(this.values);
    this.values = grown;
  }
}
