// The least an export can do before its first byte, as a server beside Sightline's in the formats benchmark: a bare
// node:http server in a process of its own that, for every GET, reads the stored run in one snapshot (the same read
// and decoding as the route), parses its track headers and writes the format's pieces. No Fastify, authentication,
// run lookup by id, recording or parameter checks. argv: port, the store's location (JSON), orgId, the run's key.
// GET /?format=<name>.
import http from 'node:http';
import { Readable } from 'node:stream';
import { readRunSnapshot } from '../src/detections/run-body-reader.js';
import { storeAt } from './store-at.js';
import { decodeBoxes } from '../src/detections/run-codec.js';
import type { TrackHeader } from '../src/detections/run-types.js';
import { formats, isFormatName } from '../src/formats/registry.js';

const [port, location, orgId, runPk] = process.argv.slice(2) as [string, string, string, string];
const store = storeAt(location);

const server = http.createServer((req, res) => {
  const format = new URL(req.url ?? '/', 'http://x').searchParams.get('format') ?? '';
  void (async () => {
    if (!isFormatName(format)) throw new Error(`no format ${format}`);
    const run = await readRunSnapshot(store, orgId, runPk);
    if (!run) throw new Error('the run is gone');
    const headers = JSON.parse(run.body.tracks) as TrackHeader[];
    const pieces = formats[format].writer(
      {
        boxes: { headers, columns: decodeBoxes(run.body.boxes), count: run.row.boxes_stored },
        runId: run.row.run_id,
        source: {},
        media: { width: 1920, height: 1080, frameCount: 5051 },
      },
      { frameSize: { width: 1920, height: 1080 } },
    );
    res.writeHead(200, { 'content-type': formats[format].contentType });
    Readable.from(
      (function* () {
        for (const piece of { [Symbol.iterator]: () => pieces }) yield Buffer.from(piece);
      })(),
      { objectMode: false },
    ).pipe(res);
  })().catch((err: Error) => {
    res.writeHead(500);
    res.end(err.message);
  });
});
server.listen(Number(port), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : port}\n`);
});
