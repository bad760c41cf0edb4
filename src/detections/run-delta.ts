// A run's content as a list of tracks, and the reverse deltas that keep its earlier revisions (spec §9). Pure.
//
// Revision N is stored against revision N + 1: the tracks of N that differ from, or are absent in, N + 1, each with
// its index in N, and the ids of the tracks N + 1 added. N is rebuilt from N + 1 by dropping the added tracks and the
// changed ones, then putting N's versions back at their indexes: the tracks both share keep their relative order
// (a track that moved is stored as changed). A one-track edit of a large run so costs one track, not the run.
import { BOX_STRIDE, type RunBoxes, type TrackHeader } from './run-types.js';

/** One track: its header and its boxes' BOX_STRIDE doubles (a view into the run's columns where possible). */
export interface TrackSlice {
  header: TrackHeader;
  columns: Float64Array;
}

export interface ReverseDelta {
  /** Ascending indexes in the older revision of `tracks`. */
  positions: number[];
  tracks: TrackSlice[];
  /** Ids of the tracks the newer revision has and the older one had not. */
  added: string[];
}

/** The run's tracks, each viewing its part of the run's columns (no copy). */
export function tracksOf(run: RunBoxes): TrackSlice[] {
  const out: TrackSlice[] = new Array(run.headers.length);
  let start = 0;
  for (let t = 0; t < run.headers.length; t++) {
    const header = run.headers[t]!;
    out[t] = { header, columns: run.columns.subarray(start * BOX_STRIDE, (start + header.n) * BOX_STRIDE) };
    start += header.n;
  }
  return out;
}

/** The boxes of the tracks, all together. */
export function boxCountOf(tracks: readonly TrackSlice[]): number {
  let count = 0;
  for (const t of tracks) count += t.header.n;
  return count;
}

/** The tracks back as one run: their columns copied one after another. */
export function runOf(tracks: TrackSlice[]): RunBoxes {
  const count = boxCountOf(tracks);
  const columns = new Float64Array(count * BOX_STRIDE);
  let at = 0;
  for (const t of tracks) {
    columns.set(t.columns, at);
    at += t.columns.length;
  }
  return { headers: tracks.map((t) => t.header), columns, count };
}

const bytesOf = (a: Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** Same header and the same boxes, bit for bit (an absent value is the same NaN everywhere). */
export function sameTrack(a: TrackSlice, b: TrackSlice): boolean {
  return (
    a.header.n === b.header.n &&
    bytesOf(a.columns).equals(bytesOf(b.columns)) &&
    JSON.stringify(a.header) === JSON.stringify(b.header)
  );
}

/**
 * Patch semantics: each upserted track replaces the track with its id where it is, or is added at the end (in the
 * order given); deleted ids go.
 */
export function spliceTracks(current: TrackSlice[], upserts: TrackSlice[], deletes: ReadonlySet<string>): TrackSlice[] {
  const byId = new Map(upserts.map((t) => [t.header.id, t]));
  const out: TrackSlice[] = [];
  for (const t of current) {
    if (deletes.has(t.header.id)) continue;
    const replacement = byId.get(t.header.id);
    if (replacement) {
      out.push(replacement);
      byId.delete(t.header.id);
    } else out.push(t);
  }
  for (const t of byId.values()) out.push(t);
  return out;
}

/**
 * The delta that rebuilds `older` from `newer`. `changed`, when known (a patch), names every id whose track may
 * differ, and no other track moved: then only those are looked at. Otherwise every track is compared.
 */
export function reverseDelta(older: TrackSlice[], newer: TrackSlice[], changed?: ReadonlySet<string>): ReverseDelta {
  if (changed) return patchDelta(older, newer, changed);
  const newerIndex = new Map<string, number>();
  for (let j = 0; j < newer.length; j++) newerIndex.set(newer[j]!.header.id, j);
  const positions: number[] = [];
  const tracks: TrackSlice[] = [];
  let last = -1;
  older.forEach((t, i) => {
    const j = newerIndex.get(t.header.id);
    const kept = j !== undefined && j > last && sameTrack(t, newer[j]!);
    if (kept) last = j;
    else {
      positions.push(i);
      tracks.push(t);
    }
  });
  const olderIds = new Set(older.map((t) => t.header.id));
  const added = newer.filter((t) => !olderIds.has(t.header.id)).map((t) => t.header.id);
  return { positions, tracks, added };
}

/** reverseDelta of a patch: only the changed ids are looked up, so no index of the run's ids is built. */
function patchDelta(older: TrackSlice[], newer: TrackSlice[], changed: ReadonlySet<string>): ReverseDelta {
  const positions: number[] = [];
  const tracks: TrackSlice[] = [];
  const had = new Set<string>();
  older.forEach((t, i) => {
    if (!changed.has(t.header.id)) return;
    positions.push(i);
    tracks.push(t);
    had.add(t.header.id);
  });
  const added: string[] = [];
  if (had.size < changed.size)
    for (const t of newer) if (changed.has(t.header.id) && !had.has(t.header.id)) added.push(t.header.id);
  return { positions, tracks, added };
}

/** The older revision's tracks, from the newer one's and the delta between them. */
export function applyReverseDelta(newer: TrackSlice[], delta: ReverseDelta): TrackSlice[] {
  const drop = new Set(delta.added);
  for (const t of delta.tracks) drop.add(t.header.id);
  const kept = newer.filter((t) => !drop.has(t.header.id));
  const total = kept.length + delta.tracks.length;
  const out: TrackSlice[] = new Array(total);
  for (let i = 0, k = 0, p = 0; i < total; i++) {
    if (p < delta.positions.length && delta.positions[p] === i) out[i] = delta.tracks[p++]!;
    else out[i] = kept[k++]!;
  }
  return out;
}
