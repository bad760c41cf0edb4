// The stored form of a run's boxes: an 8-byte header then BOX_STRIDE little-endian doubles per box.
// A binary column is ~10× cheaper to write and read than a JSON document of the same run.
import { BOX_STRIDE, type RunBoxes, type TrackHeader } from './run-types.js';

const MAGIC = 0x31424c53; // "SLB1"
const HEADER_BYTES = 8;

export function encodeBoxes(run: RunBoxes): Buffer {
  const out = Buffer.allocUnsafe(HEADER_BYTES + run.count * BOX_STRIDE * 8);
  out.writeUInt32LE(MAGIC, 0);
  out.writeUInt32LE(run.count, 4);
  const values = run.columns.subarray(0, run.count * BOX_STRIDE);
  Buffer.from(values.buffer, values.byteOffset, values.byteLength).copy(out, HEADER_BYTES);
  return out;
}

export function decodeBoxes(blob: Uint8Array): Float64Array {
  const buf = Buffer.isBuffer(blob) ? blob : Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  if (buf.length < HEADER_BYTES || buf.readUInt32LE(0) !== MAGIC) throw new Error('stored boxes have an unknown format');
  const count = buf.readUInt32LE(4);
  const start = buf.byteOffset + HEADER_BYTES;
  // Float64Array needs an 8-aligned offset; copy only when the driver handed us an unaligned slice.
  if (start % 8 === 0) return new Float64Array(buf.buffer, start, count * BOX_STRIDE);
  const copy = new Float64Array(count * BOX_STRIDE);
  new Uint8Array(copy.buffer).set(buf.subarray(HEADER_BYTES, HEADER_BYTES + count * BOX_STRIDE * 8));
  return copy;
}

export interface ApiBox { frame: number; x: number; y: number; w: number; h: number; confidence?: number; timestampMs?: number; label?: unknown; classId?: unknown }
export interface ApiTrack { id: string; label?: string; classId?: string | number; confidence?: number; color?: string; boxes: ApiBox[] }

/**
 * The tracks as the API shows them. Boxes are built as object literals of one fixed shape per set of
 * present fields: V8's JSON.stringify is fastest on objects that share a hidden class.
 */
export function tracksForApi(headers: TrackHeader[], columns: Float64Array): ApiTrack[] {
  const tracks: ApiTrack[] = new Array(headers.length);
  let i = 0;
  for (let t = 0; t < headers.length; t++) {
    const h = headers[t]!;
    const boxes: ApiBox[] = new Array(h.n);
    for (let j = 0; j < h.n; j++, i++) {
      const o = i * BOX_STRIDE;
      const confidence = columns[o + 5]!;
      const ts = columns[o + 6]!;
      let box: ApiBox;
      if (confidence === confidence && ts === ts) {
        box = { frame: columns[o]!, x: columns[o + 1]!, y: columns[o + 2]!, w: columns[o + 3]!, h: columns[o + 4]!, confidence, timestampMs: ts };
      } else if (confidence === confidence) {
        box = { frame: columns[o]!, x: columns[o + 1]!, y: columns[o + 2]!, w: columns[o + 3]!, h: columns[o + 4]!, confidence };
      } else if (ts === ts) {
        box = { frame: columns[o]!, x: columns[o + 1]!, y: columns[o + 2]!, w: columns[o + 3]!, h: columns[o + 4]!, timestampMs: ts };
      } else {
        box = { frame: columns[o]!, x: columns[o + 1]!, y: columns[o + 2]!, w: columns[o + 3]!, h: columns[o + 4]! };
      }
      const extra = h.extras?.[j];
      if (extra) {
        if (extra.label !== undefined) box.label = extra.label;
        if (extra.classId !== undefined) box.classId = extra.classId;
      }
      boxes[j] = box;
    }
    const track: ApiTrack = { id: h.id } as ApiTrack;
    if (h.label !== undefined) track.label = h.label;
    if (h.classId !== undefined) track.classId = h.classId;
    if (h.confidence !== undefined) track.confidence = h.confidence;
    if (h.color !== undefined) track.color = h.color;
    track.boxes = boxes;
    tracks[t] = track;
  }
  return tracks;
}
