// Read access to a stored run's columns for the writers: which track a box is in, its class, rows in frame order.
// Indices into the columns instead of box objects, so that an export of a large run allocates little per box.
import { BOX_STRIDE, type RunBoxes } from '../detections/run-types.js';
import type { ExportRun } from './types.js';

/**
 * Text writers yield pieces of about 64 KiB, except the first: the answer starts as soon as a few rows are written,
 * not after the first 64 KiB were formatted (tens of ms of a large export's time to first byte).
 */
export const PIECE_CHARS = 65_536;
export const FIRST_PIECE_CHARS = 4_096;

export interface ExportView {
  run: ExportRun;
  boxes: RunBoxes;
  /** Track index of each box. */
  trackOf: Uint32Array;
  /** Index of each track's first box. */
  startOf: Uint32Array;
}

export function exportView(run: ExportRun): ExportView {
  const { headers, count } = run.boxes;
  const trackOf = new Uint32Array(count);
  const startOf = new Uint32Array(headers.length);
  let i = 0;
  for (let t = 0; t < headers.length; t++) {
    startOf[t] = i;
    trackOf.fill(t, i, i + headers[t]!.n);
    i += headers[t]!.n;
  }
  return { run, boxes: run.boxes, trackOf, startOf };
}

export const frameOf = (v: ExportView, i: number): number => v.boxes.columns[i * BOX_STRIDE]!;
/** x, y, w, h, confidence, timestampMs of box i: k = 1 … 6. */
export const columnOf = (v: ExportView, i: number, k: number): number => v.boxes.columns[i * BOX_STRIDE + k]!;

/** The label of box i: its own when it has one, else its track's. */
export function labelOf(v: ExportView, i: number): string | undefined {
  const t = v.trackOf[i]!;
  const header = v.boxes.headers[t]!;
  const own = header.extras?.[i - v.startOf[t]!]?.label;
  return typeof own === 'string' ? own : header.label;
}

export function classIdOf(v: ExportView, i: number): unknown {
  const t = v.trackOf[i]!;
  const header = v.boxes.headers[t]!;
  const own = header.extras?.[i - v.startOf[t]!]?.classId;
  return own ?? header.classId;
}

/** Filled by this export's interpolation, or stored as interpolated (an editor's or an import's). */
export function isInterpolated(v: ExportView, i: number): boolean {
  if (v.run.interpolated?.[i] === 1) return true;
  const t = v.trackOf[i]!;
  return v.boxes.headers[t]!.extras?.[i - v.startOf[t]!]?.interpolated === true;
}

/**
 * Box indices sorted by frame; the boxes of one frame in the order the tracks first appear (by first frame, then
 * track order). A reader lists tracks in order of first appearance, so writing what was read gives the same rows.
 */
export function frameOrder(v: ExportView): Uint32Array {
  const { headers } = v.boxes;
  const c = v.boxes.columns;
  const tracks = Array.from({ length: headers.length }, (_, t) => t).filter((t) => headers[t]!.n > 0);
  tracks.sort((a, b) => c[v.startOf[a]! * BOX_STRIDE]! - c[v.startOf[b]! * BOX_STRIDE]! || a - b);
  const n = v.boxes.count;
  let largest = 0;
  for (let i = 0; i < n; i++) largest = Math.max(largest, c[i * BOX_STRIDE]!);
  // Frames are integers ≥ 0 and a track's boxes are sorted with one box a frame: a counting sort by frame that
  // places the tracks' boxes in rank order gives the same order as the comparison sort below, in linear time
  // (250 000 boxes: a few ms instead of half a second). Frames far apart would make the count table too large.
  if (largest <= 4 * n + 1_000_000) {
    const next = new Uint32Array(largest + 2);
    for (let i = 0; i < n; i++) next[c[i * BOX_STRIDE]! + 1]!++;
    for (let f = 1; f < next.length; f++) next[f]! += next[f - 1]!;
    const order = new Uint32Array(n);
    for (const t of tracks) {
      const start = v.startOf[t]!;
      for (let i = start; i < start + headers[t]!.n; i++) order[next[c[i * BOX_STRIDE]!]!++] = i;
    }
    return order;
  }
  const rank = new Uint32Array(headers.length);
  tracks.forEach((t, r) => {
    rank[t] = r;
  });
  const order = Uint32Array.from({ length: v.boxes.count }, (_, i) => i);
  return order.sort((a, b) => c[a * BOX_STRIDE]! - c[b * BOX_STRIDE]! || rank[v.trackOf[a]!]! - rank[v.trackOf[b]!]!);
}

/** Every label/classId pair the run uses, tracks and boxes, in order of appearance. */
export function* classesOf(v: ExportView): Generator<{ label?: string; classId?: unknown }> {
  for (const h of v.boxes.headers) {
    yield { label: h.label, classId: h.classId };
    if (h.extras)
      for (const e of Object.values(h.extras))
        if (e.label !== undefined || e.classId !== undefined)
          yield { label: e.label as string | undefined, classId: e.classId };
  }
}

/** Frames 0 … frameCount − 1 when the run's media gives frameCount, else the largest frame + 1. */
export function frameCountOf(v: ExportView): number {
  const fc = v.run.media?.frameCount;
  let largest = -1;
  for (let i = 0; i < v.boxes.count; i++) largest = Math.max(largest, frameOf(v, i));
  return typeof fc === 'number' && Number.isInteger(fc) && fc > largest ? fc : largest + 1;
}

/** A name safe inside a file name: the run's name or the given stem, else `video`. */
export function stemOf(run: ExportRun, stem: string | undefined): string {
  const raw = stem ?? run.name ?? 'video';
  const safe = raw.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '');
  return safe === '' ? 'video' : safe;
}
