// Keeps one of Node's tick objects alive for the life of a server process, so that `process.nextTick` stays fast:
// with none alive, a full GC in a quiet moment retires the maps of nextTick's computed-key object literal, and after
// a few such collections its inline caches go megamorphic for good (measurements: runtime/README.md).
// Applied on Node 20 only, where it was measured; on another major, re-run test/http/tick-shape.test.ts and the
// storage benchmark with and without it before widening the gate.
import { createHook } from 'node:async_hooks';
import { onMeasuredNode } from './node-major.js';

let pinned: object | undefined;
let tried = false;

/** Idempotent. Call it before the application's modules load: their start-up collections can already retire the maps. */
export function pinTickObjectShape(): void {
  if (tried) return;
  tried = true;
  if (!onMeasuredNode()) return;
  // The init hook is the only way to see a tick object; it is on for this one call.
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') pinned ??= resource as object;
    },
  });
  hook.enable();
  process.nextTick(() => {});
  hook.disable();
}

/** For the test: whether a tick object is held. */
export function tickObjectPinned(): boolean {
  return pinned !== undefined;
}
