// Group commit for small runs: the writes that arrive while earlier ones are being stored go to the database
// together, one transaction for many runs, instead of one transaction (and its round trips and commit) each.
// At low load a write goes out alone and at once; under load the batches grow by themselves. Nothing waits
// on a timer.
import { answersOf, pickBatch, type Keyed, type StoredRun } from './run-write-batch.js';

/** Stores one batch: for each group (writes of one key, in arrival order) the stored result of its last write. */
export type BatchWriter<T extends Keyed> = (groups: T[][]) => Promise<StoredRun[]>;

export interface RunWriteQueueOptions {
  /** Batches being written at once. */
  maxInFlight: number;
  /** Distinct keys per batch. */
  maxKeys: number;
  /**
   * Collect until the event loop's check phase before writing. For a writer that blocks the loop (SQLite):
   * the requests whose bytes arrived in the same poll go into one batch.
   */
  deferToCheckPhase: boolean;
}

interface Waiting<T extends Keyed> {
  write: T;
  key: string;
  resolve(value: StoredRun): void;
  reject(error: unknown): void;
}

export class RunWriteQueue<T extends Keyed> {
  private waiting: Waiting<T>[] = [];
  private readonly busy = new Set<string>();
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly writeBatch: BatchWriter<T>,
    private readonly options: RunWriteQueueOptions,
  ) {}

  write(write: T): Promise<StoredRun> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ write, key: write.key, resolve, reject });
      if (!this.options.deferToCheckPhase) this.pump();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  private pump(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
      const { groups, rest } = pickBatch(this.waiting, this.busy, this.options.maxKeys);
      if (groups.length === 0) return;
      this.waiting = rest;
      void this.run(groups);
    }
  }

  private async run(groups: Waiting<T>[][]): Promise<void> {
    this.inFlight++;
    for (const group of groups) this.busy.add(group[0]!.key);
    try {
      await this.store(groups);
    } finally {
      for (const group of groups) this.busy.delete(group[0]!.key);
      this.inFlight--;
      this.pump();
    }
  }

  private async store(groups: Waiting<T>[][]): Promise<void> {
    let stored: StoredRun[];
    try {
      stored = await this.writeBatch(groups.map((g) => g.map((w) => w.write)));
    } catch (error) {
      if (groups.length === 1 && groups[0]!.length === 1) groups[0]![0]!.reject(error);
      else await this.storeOneByOne(groups);
      return;
    }
    groups.forEach((group, g) => {
      answersOf(group.length, stored[g]!).forEach((answer, i) => {
        group[i]!.resolve(answer);
      });
    });
  }

  /**
   * After a batch failed as a whole (one run's recording deleted meanwhile, a deadlock with another instance…):
   * each write again on its own, in arrival order, so that only the writes that fail by themselves fail.
   */
  private async storeOneByOne(groups: Waiting<T>[][]): Promise<void> {
    for (const waiting of groups.flat()) {
      try {
        waiting.resolve((await this.writeBatch([[waiting.write]]))[0]!);
      } catch (error) {
        waiting.reject(error);
      }
    }
  }
}
