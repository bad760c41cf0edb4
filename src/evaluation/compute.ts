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

export interface Computation {
  result: Promise<StoredEvaluation>;
  /** Stops the worker (the job was deleted, or its lease lost); the result then rejects. */
  stop(): void;
}

/** The engine's own failure (bad stored data): the evaluation fails with this message; anything else is retried. */
export class EvaluationFailure extends Error {}

export function computeInWorker(input: StoredEvaluationInput): Computation {
  const worker = fromSources
    ? new Worker(FROM_SOURCES, { eval: true, workerData: input })
    : new Worker(workerFile, { workerData: input });
  const result = new Promise<StoredEvaluation>((resolve, reject) => {
    let settled = false;
    worker.once('message', (m: { ok: true; value: StoredEvaluation } | { ok: false; message: string }) => {
      settled = true;
      if (m.ok) resolve(m.value);
      else reject(new EvaluationFailure(m.message));
      void worker.terminate();
    });
    worker.once('error', (err) => {
      settled = true;
      reject(new EvaluationFailure(`the evaluation stopped: ${err.message}`));
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the evaluation worker exited (${code})`));
    });
  });
  return { result, stop: () => void worker.terminate() };
}
