// A run's tracks in segments: consecutive tracks with a few hundred KiB of boxes each, stored one row per segment
// (run_segments), so that a patch reads and rewrites only the segments holding the tracks it changes. Pure.
//
// Tracks keep their order across segments (segment numbers ascend with it). A patch replaces tracks in their
// segment and appends new tracks to the last one while it has room, then to new segments after it; a segment left
// without tracks goes.
import type { TrackHeader } from './run-types.js';
import type { TrackSlice } from './run-delta.js';

/** A segment closes at this many boxes (7 doubles each: 224 KiB on SQLite, less in PostgreSQL's columns) … */
export const SEGMENT_BOXES = 4096;
/** … or at this many tracks, whichever comes first; a track longer than SEGMENT_BOXES has a segment of its own. */
export const SEGMENT_TRACKS = 256;

/** One segment as stored: its number and its tracks' headers (the boxes are read only where needed). */
export interface SegmentHeaders {
  segment: number;
  headers: TrackHeader[];
}

export interface SegmentWrite {
  segment: number;
  tracks: TrackSlice[];
}

/** Stands for the boxes of a track whose segment a patch did not read. */
export const UNREAD: Float64Array = new Float64Array(0);

export interface SegmentLimits {
  boxes: number;
  tracks: number;
}
const LIMITS: SegmentLimits = { boxes: SEGMENT_BOXES, tracks: SEGMENT_TRACKS };

const fits = (limits: SegmentLimits, tracks: number, boxes: number, n: number) =>
  tracks === 0 || (tracks < limits.tracks && boxes + n <= limits.boxes);

/** The tracks cut into segments numbered from `first`, each filled as far as the limits allow. */
export function splitTracks(tracks: TrackSlice[], first = 0, limits = LIMITS): SegmentWrite[] {
  const out: SegmentWrite[] = [];
  let current: TrackSlice[] = [];
  let boxes = 0;
  for (const t of tracks) {
    if (!fits(limits, current.length, boxes, t.header.n)) {
      out.push({ segment: first + out.length, tracks: current });
      current = [];
      boxes = 0;
    }
    current.push(t);
    boxes += t.header.n;
  }
  if (current.length > 0) out.push({ segment: first + out.length, tracks: current });
  return out;
}

/**
 * The segments a patch must read: those holding a track it replaces or deletes, and the last one when it adds
 * tracks (they are appended there while it has room). One pass over the headers, looking up only the patch's ids.
 */
export function segmentsToRead(segments: SegmentHeaders[], upsertIds: string[], deletes: string[]): number[] {
  const ids = new Set([...upsertIds, ...deletes]);
  const wanted = new Set<number>();
  let found = 0;
  for (const s of segments)
    for (const h of s.headers)
      if (ids.has(h.id)) {
        wanted.add(s.segment);
        found++;
      }
  const last = segments.at(-1);
  if (found < ids.size && last) wanted.add(last.segment);
  return [...wanted].sort((a, b) => a - b);
}

/**
 * The run's tracks in order, with the boxes of the segments read (`read`: segment → its tracks) and UNREAD
 * columns for every other track.
 */
export function tracksOfSegments(segments: SegmentHeaders[], read: ReadonlyMap<number, TrackSlice[]>): TrackSlice[] {
  const out: TrackSlice[] = [];
  for (const s of segments) {
    const tracks = read.get(s.segment);
    if (tracks) out.push(...tracks);
    else for (const header of s.headers) out.push({ header, columns: UNREAD });
  }
  return out;
}

/**
 * What a patch writes: the segments whose tracks changed, with their new tracks, and the segments left empty.
 * `next` is the run's tracks after the patch (existing tracks in place, new ones at the end: spliceTracks), and
 * `changed` the ids replaced, added or deleted.
 */
export function patchSegments(
  segments: SegmentHeaders[],
  next: TrackSlice[],
  changed: ReadonlySet<string>,
  limits = LIMITS,
): { write: SegmentWrite[]; drop: number[] } {
  // `next` keeps the existing tracks in their order, without the deleted ones, and the added ones after them: walk
  // it beside the segments' headers rather than index every id of the run.
  const write: SegmentWrite[] = [];
  const drop: number[] = [];
  let at = 0;
  const last = segments.at(-1);
  for (const s of segments) {
    const tracks: TrackSlice[] = [];
    let touched = false;
    for (const h of s.headers) {
      const t = next[at];
      if (t !== undefined && t.header.id === h.id) {
        tracks.push(t);
        at++;
      } else if (!changed.has(h.id)) throw new Error(`track "${h.id}" is neither kept nor changed by the patch`);
      if (changed.has(h.id)) touched = true;
    }
    if (s === last && at < next.length) {
      // New tracks fill the last segment while it has room; the rest start segments after it.
      let boxes = tracks.reduce((sum, t) => sum + t.header.n, 0);
      while (at < next.length && fits(limits, tracks.length, boxes, next[at]!.header.n)) {
        const t = next[at++]!;
        tracks.push(t);
        boxes += t.header.n;
        touched = true;
      }
    }
    if (!touched) continue;
    if (tracks.length === 0) drop.push(s.segment);
    else write.push({ segment: s.segment, tracks });
  }
  write.push(...splitTracks(next.slice(at), (last?.segment ?? -1) + 1, limits));
  for (const w of write)
    if (w.tracks.some((t) => t.columns === UNREAD && t.header.n > 0))
      throw new Error(`segment ${w.segment} would be written without the boxes of a track it holds`);
  return { write, drop };
}

/** The JSON arrays of consecutive segments' track headers as one array, as runs.tracks holds it. */
export function joinTrackHeaders(texts: string[]): string {
  const inner = texts.map((t) => t.trim().slice(1, -1).trim()).filter((t) => t !== '');
  return `[${inner.join(',')}]`;
}
