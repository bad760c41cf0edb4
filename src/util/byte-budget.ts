// A process-wide budget of bytes (request bodies being read and parsed): a reservation waits, in arrival order, until
// its bytes fit, or gives up after a bounded wait. Pure.

export class ByteBudget {
  private inUse = 0;
  private readonly waiting: Array<{ bytes: number; grant: (ok: boolean) => void; timer?: NodeJS.Timeout }> = [];

  constructor(readonly capacity: number) {}

  /**
   * True once `bytes` (at most the whole budget: a larger body waits for all of it) are reserved; false after
   * `waitMs` without room. Arrival order: a large reservation is not overtaken for ever by small ones.
   */
  reserve(bytes: number, waitMs: number): Promise<boolean> {
    const want = Math.min(bytes, this.capacity);
    if (this.waiting.length === 0 && this.inUse + want <= this.capacity) {
      this.inUse += want;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const waiter: { bytes: number; grant: (ok: boolean) => void; timer?: NodeJS.Timeout } = {
        bytes: want,
        grant: resolve,
      };
      waiter.timer = setTimeout(() => {
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(false);
        // The one in front may have been what held the others back.
        this.serve();
      }, waitMs);
      waiter.timer.unref?.();
      this.waiting.push(waiter);
    });
  }

  /** Gives back what reserve(bytes) took. */
  release(bytes: number): void {
    this.inUse -= Math.min(bytes, this.capacity);
    this.serve();
  }

  /** Bytes reserved now (for metrics and tests). */
  get used(): number {
    return this.inUse;
  }

  private serve(): void {
    while (this.waiting.length > 0 && this.inUse + this.waiting[0]!.bytes <= this.capacity) {
      const next = this.waiting.shift()!;
      clearTimeout(next.timer);
      this.inUse += next.bytes;
      next.grant(true);
    }
  }
}
