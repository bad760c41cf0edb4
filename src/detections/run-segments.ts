// A run's tracks in segments: consecutive tracks with a few hundred KiB of boxes each, stored one row per segment
// (run_segments), so that a patch reads and rewrites only the segments holding the tracks it changes. Pure.
//
// Tracks keep their order across segments (segment numbers ascend with it). A patch replaces tracks in their
// segment and appends new tracks to the last one while it has room, then to new segments after it; a segment left
// without tracks goes. A patch finds its tracks' segments in an index of track id → segment (run_track_segments)
// and counts positions with the segments' track counts, so its work follows the segments it touches, not the run.
import { boxCountOf, type ReverseDelta, type TrackSlice } from './run-delta.js';

/** A segment closes at this many boxes (7 doubles each: 224 KiB on SQLite, less in PostgreSQL's columns) … */
export const SEGMENT_BOXES = 4096;
/** … or at this many tracks, whichever comes first; a track longer than SEGMENT_BOXES has a segment of its own. */
export const SEGMENT_TRACKS = 256;

/** One current segment as a patch first sees it: its number and how many tracks it holds (run_segments.track_count). */
export interface SegmentCount {
  segment: number;
  tracks: number;
}

export interface SegmentWrite {
  segment: number;
  tracks: TrackSlice[];
}

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
 * The segments a patch must read: those the track index places its ids in (`located`: id → segment), and the last
 * one when some id is not there (a new track joins the last segment while it has room).
 */
export function segmentsToRead(
  segments: SegmentCount[],
  located: ReadonlyMap<string, number>,
  ids: Iterable<string>,
): number[] {
  const wanted = new Set<number>();
  let adds = false;
  for (const id of ids) {
    const segment = located.get(id);
    if (segment === undefined) adds = true;
    else wanted.add(segment);
  }
  const last = segments.at(-1);
  if (adds && last) wanted.add(last.segment);
  return [...wanted].sort((a, b) => a - b);
}

/** What a patch writes, and what the run keeps to rebuild the content it replaces. */
export interface SegmentPatch {
  /** The segments whose tracks changed, with all their tracks after the patch; new segments after the last. */
  write: SegmentWrite[];
  /** The segments the patch left without tracks. */
  drop: number[];
  delta: ReverseDelta;
  /** The run's track count after the patch. */
  tracks: number;
  /** Boxes after the patch minus boxes before. */
  boxDifference: number;
  /** The track index's change: the ids deleted, and the segment of each added track. */
  index: TrackIndexChange;
}

export interface TrackIndexChange {
  remove: string[];
  add: Array<{ id: string; segment: number }>;
}

/**
 * A patch applied to the segments it read alone (`read`: segment → its tracks, as segmentsToRead named them from
 * the index's `located`): each changing track replaces the one with its id in place, or joins the end of the run
 * when the index has no such id; deleted ids go. The reverse delta's positions are indexes in the whole run,
 * counted from the other segments' track counts, so no other segment is read. Undefined when the segments read
 * disagree with the counts or the index (the run changed while it was read).
 */
export function patchSegments(
  segments: SegmentCount[],
  located: ReadonlyMap<string, number>,
  read: ReadonlyMap<number, TrackSlice[]>,
  changing: TrackSlice[],
  deletes: ReadonlySet<string>,
  limits = LIMITS,
): SegmentPatch | undefined {
  const replacements = new Map<string, TrackSlice>();
  const added: TrackSlice[] = [];
  for (const t of changing) {
    if (located.has(t.header.id)) replacements.set(t.header.id, t);
    else added.push(t);
  }
  const write: SegmentWrite[] = [];
  const drop: number[] = [];
  const delta: ReverseDelta = { positions: [], tracks: [], added: added.map((t) => t.header.id) };
  const index: TrackIndexChange = { remove: [], add: [] };
  let total = 0;
  let boxDifference = 0;
  let replaced = 0;
  let deleted = 0;
  let next = 0; // the first added track not placed yet
  let misplaced = false;
  const last = segments.at(-1);
  for (const s of segments) {
    const stored = read.get(s.segment);
    const offset = total;
    total += s.tracks;
    if (!stored) continue;
    if (stored.length !== s.tracks) return undefined;
    const tracks: TrackSlice[] = [];
    let boxes = 0;
    let touched = false;
    stored.forEach((t, i) => {
      const id = t.header.id;
      const replacement = replacements.get(id);
      const gone = deletes.has(id);
      if (replacement === undefined && !gone) {
        tracks.push(t);
        boxes += t.header.n;
        return;
      }
      if (located.get(id) !== s.segment) {
        misplaced = true;
        return;
      }
      delta.positions.push(offset + i);
      delta.tracks.push(t);
      boxDifference -= t.header.n;
      touched = true;
      if (gone) {
        deleted++;
        index.remove.push(id);
      } else {
        replaced++;
        tracks.push(replacement!);
        boxes += replacement!.header.n;
      }
    });
    if (s === last) {
      // New tracks fill the last segment while it has room; the rest start segments after it.
      while (next < added.length && fits(limits, tracks.length, boxes, added[next]!.header.n)) {
        const t = added[next++]!;
        tracks.push(t);
        boxes += t.header.n;
        index.add.push({ id: t.header.id, segment: s.segment });
        touched = true;
      }
    }
    if (!touched) continue;
    if (tracks.length === 0) drop.push(s.segment);
    else write.push({ segment: s.segment, tracks });
  }
  if (misplaced || replaced !== replacements.size || deleted !== deletes.size) return undefined;
  for (const w of splitTracks(added.slice(next), (last?.segment ?? -1) + 1, limits)) {
    write.push(w);
    for (const t of w.tracks) index.add.push({ id: t.header.id, segment: w.segment });
  }
  boxDifference += boxCountOf(changing);
  return { write, drop, delta, tracks: total - deleted + added.length, boxDifference, index };
}

/**
 * How a change moves the current segments: `all` replaces every one of them (and the whole track index) by those
 * written; otherwise the segments written and dropped replace theirs, and the index changes only for the tracks
 * deleted and added (a replaced track stays in its segment).
 */
export type SegmentChange =
  | { all: true; write: SegmentWrite[] }
  | { all: false; write: SegmentWrite[]; drop: number[]; index: TrackIndexChange };

/** The segments a change touches: those it writes or drops (undefined: all of them). */
export function touchedSegments(change: SegmentChange): number[] | undefined {
  return change.all ? undefined : [...change.write.map((w) => w.segment), ...change.drop];
}

/** The JSON arrays of consecutive segments' track headers as one array, as runs.tracks holds it. */
export function joinTrackHeaders(texts: string[]): string {
  const inner = texts.map((t) => t.trim().slice(1, -1).trim()).filter((t) => t !== '');
  return `[${inner.join(',')}]`;
}
