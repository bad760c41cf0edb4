// What migration 012's rebuild computes, frozen as it was when the migration shipped: a run's stored boxes decoded
// (both box formats), its centroids with their frames (spec §6), ordered by grid row. The live detections and
// search code may change later, and an applied migration must not change with it.

const BOX_STRIDE = 7;
const MAX_CENTROIDS_PER_TRACK = 10;
const GRID = 8;
const CELL = 100 / GRID;
const MAGIC_DOUBLES = 0x31424c53; // "SLB1"
const MAGIC_COLUMNS = 0x32424c53; // "SLB2"
const HEADER_BYTES = 8;
const DESCRIPTOR_BYTES = 16;
const COLUMNS_START = HEADER_BYTES + BOX_STRIDE * DESCRIPTOR_BYTES;
/** Bytes per value of each column kind: float64, int8, int16, int32. */
const BYTES_PER_VALUE = [8, 1, 2, 4];

export const ROW_START_COLUMNS = [
  'row1_start',
  'row2_start',
  'row3_start',
  'row4_start',
  'row5_start',
  'row6_start',
  'row7_start',
] as const;

interface StoredHeader {
  label?: string;
  n: number;
}

/** The stored boxes as BOX_STRIDE doubles each (frame, x, y, w, h, confidence, timestampMs). */
export function decodeStoredBoxes(blob: Uint8Array): Float64Array {
  const buf = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  const magic = buf.length >= HEADER_BYTES ? buf.readUInt32LE(0) : 0;
  const count = buf.length >= HEADER_BYTES ? buf.readUInt32LE(4) : 0;
  const out = new Float64Array(count * BOX_STRIDE);
  if (magic === MAGIC_DOUBLES) {
    if (buf.length < HEADER_BYTES + out.byteLength) throw new Error('stored boxes are truncated');
    new Uint8Array(out.buffer).set(buf.subarray(HEADER_BYTES, HEADER_BYTES + out.byteLength));
    return out;
  }
  if (magic !== MAGIC_COLUMNS) throw new Error('stored boxes have an unknown format');
  let pos = COLUMNS_START;
  for (let c = 0; c < BOX_STRIDE; c++) {
    const kind = buf[HEADER_BYTES + c * DESCRIPTOR_BYTES]!;
    const width = BYTES_PER_VALUE[kind];
    if (width === undefined) throw new Error('stored boxes have an unknown column format');
    if (pos + count * width > buf.length) throw new Error('stored boxes are truncated');
    const divisor = kind === 0 ? 1 : buf.readDoubleLE(HEADER_BYTES + c * DESCRIPTOR_BYTES + 8);
    for (let i = 0, o = c; i < count; i++, o += BOX_STRIDE) {
      const at = pos + i * width;
      const v =
        kind === 0
          ? buf.readDoubleLE(at)
          : kind === 1
            ? buf.readInt8(at)
            : kind === 2
              ? buf.readInt16LE(at)
              : buf.readInt32LE(at);
      out[o] = kind === 0 ? v : v / divisor;
    }
    pos += (count * width + 7) & ~7;
  }
  return out;
}

function evenPicks(n: number): number[] {
  const max = MAX_CENTROIDS_PER_TRACK;
  if (n <= max) return Array.from({ length: n }, (_, i) => i);
  return Array.from({ length: max }, (_, i) => Math.round((i * (n - 1)) / (max - 1)));
}

function rowOf(y: number): number {
  const c = Math.floor(y / CELL);
  return c < 0 ? 0 : c >= GRID ? GRID - 1 : c;
}

export interface FramedCentroidRow {
  label: string;
  points: Buffer;
  frames: Buffer;
  starts: Record<(typeof ROW_START_COLUMNS)[number], number>;
}

const float64s = (values: number[]) => {
  const a = Float64Array.from(values);
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
};

/** Per label: the centroids (float64 pairs) and their frames (float64), ordered by grid row, with each row's start. */
export function framedCentroidRows(headersJson: string, boxes: Uint8Array): FramedCentroidRow[] {
  const headers = JSON.parse(headersJson) as StoredHeader[];
  const columns = decodeStoredBoxes(boxes);
  const byLabel = new Map<string, { points: number[]; frames: number[] }>();
  let start = 0;
  for (const header of headers) {
    const label = header.label && header.label !== '' ? header.label : 'object';
    let c = byLabel.get(label);
    if (!c) {
      c = { points: [], frames: [] };
      byLabel.set(label, c);
    }
    for (const pick of evenPicks(header.n)) {
      const o = (start + pick) * BOX_STRIDE;
      c.points.push((columns[o + 1]! + columns[o + 3]! / 2) * 100, (columns[o + 2]! + columns[o + 4]! / 2) * 100);
      c.frames.push(columns[o]!);
    }
    start += header.n;
  }
  return [...byLabel].map(([label, { points, frames }]) => {
    const n = frames.length;
    const counts = new Array<number>(GRID + 1).fill(0);
    for (let i = 0; i < n; i++) counts[rowOf(points[2 * i + 1]!) + 1]!++;
    for (let r = 1; r <= GRID; r++) counts[r]! += counts[r - 1]!;
    const next = counts.slice();
    const ordered = new Array<number>(2 * n);
    const orderedFrames = new Array<number>(n);
    for (let i = 0; i < n; i++) {
      const at = next[rowOf(points[2 * i + 1]!)]!++;
      ordered[2 * at] = points[2 * i]!;
      ordered[2 * at + 1] = points[2 * i + 1]!;
      orderedFrames[at] = frames[i]!;
    }
    const starts = Object.fromEntries(
      ROW_START_COLUMNS.map((col, i) => [col, counts[i + 1]!]),
    ) as FramedCentroidRow['starts'];
    return { label, points: float64s(ordered), frames: float64s(orderedFrames), starts };
  });
}
