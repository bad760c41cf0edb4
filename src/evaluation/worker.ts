// The evaluation worker thread: scores one evaluation's stored runs off the serving thread and posts the result back.
import { parentPort, workerData } from 'node:worker_threads';
import { evaluateStoredRuns, type StoredEvaluationInput } from './stored-runs.js';

try {
  parentPort!.postMessage({ ok: true, value: evaluateStoredRuns(workerData as StoredEvaluationInput) });
} catch (err) {
  parentPort!.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) });
}
