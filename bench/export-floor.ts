// The least any export does before its first byte, in a process of its own (a fresh heap, like the server's): the
// stored run read in one snapshot and its boxes decoded. Run by formats.bench.ts;
// prints the times in ms as JSON.
import { readRunSnapshot } from '../src/detections/run-body-reader.js';
import { storeAt } from './store-at.js';
import { decodeBoxes } from '../src/detections/run-codec.js';

const [location, orgId, runPk, times] = process.argv.slice(2) as [string, string, string, string];
const store = storeAt(location);
const out: number[] = [];
for (let i = 0; i < Number(times); i++) {
  const start = performance.now();
  const run = await readRunSnapshot(store, orgId, runPk);
  if (!run) throw new Error('the run is gone');
  decodeBoxes(run.body.boxes);
  out.push(performance.now() - start);
}
await store.close();
process.stdout.write(JSON.stringify(out));
