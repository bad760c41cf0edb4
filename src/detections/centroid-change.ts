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
  stored: Array<{ label: string; points: Uint8Array; frames: Uint8Array | null }>,
  before: TrackSlice[],
  after: TrackSlice[],
): CentroidRow[] {
  const labels = new Map<string, LabelPoints>();
  // A row an older instance stored without frames keeps none: its points' frames are not known.
  const withoutFrames = new Set<string>();
  for (const row of stored) {
    const points = Array.from(decodePoints(row.points));
    const frames = row.frames ? Array.from(decodePoints(row.frames)) : new Array<number>(points.length / 2).fill(0);
    if (!row.frames) withoutFrames.add(row.label);
    labels.set(row.label, { points, frames });
  }
  for (const { label, points: old, frames } of computeCentroids(runOf(before))) {
    const list = labels.get(label);
    if (!list) throw new Error(`the centroid index holds no row for label "${label}" of a stored track`);
    removePoints(list, old, frames, label, withoutFrames.has(label));
  }
  for (const { label, points: added, frames } of computeCentroids(runOf(after))) {
    const list = labels.get(label);
    if (list) {
      list.points.push(...added);
      list.frames.push(...frames);
    } else labels.set(label, { points: [...added], frames: [...frames] });
  }
  return [...labels]
    .filter(([, list]) => list.points.length > 0)
    .map(([label, list]) => {
      const row = centroidRowOf(recording, { label, ...list });
      return withoutFrames.has(label) ? { ...row, frames: null } : row;
    });
}

interface LabelPoints {
  /** x, y pairs. */
  points: number[];
  /** One frame per pair. */
  frames: number[];
}

/**
 * Removes each point of `old` (pairs x, y with their frames) once from `list`, in place, in one pass. A row stored
 * without frames matches on x and y alone.
 */
function removePoints(list: LabelPoints, old: number[], oldFrames: number[], label: string, anyFrame: boolean): void {
  const wanted = new Map<number, Array<[number, number]>>(); // x → the (y, frame) of each point still to remove
  for (let i = 0; i < old.length; i += 2) {
    const entry: [number, number] = [old[i + 1]!, oldFrames[i >> 1]!];
    const ys = wanted.get(old[i]!);
    if (ys) ys.push(entry);
    else wanted.set(old[i]!, [entry]);
  }
  let left = old.length / 2;
  let out = 0;
  const { points, frames } = list;
  for (let j = 0; j < points.length; j += 2) {
    const ys = left > 0 ? wanted.get(points[j]!) : undefined;
    const y = points[j + 1]!;
    const f = frames[j >> 1]!;
    const k = ys ? ys.findIndex(([wy, wf]) => wy === y && (anyFrame || wf === f)) : -1;
    if (k >= 0) {
      ys!.splice(k, 1);
      left--;
      continue;
    }
    frames[out >> 1] = f;
    points[out++] = points[j]!;
    points[out++] = y;
  }
  if (left > 0) throw new Error(`the centroid index lacks a point of a stored track of label "${label}"`);
  points.length = out;
  frames.length = out / 2;
}
