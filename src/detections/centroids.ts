// Spec §6: up to 10 box centres per track, evenly over its frame-sorted boxes, in a 100×100 space. Each centre
// keeps its box's frame, so that a region search can say where in the recording a match first appears.
import { MAX_CENTROIDS_PER_TRACK } from './limits.js';
import { BOX_STRIDE, type RunBoxes, type TrackHeader } from './run-types.js';

export const DEFAULT_CENTROID_LABEL = 'object';

export interface LabelCentroids {
  label: string;
  points: number[] /* x0, y0, x1, y1, … */;
  /** The frame of each point, in the points' order. */
  frames: number[];
}

/** Indices 0..n-1 picked evenly, first and last included, at most `max` of them. */
export function evenPicks(n: number, max = MAX_CENTROIDS_PER_TRACK): number[] {
  if (n <= max) return Array.from({ length: n }, (_, i) => i);
  return Array.from({ length: max }, (_, i) => Math.round((i * (n - 1)) / (max - 1)));
}

/** The label a track's centroids are keyed by. */
export const centroidLabel = (header: Pick<TrackHeader, 'label'>): string =>
  header.label && header.label !== '' ? header.label : DEFAULT_CENTROID_LABEL;

export function computeCentroids(run: RunBoxes): LabelCentroids[] {
  const byLabel = new Map<string, LabelCentroids>();
  let start = 0;
  for (const header of run.headers) {
    const label = centroidLabel(header);
    let centroids = byLabel.get(label);
    if (!centroids) {
      centroids = { label, points: [], frames: [] };
      byLabel.set(label, centroids);
    }
    for (const pick of evenPicks(header.n)) {
      const o = (start + pick) * BOX_STRIDE;
      centroids.points.push(
        (run.columns[o + 1]! + run.columns[o + 3]! / 2) * 100,
        (run.columns[o + 2]! + run.columns[o + 4]! / 2) * 100,
      );
      centroids.frames.push(run.columns[o]!);
    }
    start += header.n;
  }
  return [...byLabel.values()];
}

/** Points (and frames) are stored as little-endian float64: frames are any non-negative integer up to 2^53. */
export function encodePoints(points: number[]): Buffer {
  const values = Float64Array.from(points);
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
}

export function decodePoints(blob: Uint8Array): Float64Array {
  const copy = new Float64Array(blob.byteLength / 8);
  new Uint8Array(copy.buffer).set(blob);
  return copy;
}
