// V8 settings for a long-running server process, applied once when a server starts.
import v8 from 'node:v8';

let applied = false;

/**
 * Turns off V8's allocation-site pretenuring. Under steady load of short requests, V8 sometimes decides to
 * allocate some per-request objects straight into the old generation; every young object they point to then
 * survives its scavenge and is promoted too, until the next full collection. Measured on `GET /api/storage`
 * (32 connections): in about half of the runs a server fell into that mode for good — scavenges of 5–10 ms
 * instead of 0.5 ms, a full mark-compact every second, ~30% more CPU per request. With pretenuring off, all 23
 * runs stayed in the cheap mode (11 with the command-line flag, 12 with it set here at start-up: the flag is read
 * at collection time, so setting it after V8 started takes effect).
 */
export function tuneGarbageCollector(): void {
  if (applied) return;
  applied = true;
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
}
