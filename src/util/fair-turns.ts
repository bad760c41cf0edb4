// A few turns shared between tenants: no tenant may hold them all, so another one always finds a turn without
// waiting for the first tenant's (possibly slow) holders to finish. Pure.

export class FairTurns {
  private readonly held = new Map<string, number>();
  private inUse = 0;
  private readonly waiting: Array<{ key: string; grant: () => void }> = [];
  /** At most this many turns to one key: all but one when there are several. */
  readonly perKey: number;

  constructor(readonly slots: number) {
    this.perKey = Math.max(1, slots - 1);
  }

  /** Resolves once `key` holds a turn; waiters are served in arrival order among those allowed one. */
  acquire(key: string): Promise<void> {
    if (this.waiting.length === 0 && this.allowed(key)) {
      this.take(key);
      return Promise.resolve();
    }
    return new Promise((grant) => {
      this.waiting.push({ key, grant });
      this.serve();
    });
  }

  /** Gives back one turn of `key`. Call once per acquire. */
  release(key: string): void {
    const n = this.held.get(key) ?? 0;
    if (n <= 1) this.held.delete(key);
    else this.held.set(key, n - 1);
    this.inUse--;
    this.serve();
  }

  /** Turns in use now (for metrics and tests). */
  get used(): number {
    return this.inUse;
  }

  private allowed(key: string): boolean {
    return this.inUse < this.slots && (this.held.get(key) ?? 0) < this.perKey;
  }

  private take(key: string): void {
    this.held.set(key, (this.held.get(key) ?? 0) + 1);
    this.inUse++;
  }

  private serve(): void {
    for (let i = 0; i < this.waiting.length && this.inUse < this.slots; ) {
      const next = this.waiting[i]!;
      if (!this.allowed(next.key)) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.take(next.key);
      next.grant();
    }
  }
}
