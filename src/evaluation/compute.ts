// Runs the evaluation engine in a worker thread: scoring a large run takes seconds of CPU, which on the serving
// thread would stall every other request for as long.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { StoredEvaluation, StoredEvaluationInput } from './stored-runs.js';

// Built, the worker is worker.js beside this file. Run from the sources (the tests), it is worker.ts, loaded through
// tsx's loader (a development dependency), which a worker has to register itself.
const here = fileURLToPath(import.meta.url);
const fromSources = here.endsWith('.ts');
const workerFile = here.replace(/compute\.(ts|js)$/, fromSources ? 'worker.ts' : 'worker.js');
const FROM_SOURCES = `
(async () => {
  const { register } = await import('tsx/esm/api');
  register();
  await import(${JSON.stringify(pathToFileURL(workerFile).href)});
})();
`;

/**
 * How long a worker that finished an evaluation waits for the next one before it ends. A worker kept for the next
 * evaluation spares the thread's start and runs the engine's code already optimised, which a new thread's first
 * evaluation runs much of unoptimised. Once idle this long, its heap (a few hundred MiB after a large run) is given
 * back.
 */
export const WORKER_IDLE_MS = 30_000;

export interface Computation {
  result: Promise<StoredEvaluation>;
  /** Stops the worker (the job was deleted, or its lease lost); the result then rejects. */
  stop(): void;
}

/** The engine's own failure (bad stored data): the evaluation fails with this message; anything else is retried. */
export class EvaluationFailure extends Error {}

type Reply = { ok: true; value: StoredEvaluation } | { ok: false; message: string };

/** The evaluation worker threads of one instance: one per computation, the last one kept a while for the next. */
export class EvaluationWorkers {
  private idle: { worker: Worker; timer: NodeJS.Timeout } | undefined;
  private closed = false;
  /** Worker threads started so far. */
  started = 0;

  compute(input: StoredEvaluationInput): Computation {
    const worker = this.take();
    let settled = false;
    const result = new Promise<StoredEvaluation>((resolve, reject) => {
      const detach = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const onMessage = (m: Reply) => {
        settled = true;
        detach();
        // The engine caught its own failure: the worker is as sound as after a success.
        this.giveBack(worker);
        if (m.ok) resolve(m.value);
        else reject(new EvaluationFailure(m.message));
      };
      const onError = (err: Error) => {
        settled = true;
        detach();
        void worker.terminate();
        reject(new EvaluationFailure(`the evaluation stopped: ${err.message}`));
      };
      const onExit = (code: number) => {
        detach();
        if (!settled) reject(new Error(`the evaluation worker exited (${code})`));
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
    worker.ref();
    worker.postMessage(input);
    return {
      result,
      stop: () => {
        if (!settled) void worker.terminate();
      },
    };
  }

  /** Ends the idle worker; computations still running end with their jobs (`stop`). */
  async close(): Promise<void> {
    this.closed = true;
    const idle = this.idle;
    this.idle = undefined;
    if (idle) {
      clearTimeout(idle.timer);
      await idle.worker.terminate();
    }
  }

  private take(): Worker {
    const idle = this.idle;
    if (idle) {
      this.idle = undefined;
      clearTimeout(idle.timer);
      return idle.worker;
    }
    const worker = fromSources ? new Worker(FROM_SOURCES, { eval: true }) : new Worker(workerFile);
    this.started++;
    // Between computations nobody else listens: an error then must not throw on this thread, and a worker that
    // ended is never handed a computation.
    worker.on('error', () => {});
    worker.on('exit', () => {
      if (this.idle?.worker === worker) {
        clearTimeout(this.idle.timer);
        this.idle = undefined;
      }
    });
    return worker;
  }

  private giveBack(worker: Worker): void {
    if (this.closed || this.idle) {
      void worker.terminate();
      return;
    }
    // An idle worker never keeps the process alive.
    worker.unref();
    const timer = setTimeout(() => {
      if (this.idle?.worker !== worker) return;
      this.idle = undefined;
      void worker.terminate();
    }, WORKER_IDLE_MS);
    timer.unref();
    this.idle = { worker, timer };
  }
}
