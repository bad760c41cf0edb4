// What a patch reads of the run it changes: the track counts of its segments, the index entries of the patch's
// track ids, and the boxes only of the segments holding those tracks (and the last one when it adds tracks). A run
// whose boxes are still one blob (as POST stores them) is read whole, and its first patch writes it in segments.
import type { Store } from '../db/store.js';
import type { SummaryRow } from './queries.js';
import { readRunSnapshot } from './run-body-reader.js';
import { decodeBoxes } from './run-codec.js';
import { tracksOf, type TrackSlice } from './run-delta.js';
import type { PatchSource } from './patch-plan.js';
import { segmentsToRead } from './run-segments.js';
import type { TrackHeader } from './run-types.js';
import { CURRENT, locateTracks, readSegmentCounts, readSegmentTracks } from './segment-queries.js';

/** What a patch read (patch-plan.ts), with the run as read: the patch is written only if it is still this version. */
export type PatchTarget = PatchSource & { run: SummaryRow };

/**
 * `found` is the run's summary read before anything else: a change after it moves the run's version, so the
 * patch's conditional write refuses it (409) whatever this read saw. Undefined when the run is gone or its segments
 * changed under the read (the caller answers as for a changed run).
 */
export async function readPatchTarget(
  store: Store,
  orgId: string,
  found: SummaryRow,
  ids: string[],
): Promise<PatchTarget | undefined> {
  // Both at once: each is one indexed read, and on PostgreSQL each is a round trip.
  const [segments, located] = await Promise.all([
    readSegmentCounts(store.db, found.id),
    locateTracks(store.db, found.id, ids),
  ]);
  if (segments.length === 0) {
    const whole = await readRunSnapshot(store, orgId, found.id);
    if (!whole) return undefined;
    const headers = JSON.parse(whole.body.tracks) as TrackHeader[];
    return { run: whole.row, whole: tracksOf({ headers, columns: decodeBoxes(whole.body.boxes), count: 0 }) };
  }
  const needed = segmentsToRead(segments, located, ids);
  const read = await readSegmentTracks(store.db, found.id, CURRENT, needed);
  if (read.size !== needed.length) return undefined;
  return { run: found, segments, located, read };
}

/** The current versions of the patch's ids that the target holds (in a run in segments: where the index says). */
export function storedTracksOf(target: PatchTarget, ids: ReadonlySet<string>): Map<string, TrackSlice> {
  const byId = new Map<string, TrackSlice>();
  if (target.whole) {
    for (const t of target.whole) if (ids.has(t.header.id)) byId.set(t.header.id, t);
    return byId;
  }
  for (const [segment, tracks] of target.read)
    for (const t of tracks) if (target.located.get(t.header.id) === segment) byId.set(t.header.id, t);
  return byId;
}

/** The run's track count as the target saw it. */
export function trackCountOf(target: PatchTarget): number {
  if (target.whole) return target.whole.length;
  let n = 0;
  for (const s of target.segments) n += s.tracks;
  return n;
}
