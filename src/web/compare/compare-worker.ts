// Scores a comparison off the page's thread, so that a layer of thousands of tracks does not freeze the editor.
import { type CompareInput, compareRuns } from './comparison.js';

addEventListener('message', (event: MessageEvent<CompareInput>) => {
  try {
    postMessage({ ok: true, output: compareRuns(event.data) });
  } catch (err) {
    postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
  }
});
