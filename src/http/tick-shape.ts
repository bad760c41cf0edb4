// Keeps one of Node's tick objects alive for the life of a server process, so that `process.nextTick` stays fast.
//
// Node builds every tick object from one object literal with computed keys:
// `{ [async_id_symbol]: id, [trigger_async_id_symbol]: trigger, callback, args }`. V8 holds the literal's first map
// for ever, but the maps that each key after it transitions to live only while some object has them. A full
// garbage collection in a quiet moment (while the server starts, or idles before its first requests) finds no tick
// object alive and retires them; the next tick object gets new maps. After a few such collections the literal's
// inline caches have seen too many maps and go megamorphic for good, and from then on every nextTick defines its
// keys through V8's runtime. Node's HTTP and stream code calls nextTick several times per request.
//
// Measured (2 vCPU, 32 connections, `GET /api/storage`, CPU per request of the serving thread): 12 of 15 server
// processes fell into that state, at 36–40 µs a request against 27–30 µs; with one tick object kept alive,
// 25 of 25 stayed at 26.6–30 µs. This is what made a process "slow for good" at random (the same route measured
// 0.41× or 0.59× of the bare route depending on the process).
import { createHook } from 'node:async_hooks';

let pinned: object | undefined;
let tried = false;

/** Idempotent. Call it before the application's modules load: their start-up collections can already retire the maps. */
export function pinTickObjectShape(): void {
  if (tried) return;
  tried = true;
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
