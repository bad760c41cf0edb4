// The evaluation worker thread: scores each evaluation's stored runs it is sent, off the serving thread, and posts
// the result back. It stays for the next evaluation until its owner (compute.ts) ends it.
import { parentPort } from 'node:worker_threads';
import { evaluateStoredRuns, type StoredEvaluationInput } from './stored-runs.js';

parentPort!.on('message', (input: StoredEvaluationInput) => {
  try {
    parentPort!.postMessage({ ok: true, value: evaluateStoredRuns(input) });
  } catch (err) {
    parentPort!.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) });
  }
});
