/**
 * Sparse (gt id, prediction id) pairs. The metrics' global counters are G × P matrices in TrackEval, but only pairs
 * that overlap somewhere can hold a non-zero value, and a long run has thousands of ids on each side, so the
 * counters are kept per pair that actually occurs.
 */
export class PairIndex {
  // Open addressing on the key g · P + p (below 2^53); a Map costs several times more on the per-frame hot path.
  private keys = new Float64Array(1024).fill(-1);
  private slots = new Int32Array(1024);
  private mask = 1023;
  gt = new Int32Array(64);
  pred = new Int32Array(64);
  size = 0;

  constructor(private readonly predCount: number) {}

  private slot(key: number): number {
    // Multiplicative hashing on the low and high halves of the key.
    const lo = (key % 4294967296) | 0;
    const hi = (key / 4294967296) | 0;
    let h = (Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi + 0x7f4a7c15, 0x85ebca6b)) & this.mask;
    for (;;) {
      const k = this.keys[h]!;
      if (k === key || k === -1) return h;
      h = (h + 1) & this.mask;
    }
  }

  /** Index of the pair, or −1 when it never occurred. */
  find(g: number, p: number): number {
    const h = this.slot(g * this.predCount + p);
    return this.keys[h] === -1 ? -1 : this.slots[h]!;
  }

  /** Index of the pair, created on first use. */
  add(g: number, p: number): number {
    const key = g * this.predCount + p;
    let h = this.slot(key);
    if (this.keys[h] !== -1) return this.slots[h]!;
    if ((this.size + 1) * 2 > this.mask + 1) {
      this.grow();
      h = this.slot(key);
    }
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
    this.keys[h] = key;
    this.slots[h] = at;
    return at;
  }

  private grow(): void {
    const capacity = (this.mask + 1) * 2;
    this.keys = new Float64Array(capacity).fill(-1);
    this.slots = new Int32Array(capacity);
    this.mask = capacity - 1;
    for (let k = 0; k < this.size; k++) {
      const key = this.gt[k]! * this.predCount + this.pred[k]!;
      const h = this.slot(key);
      this.keys[h] = key;
      this.slots[h] = k;
    }
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
