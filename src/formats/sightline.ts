// The run JSON of `POST /detections` / `GET /detections/{runId}`: read as the JSON route reads it (boxes packed),
// written from the stored columns with every number exact.
import { parseRunJson } from '../detections/run-json-parser.js';
import { BOX_STRIDE } from '../detections/run-types.js';
import { isObject } from '../util/is-object.js';
import { exportView, isInterpolated } from './export-view.js';
import { FormatError, invalidFile } from './format-error.js';
import { ByteCollector, parseJsonFile } from './json-input.js';
import type { FormatReader, FormatWriter, RawRun } from './types.js';

export function sightlineReader(): FormatReader {
  const input = new ByteCollector();
  return {
    write: (chunk) => input.write(chunk),
    end() {
      const bytes = input.bytes();
      let body: unknown;
      try {
        body = (bytes.length > 0 ? parseRunJson(bytes) : undefined) ?? parseJsonFile(bytes);
      } catch (err) {
        if (err instanceof FormatError) throw err;
        // The run parser refuses absurd nesting before JSON.parse would take seconds over it.
        throw invalidFile((err as Error).message, { line: 1 });
      }
      if (!isObject(body) || !Array.isArray(body.tracks)) {
        throw invalidFile('Not a run: an object with a "tracks" array is expected', { line: 1 });
      }
      // Box positions are their index in the track's boxes array; the trackId of a rejection names the track.
      return {
        run: body as RawRun,
        positionOf: (_track, box) => ({ index: box }),
        malformed: [],
        skipped: { notObjects: 0, nonBoxShapes: 0, untracked: 0 },
      };
    },
  };
}

const json = (v: unknown): string => JSON.stringify(v);

export const sightlineWriter: FormatWriter = function* (run) {
  const v = exportView(run);
  const head: Record<string, unknown> = { schemaVersion: '1.0' };
  if (run.name !== undefined) head.name = run.name;
  head.source = { ...run.source, ...(run.runId !== undefined ? { runId: run.runId } : {}) };
  head.coordinateSpace = 'normalized';
  if (run.media !== undefined) head.media = run.media;
  if (run.categories !== undefined) head.categories = run.categories;
  let piece = `${json(head).slice(0, -1)},"tracks":[`;
  const c = v.boxes.columns;
  for (let t = 0; t < v.boxes.headers.length; t++) {
    const h = v.boxes.headers[t]!;
    const { n: _n, extras: _extras, ...track } = h;
    piece += `${t === 0 ? '' : ','}\n${json(track).slice(0, -1)},"boxes":[`;
    const start = v.startOf[t]!;
    for (let i = start; i < start + h.n; i++) {
      const o = i * BOX_STRIDE;
      piece += `${i === start ? '' : ','}{"frame":${c[o]},"x":${json(c[o + 1])},"y":${json(c[o + 2])},"w":${json(c[o + 3])},"h":${json(c[o + 4])}`;
      const conf = c[o + 5]!;
      const ts = c[o + 6]!;
      if (!Number.isNaN(conf)) piece += `,"confidence":${json(conf)}`;
      if (!Number.isNaN(ts)) piece += `,"timestampMs":${json(ts)}`;
      const extra = h.extras?.[i - start];
      if (extra?.label !== undefined) piece += `,"label":${json(extra.label)}`;
      if (extra?.classId !== undefined) piece += `,"classId":${json(extra.classId)}`;
      if (isInterpolated(v, i)) piece += ',"interpolated":true';
      piece += '}';
    }
    piece += ']}';
    if (piece.length >= 65_536) {
      yield piece;
      piece = '';
    }
  }
  yield `${piece}]}\n`;
};
