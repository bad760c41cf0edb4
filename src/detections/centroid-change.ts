// The centroid rows of a run after a patch, from the rows stored before it and the changed tracks alone. Pure.
//
// A label's row holds the centroids of every track with that label, so rebuilding it from the tracks would read
// all of the run's boxes. Each track's centroids depend on that track only (centroids.ts), so the row after the
// patch is the stored one without the old versions' points and with the new versions' points.
import type { Recording } from '../recordings/queries.js';
import { computeCentroids, decodePoints } from './centroids.js';
import { runOf, type TrackSlice } from './run-delta.js';
import { centroidRowOf, type CentroidRow } from './run-rows.js';

/** The labels whose rows change: those of the changed tracks' old and new versions. */
export function labelsOfChange(before: TrackSlice[], after: TrackSlice[]): Set<string> {
  return new Set([...computeCentroids(runOf(before)), ...computeCentroids(runOf(after))].map((c) => c.label));
}

/**
 * The new rows of the labels the change touches (a label left without points has none). `stored` holds those
 * labels' rows as they were; a point of an old version missing from its row means the index and the run disagree,
 * which is an error rather than a silent drift.
 */
export function centroidRowsAfter(
  recording: Pick<Recording, 'id' | 'orgId'>,
  stored: Array<{ label: string; points: Uint8Array }>,
  before: TrackSlice[],
  after: TrackSlice[],
): CentroidRow[] {
  const points = new Map<string, number[]>();
  for (const row of stored) points.set(row.label, Array.from(decodePoints(row.points)));
  for (const { label, points: old } of computeCentroids(runOf(before))) {
    const list = points.get(label);
    if (!list) throw new Error(`the centroid index holds no row for label "${label}" of a stored track`);
    removePoints(list, old, label);
  }
  for (const { label, points: added } of computeCentroids(runOf(after))) {
    const list = points.get(label);
    if (list) list.push(...added);
    else points.set(label, [...added]);
  }
  return [...points]
    .filter(([, list]) => list.length > 0)
    .map(([label, list]) => centroidRowOf(recording, { label, points: list }));
}

/** Removes each pair of `old` once from `list` (pairs x, y), in place, in one pass over `list`. */
function removePoints(list: number[], old: number[], label: string): void {
  const wanted = new Map<number, number[]>(); // x → the y of each pair still to remove
  for (let i = 0; i < old.length; i += 2) {
    const ys = wanted.get(old[i]!);
    if (ys) ys.push(old[i + 1]!);
    else wanted.set(old[i]!, [old[i + 1]!]);
  }
  let left = old.length / 2;
  let out = 0;
  for (let j = 0; j < list.length; j += 2) {
    const ys = left > 0 ? wanted.get(list[j]!) : undefined;
    const k = ys ? ys.indexOf(list[j + 1]!) : -1;
    if (k >= 0) {
      ys!.splice(k, 1);
      left--;
      continue;
    }
    list[out++] = list[j]!;
    list[out++] = list[j + 1]!;
  }
  if (left > 0) throw new Error(`the centroid index lacks a point of a stored track of label "${label}"`);
  list.length = out;
}
