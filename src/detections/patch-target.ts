// What a patch reads of the run it changes: the track headers of every segment, and the boxes only of the segments
// holding the tracks it replaces or deletes (and the last one when it adds tracks). A run whose boxes are still one
// blob (as POST stores them) is read whole, and its first patch writes it in segments.
import type { Store } from '../db/store.js';
import type { SummaryRow } from './queries.js';
import { readRunSnapshot } from './run-body-reader.js';
import { decodeBoxes } from './run-codec.js';
import { tracksOf, type TrackSlice } from './run-delta.js';
import { segmentsToRead, tracksOfSegments, type SegmentHeaders } from './run-segments.js';
import type { TrackHeader } from './run-types.js';
import { CURRENT, readSegmentHeaders, readSegmentTracks } from './segment-queries.js';

export interface PatchTarget {
  /** The run as read: the patch is written only if it is still this version. */
  run: SummaryRow;
  /** Its current segments, or undefined while its boxes are one blob. */
  segments: SegmentHeaders[] | undefined;
  /** Its tracks in order; those of segments not read have UNREAD boxes. */
  tracks: TrackSlice[];
}

/**
 * `found` is the run's summary read before anything else: a change after it moves the run's version, so the
 * patch's conditional write refuses it (409) whatever this read saw. Undefined when the run is gone or its segments
 * changed under the read (the caller answers as for a changed run).
 */
export async function readPatchTarget(
  store: Store,
  orgId: string,
  found: SummaryRow,
  upsertIds: string[],
  deletes: string[],
): Promise<PatchTarget | undefined> {
  const segments = await readSegmentHeaders(store.db, found.id);
  if (segments.length === 0) {
    const whole = await readRunSnapshot(store, orgId, found.id);
    if (!whole) return undefined;
    const headers = JSON.parse(whole.body.tracks) as TrackHeader[];
    return {
      run: whole.row,
      segments: undefined,
      tracks: tracksOf({ headers, columns: decodeBoxes(whole.body.boxes), count: 0 }),
    };
  }
  const needed = segmentsToRead(segments, upsertIds, deletes);
  const read = await readSegmentTracks(store.db, found.id, CURRENT, needed);
  if (read.size !== needed.length) return undefined;
  for (const [segment, tracks] of read) {
    const headers = segments.find((s) => s.segment === segment)?.headers;
    if (!headers || headers.length !== tracks.length || headers.some((h, i) => h.id !== tracks[i]!.header.id))
      return undefined;
  }
  return { run: found, segments, tracks: tracksOfSegments(segments, read) };
}
