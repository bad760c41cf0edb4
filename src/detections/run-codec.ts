// The stored form of a run's boxes. Two formats, told apart by their first four bytes:
// - "SLB1" (doubles): an 8-byte header, then BOX_STRIDE little-endian doubles per box.
// - "SLB2" (columns): the same 8-byte header, a table of BOX_STRIDE column descriptors, then one 8-aligned
//   block per column. A column whose every value is an integer divided by one power of ten (model output printed
//   with a few decimals, frame numbers, milliseconds) is stored as those integers in 8, 16 or 32 bits; any other
//   column (pixel boxes turned normalised, absent confidences) stays doubles. The encoder checks every value's
//   round trip before it keeps the integer form, so decoding gives back exactly the doubles it was given.
// - "SLB3" (segments): the boxes of a run stored in segments (run-segments.ts), joined for a reader: the same 8-byte
//   header, the segment count and each segment's byte length, then each segment's own SLB1 or SLB2 bytes, 8-aligned.
// - "SLBS": eight bytes standing in a runs row for boxes kept in run_segments; never decoded.
// A normalised 250 000-box run shrinks from 13.4 to 5.7 MiB (pixel boxes: 9.5 MiB). Typed arrays are
// little-endian on every platform Node runs on (x86-64, arm64), as the doubles format already assumed.
import { BOX_STRIDE, type RunBoxes, type TrackHeader } from './run-types.js';

const MAGIC_DOUBLES = 0x31424c53; // "SLB1"
const MAGIC_COLUMNS = 0x32424c53; // "SLB2"
const MAGIC_JOINED = 0x33424c53; // "SLB3"
const MAGIC_SEGMENTED = 0x53424c53; // "SLBS"
const HEADER_BYTES = 8;
/** Per column: kind (1 byte), 7 bytes of padding, divisor (double). */
const DESCRIPTOR_BYTES = 16;
const COLUMNS_START = HEADER_BYTES + BOX_STRIDE * DESCRIPTOR_BYTES;

enum Kind {
  F64 = 0,
  I8 = 1,
  I16 = 2,
  I32 = 3,
}
const BYTES_PER_VALUE = [8, 1, 2, 4];
const DIVISORS = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];
/** Boxes looked at to pick a column's divisor; the full pass then proves it on every value. */
const SAMPLE_BOXES = 64;

interface ColumnPlan {
  kind: Kind;
  divisor: number;
  ints?: Int32Array;
}

const exact = (v: number, d: number, n: number) =>
  n / d === v && n <= 0x7fffffff && n >= -0x80000000 && (v !== 0 || 1 / v > 0);

/** The smallest divisor that makes every value of column `c` among boxes [from, to) an exact integer, or 0. */
function divisorOf(columns: Float64Array, c: number, from: number, to: number, after = 0): number {
  next: for (const d of DIVISORS) {
    if (d <= after) continue;
    for (let o = from * BOX_STRIDE + c, end = to * BOX_STRIDE; o < end; o += BOX_STRIDE) {
      const v = columns[o]!;
      if (!exact(v, d, Math.round(v * d))) continue next; // NaN and ±Infinity fail here
    }
    return d;
  }
  return 0;
}

/** Column `c` as integers over `d`, or undefined when one value does not round-trip. */
function scaled(columns: Float64Array, count: number, c: number, d: number): Int32Array | undefined {
  const ints = new Int32Array(count);
  for (let i = 0, o = c; i < count; i++, o += BOX_STRIDE) {
    const v = columns[o]!;
    const n = Math.round(v * d);
    if (!exact(v, d, n)) return undefined;
    ints[i] = n;
  }
  return ints;
}

function planColumn(columns: Float64Array, count: number, c: number): ColumnPlan {
  let d = divisorOf(columns, c, 0, Math.min(count, SAMPLE_BOXES));
  while (d !== 0) {
    const ints = scaled(columns, count, c, d);
    if (ints) {
      let min = 0,
        max = 0;
      for (let i = 0; i < count; i++) {
        const n = ints[i]!;
        if (n < min) min = n;
        else if (n > max) max = n;
      }
      const kind = min >= -0x80 && max <= 0x7f ? Kind.I8 : min >= -0x8000 && max <= 0x7fff ? Kind.I16 : Kind.I32;
      return { kind, divisor: d, ints };
    }
    // The sample was coarser than the rest of the column: try finer divisors over all of it.
    d = divisorOf(columns, c, 0, count, d);
  }
  return { kind: Kind.F64, divisor: 0 };
}

const align8 = (n: number) => (n + 7) & ~7;

/**
 * Which format a store writes. SQLite keeps doubles: its write of 13 MiB into the WAL costs less than encoding
 * it (measured +11 ms on a write and +12 ms on a read with columns). PostgreSQL writes columns: its TOAST write
 * costs ~8 ms per MiB (−48 ms on a write, −12 ms on a read).
 */
export type BoxFormat = 'doubles' | 'columns';

export function encodeBoxes(run: RunBoxes, format: BoxFormat): Buffer {
  return format === 'columns' ? encodeColumns(run) : encodeDoubles(run);
}

function encodeDoubles(run: RunBoxes): Buffer {
  const out = Buffer.allocUnsafe(HEADER_BYTES + run.count * BOX_STRIDE * 8);
  out.writeUInt32LE(MAGIC_DOUBLES, 0);
  out.writeUInt32LE(run.count, 4);
  const values = run.columns.subarray(0, run.count * BOX_STRIDE);
  Buffer.from(values.buffer, values.byteOffset, values.byteLength).copy(out, HEADER_BYTES);
  return out;
}

function encodeColumns(run: RunBoxes): Buffer {
  const { columns, count } = run;
  const plans: ColumnPlan[] = [];
  let size = COLUMNS_START;
  for (let c = 0; c < BOX_STRIDE; c++) {
    const plan = planColumn(columns, count, c);
    plans.push(plan);
    size += align8(count * BYTES_PER_VALUE[plan.kind]!);
  }
  const out = Buffer.alloc(size); // zeroed: the alignment padding is part of the stored bytes
  out.writeUInt32LE(MAGIC_COLUMNS, 0);
  out.writeUInt32LE(count, 4);
  let pos = COLUMNS_START;
  for (let c = 0; c < BOX_STRIDE; c++) {
    const { kind, divisor, ints } = plans[c]!;
    out[HEADER_BYTES + c * DESCRIPTOR_BYTES] = kind;
    out.writeDoubleLE(divisor, HEADER_BYTES + c * DESCRIPTOR_BYTES + 8);
    const block = out.subarray(pos, pos + count * BYTES_PER_VALUE[kind]!);
    if (kind === Kind.F64) {
      const values = new Float64Array(count);
      for (let i = 0, o = c; i < count; i++, o += BOX_STRIDE) values[i] = columns[o]!;
      block.set(new Uint8Array(values.buffer));
    } else {
      // Int8Array/Int16Array.set converts from the Int32Array in native code; the range check above made it exact.
      const narrow = kind === Kind.I32 ? ints! : kind === Kind.I16 ? new Int16Array(count) : new Int8Array(count);
      if (narrow !== ints) narrow.set(ints!);
      block.set(new Uint8Array(narrow.buffer, narrow.byteOffset, narrow.byteLength));
    }
    pos += align8(block.length);
  }
  return out;
}

/** What a runs row (or a whole revision) holds in `boxes` when its boxes are in run_segments. */
export const SEGMENTED_BOXES: Buffer = (() => {
  const b = Buffer.alloc(HEADER_BYTES);
  b.writeUInt32LE(MAGIC_SEGMENTED, 0);
  return b;
})();

export const isSegmentedBoxes = (blob: Uint8Array): boolean =>
  blob.byteLength === HEADER_BYTES && Buffer.from(blob.buffer, blob.byteOffset, 4).readUInt32LE(0) === MAGIC_SEGMENTED;

/** The stored boxes of consecutive segments as one blob that decodeBoxes reads as the run's boxes. */
export function joinBoxes(segments: Uint8Array[]): Buffer {
  let count = 0;
  let size = align8(HEADER_BYTES + 4 + 4 * segments.length);
  for (const s of segments) {
    count += boxCountOf(asBuffer(s));
    size += align8(s.byteLength);
  }
  const out = Buffer.alloc(size);
  out.writeUInt32LE(MAGIC_JOINED, 0);
  out.writeUInt32LE(count, 4);
  out.writeUInt32LE(segments.length, HEADER_BYTES);
  let pos = align8(HEADER_BYTES + 4 + 4 * segments.length);
  segments.forEach((s, i) => {
    out.writeUInt32LE(s.byteLength, HEADER_BYTES + 4 + 4 * i);
    out.set(s, pos);
    pos += align8(s.byteLength);
  });
  return out;
}

const asBuffer = (blob: Uint8Array) =>
  Buffer.isBuffer(blob) ? blob : Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);

function boxCountOf(buf: Buffer): number {
  const magic = buf.length >= HEADER_BYTES ? buf.readUInt32LE(0) : 0;
  if (magic !== MAGIC_COLUMNS && magic !== MAGIC_DOUBLES && magic !== MAGIC_JOINED)
    throw new Error('stored boxes have an unknown format');
  return buf.readUInt32LE(4);
}

export function decodeBoxes(blob: Uint8Array): Float64Array {
  const buf = asBuffer(blob);
  const magic = buf.length >= HEADER_BYTES ? buf.readUInt32LE(0) : 0;
  if (magic === MAGIC_COLUMNS) return decodeColumns(buf);
  if (magic === MAGIC_DOUBLES) return decodeDoubles(buf);
  if (magic === MAGIC_JOINED) return decodeJoined(buf);
  throw new Error('stored boxes have an unknown format');
}

/** Each segment decoded straight into its place in the run's columns. */
function decodeJoined(buf: Buffer): Float64Array {
  const out = new Float64Array(buf.readUInt32LE(4) * BOX_STRIDE);
  const segments = buf.readUInt32LE(HEADER_BYTES);
  let pos = align8(HEADER_BYTES + 4 + 4 * segments);
  let at = 0;
  for (let i = 0; i < segments; i++) {
    const length = buf.readUInt32LE(HEADER_BYTES + 4 + 4 * i);
    if (pos + length > buf.length) throw new Error('stored boxes are truncated');
    const part = buf.subarray(pos, pos + length);
    const count = boxCountOf(part);
    if (at + count * BOX_STRIDE > out.length) throw new Error('stored boxes are truncated');
    if (part.readUInt32LE(0) === MAGIC_COLUMNS) decodeColumns(part, out.subarray(at, at + count * BOX_STRIDE));
    else out.set(decodeBoxes(part), at);
    at += count * BOX_STRIDE;
    pos += align8(length);
  }
  return out;
}

function decodeDoubles(buf: Buffer): Float64Array {
  const count = buf.readUInt32LE(4);
  if (buf.length < HEADER_BYTES + count * BOX_STRIDE * 8) throw new Error('stored boxes are truncated');
  const start = buf.byteOffset + HEADER_BYTES;
  // Float64Array needs an 8-aligned offset; copy only when the driver handed us an unaligned slice.
  if (start % 8 === 0) return new Float64Array(buf.buffer, start, count * BOX_STRIDE);
  const copy = new Float64Array(count * BOX_STRIDE);
  new Uint8Array(copy.buffer).set(buf.subarray(HEADER_BYTES, HEADER_BYTES + count * BOX_STRIDE * 8));
  return copy;
}

/** A typed array over bytes [at, at + count·width) of buf, viewing them in place when aligned, else copied. */
function blockOf(
  buf: Buffer,
  at: number,
  count: number,
  kind: Kind,
): Float64Array | Int8Array | Int16Array | Int32Array {
  const width = BYTES_PER_VALUE[kind]!;
  let bytes = buf.subarray(at, at + count * width);
  if (bytes.byteOffset % width !== 0) bytes = Buffer.from(bytes);
  const { buffer, byteOffset } = bytes;
  if (kind === Kind.F64) return new Float64Array(buffer, byteOffset, count);
  if (kind === Kind.I32) return new Int32Array(buffer, byteOffset, count);
  if (kind === Kind.I16) return new Int16Array(buffer, byteOffset, count);
  return new Int8Array(buffer, byteOffset, count);
}

function decodeColumns(buf: Buffer, into?: Float64Array): Float64Array {
  const count = buf.readUInt32LE(4);
  const out = into ?? new Float64Array(count * BOX_STRIDE);
  let pos = COLUMNS_START;
  for (let c = 0; c < BOX_STRIDE; c++) pos = decodeColumn(buf, c, pos, count, out);
  return out;
}

/** Column `c`, whose block starts at `pos`, into its place in `out`; the position of the next block. */
function decodeColumn(buf: Buffer, c: number, pos: number, count: number, out: Float64Array): number {
  const kind = buf[HEADER_BYTES + c * DESCRIPTOR_BYTES] as Kind;
  const width = BYTES_PER_VALUE[kind];
  if (width === undefined) throw new Error('stored boxes have an unknown column format');
  if (pos + count * width > buf.length) throw new Error('stored boxes are truncated');
  const values = blockOf(buf, pos, count, kind);
  if (kind === Kind.F64) {
    for (let i = 0, o = c; i < count; i++, o += BOX_STRIDE) out[o] = values[i]!;
  } else {
    const d = buf.readDoubleLE(HEADER_BYTES + c * DESCRIPTOR_BYTES + 8);
    for (let i = 0, o = c; i < count; i++, o += BOX_STRIDE) out[o] = values[i]! / d;
  }
  return pos + align8(count * width);
}

export interface ApiBox {
  frame: number;
  x: number;
  y: number;
  w: number;
  h: number;
  confidence?: number;
  timestampMs?: number;
  label?: unknown;
  classId?: unknown;
  interpolated?: true;
}
export interface ApiTrack {
  id: string;
  label?: string;
  classId?: string | number;
  confidence?: number;
  color?: string;
  boxes: ApiBox[];
}

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
      if (!Number.isNaN(confidence) && !Number.isNaN(ts)) {
        box = {
          frame: columns[o]!,
          x: columns[o + 1]!,
          y: columns[o + 2]!,
          w: columns[o + 3]!,
          h: columns[o + 4]!,
          confidence,
          timestampMs: ts,
        };
      } else if (!Number.isNaN(confidence)) {
        box = {
          frame: columns[o]!,
          x: columns[o + 1]!,
          y: columns[o + 2]!,
          w: columns[o + 3]!,
          h: columns[o + 4]!,
          confidence,
        };
      } else if (!Number.isNaN(ts)) {
        box = {
          frame: columns[o]!,
          x: columns[o + 1]!,
          y: columns[o + 2]!,
          w: columns[o + 3]!,
          h: columns[o + 4]!,
          timestampMs: ts,
        };
      } else {
        box = { frame: columns[o]!, x: columns[o + 1]!, y: columns[o + 2]!, w: columns[o + 3]!, h: columns[o + 4]! };
      }
      const extra = h.extras?.[j];
      if (extra) {
        if (extra.label !== undefined) box.label = extra.label;
        if (extra.classId !== undefined) box.classId = extra.classId;
        if (extra.interpolated === true) box.interpolated = true;
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
