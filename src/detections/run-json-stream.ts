// A large run's JSON written as it is serialised, 64 KiB at a time (run-json-writer.ts): the client receives while
// the server still works, and the server never holds 250 000 box objects or one 30 MiB string at once.
import { Readable } from 'node:stream';
import { decodeBoxes } from './run-codec.js';
import { tracksJsonChunks } from './run-json-writer.js';
import type { TrackHeader } from './run-types.js';

/** `{"data":{…summary, "tracks":[…]}}` as a stream; everything that can fail is done before the first byte. */
export function runJsonStream(summary: Record<string, unknown>, body: { tracks: string; boxes: Uint8Array }): Readable {
  const headers = JSON.parse(body.tracks) as TrackHeader[];
  const columns = decodeBoxes(body.boxes);
  const shell = JSON.stringify({ data: { ...summary, tracks: [] } });
  const open = shell.lastIndexOf('[]') + 1; // tracks is the last member: the shell ends with `"tracks":[]}}`
  function* parts() {
    yield shell.slice(0, open);
    yield* tracksJsonChunks(headers, columns);
    yield shell.slice(open);
  }
  return Readable.from(parts());
}
