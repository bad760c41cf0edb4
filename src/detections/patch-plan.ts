// What a patch writes, from what it read of the run (patch-target.ts) and the tracks it changes. Pure.
import type { SummaryRow } from './queries.js';
import { boxCountOf, reverseDelta, spliceTracks, type ReverseDelta, type TrackSlice } from './run-delta.js';
import { patchSegments, splitTracks, type SegmentChange, type SegmentCount } from './run-segments.js';

/** What a patch read: the whole run while its boxes are one blob, else the segments holding its tracks. */
export type PatchSource =
  | { whole: TrackSlice[] }
  | {
      whole?: undefined;
      segments: SegmentCount[];
      located: ReadonlyMap<string, number>;
      read: ReadonlyMap<number, TrackSlice[]>;
    };

export interface PatchPlan {
  delta: ReverseDelta;
  tracksStored: number;
  boxesStored: number;
  segments: SegmentChange;
}

/**
 * The run after the patch as segments to write, with the delta back to it. A run still in one blob is split into
 * segments whole; a run in segments changes only the segments read. Undefined when those disagree with the index
 * (the run changed while it was read).
 */
export function planPatch(
  run: Pick<SummaryRow, 'boxes_stored'>,
  source: PatchSource,
  change: { changing: TrackSlice[]; deletes: ReadonlySet<string>; changed: ReadonlySet<string> },
): PatchPlan | undefined {
  if (source.whole) {
    const next = spliceTracks(source.whole, change.changing, change.deletes);
    return {
      delta: reverseDelta(source.whole, next, change.changed),
      tracksStored: next.length,
      boxesStored: boxCountOf(next),
      segments: { all: true, write: splitTracks(next) },
    };
  }
  const patched = patchSegments(source.segments, source.located, source.read, change.changing, change.deletes);
  if (!patched) return undefined;
  return {
    delta: patched.delta,
    tracksStored: patched.tracks,
    boxesStored: Number(run.boxes_stored) + patched.boxDifference,
    segments: { all: false, write: patched.write, drop: patched.drop, index: patched.index },
  };
}
