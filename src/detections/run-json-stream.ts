// A large run's JSON written as it is serialised, a few hundred tracks at a time: the client receives while
// the server still works, and the server never holds 250 000 box objects or one 30 MiB string at once.
import { Readable } from 'node:stream';
import { decodeBoxes, tracksForApi } from './run-codec.js';
import { BOX_STRIDE, type TrackHeader } from './run-types.js';

const TRACKS_PER_CHUNK = 250;

/** `{"data":{…summary, "tracks":[…]}}` as a stream; everything that can fail is done before the first byte. */
export function runJsonStream(summary: Record<string, unknown>, body: { tracks: string; boxes: Uint8Array }): Readable {
  const headers = JSON.parse(body.tracks) as TrackHeader[];
  const columns = decodeBoxes(body.boxes);
  const shell = JSON.stringify({ data: { ...summary, tracks: [] } });
  const open = shell.lastIndexOf('[]') + 1; // tracks is the last member: the shell ends with `"tracks":[]}}`
  function* parts() {
    yield shell.slice(0, open);
    let box = 0;
    for (let t = 0; t < headers.length; t += TRACKS_PER_CHUNK) {
      const chunk = headers.slice(t, t + TRACKS_PER_CHUNK);
      const count = chunk.reduce((n, h) => n + h.n, 0);
      const json = JSON.stringify(tracksForApi(chunk, columns.subarray(box * BOX_STRIDE, (box + count) * BOX_STRIDE)));
      box += count;
      yield (t === 0 ? '' : ',') + json.slice(1, -1);
    }
    yield shell.slice(open);
  }
  return Readable.from(parts());
}
