// Runs a comparison in a Web Worker (the page stays responsive on large layers), or on the page when the browser
// cannot start one.
import { type CompareInput, type CompareOutput, compareRuns } from './comparison.js';

type Reply = { ok: true; output: CompareOutput } | { ok: false; error: string };

export function runComparison(input: CompareInput): Promise<CompareOutput> {
  let worker: Worker;
  try {
    worker = new Worker(new URL('./compare-worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return new Promise((resolve, reject) => {
      try {
        resolve(compareRuns(input));
      } catch (err) {
        reject(err);
      }
    });
  }
  return new Promise<CompareOutput>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<Reply>) => {
      worker.terminate();
      if (event.data.ok) resolve(event.data.output);
      else reject(new Error(event.data.error));
    };
    worker.onerror = (event) => {
      worker.terminate();
      event.preventDefault();
      // A worker that cannot load (a blocked script, say): the same work on the page.
      try {
        resolve(compareRuns(input));
      } catch (err) {
        reject(err);
      }
    };
    worker.postMessage(input);
  });
}
