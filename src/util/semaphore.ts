/** At most `slots` holders at once; the others wait in arrival order. */
export class Semaphore {
  private held = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly slots: number) {}

  acquire(): Promise<void> {
    if (this.held < this.slots) {
      this.held++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Hands the slot to the next waiter, if any. Call once per acquire. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held--;
  }
}
