// Every benchmark suite; `npm run bench [name…]` runs them all or the named ones.
import type { Suite } from './harness.js';

export const suites: Array<() => Promise<Suite>> = [
  async () => (await import('./detections.bench.js')).suite,
  async () => (await import('./editor.bench.js')).suite,
  async () => (await import('./storage.bench.js')).suite,
  async () => (await import('./recordings.bench.js')).suite,
  async () => (await import('./formats.bench.js')).suite,
  async () => (await import('./evaluation.bench.js')).suite,
  async () => (await import('./revisions.bench.js')).suite,
  async () => (await import('./evaluation-server.bench.js')).suite,
];
