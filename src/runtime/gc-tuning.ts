// V8 settings for a long-running server process, applied once when a server starts.
import v8 from 'node:v8';
import { onMeasuredNode } from './node-major.js';

let applied = false;

/**
 * Turns off V8's allocation-site pretenuring: under steady load of short requests V8 sometimes starts allocating
 * per-request objects in the old generation, and everything young they point to is promoted with them (measurements:
 * runtime/README.md). Node 20 only, where it was measured; on another major, compare the storage benchmark with and
 * without it before widening the gate.
 */
export function tuneGarbageCollector(): void {
  if (applied) return;
  applied = true;
  if (!onMeasuredNode()) return;
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
}
