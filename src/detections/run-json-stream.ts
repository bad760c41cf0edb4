// A large run's JSON written as it is serialised, 64 KiB at a time (run-json-writer.ts): the client receives while
// the server still works, and the server never holds 250 000 box objects or one 30 MiB string at once.
import { Readable } from 'node:stream';
import { decodeBoxes } from './run-codec.js';
import { tracksJsonChunks } from './run-json-writer.js';
import type { TrackHeader } from './run-types.js';

type StoredBody = { tracks: string; boxes: Uint8Array };

/** The run `{…summary, "tracks":[…]}` in pieces; the body is decoded (whatever can fail) before the first piece. */
function runJsonParts(summary: Record<string, unknown>, body: StoredBody): Iterable<string | Buffer> {
  const headers = JSON.parse(body.tracks) as TrackHeader[];
  const columns = decodeBoxes(body.boxes);
  const shell = JSON.stringify({ ...summary, tracks: [] });
  const open = shell.lastIndexOf('[]') + 1; // tracks is the last member: the shell ends with `"tracks":[]}`
  return (function* parts() {
    yield shell.slice(0, open);
    yield* tracksJsonChunks(headers, columns);
    yield shell.slice(open);
  })();
}

/** `{"data":{…summary, "tracks":[…]}}` as a stream; everything that can fail is done before the first byte. */
export function runJsonStream(summary: Record<string, unknown>, body: StoredBody): Readable {
  const run = runJsonParts(summary, body);
  return Readable.from(
    (function* parts() {
      yield '{"data":';
      yield* run;
      yield '}';
    })(),
  );
}

/**
 * `{"data":{"mediaKey":…,"runs":[…]}}` with full runs, read and written one run at a time: twelve large runs were a
 * 303 MB string built in memory (seconds of a blocked event loop, gigabytes for a few such requests at once).
 * A run deleted between the list and its turn is left out, as if listed a moment later.
 */
export function runListJsonStream(
  mediaKey: string,
  runs: Array<() => Promise<{ summary: Record<string, unknown>; body: StoredBody } | undefined>>,
): Readable {
  return Readable.from(
    (async function* parts() {
      yield `{"data":{"mediaKey":${JSON.stringify(mediaKey)},"runs":[`;
      let first = true;
      for (const read of runs) {
        const run = await read();
        if (!run) continue;
        if (!first) yield ',';
        first = false;
        yield* runJsonParts(run.summary, run.body);
      }
      yield ']}}';
    })(),
  );
}
