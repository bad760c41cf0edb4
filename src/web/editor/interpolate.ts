// Keyframes and linear interpolation within a track: a box without the `interpolated` mark is a keyframe; the
// frames between two keyframes get boxes on the straight line between them, marked `interpolated: true`.
import type { Box, Track } from '../types.js';

/** a at t = 0, b at t = 1; t = 0.5 is exactly the midpoint (both products are exact, one rounding in the sum). */
const lerp = (a: number, b: number, t: number) => a * (1 - t) + b * t;

export function between(k0: Box, k1: Box, frame: number): Box {
  const t = (frame - k0.frame) / (k1.frame - k0.frame);
  const box: Box = {
    frame,
    x: lerp(k0.x, k1.x, t),
    y: lerp(k0.y, k1.y, t),
    w: lerp(k0.w, k1.w, t),
    h: lerp(k0.h, k1.h, t),
    interpolated: true,
  };
  if (k0.label !== undefined && k0.label === k1.label) box.label = k0.label;
  return box;
}

/**
 * Fills the frames between the keyframes around `frame` (the segments before and after it) with interpolated
 * boxes, replacing the interpolated boxes there; boxes outside those two segments are not touched. Boxes stay
 * sorted by frame.
 */
export function interpolateAround(track: Track, frame: number): void {
  const keys = track.boxes.filter((b) => !b.interpolated);
  const k = keys.findIndex((b) => b.frame >= frame);
  // The keyframes that bound the two segments next to `frame`.
  const at = k < 0 ? keys.length : k;
  const onKey = k >= 0 && keys[k]!.frame === frame;
  const lo = keys[at - 1];
  const hi = keys[onKey ? at + 1 : at];
  const mid = onKey ? keys[at] : undefined;
  const segments: Array<[Box, Box]> = [];
  if (mid) {
    if (lo) segments.push([lo, mid]);
    if (hi) segments.push([mid, hi]);
  } else if (lo && hi) segments.push([lo, hi]);
  if (segments.length === 0) return;
  const from = segments[0]![0].frame;
  const to = segments[segments.length - 1]![1].frame;
  const kept = track.boxes.filter((b) => b.frame <= from || b.frame >= to || !b.interpolated);
  const filled: Box[] = [];
  for (const [a, b] of segments) for (let f = a.frame + 1; f < b.frame; f++) filled.push(between(a, b, f));
  track.boxes = [...kept, ...filled].sort((a, b) => a.frame - b.frame);
}

/**
 * Toggles the box at `frame`: a keyframe becomes interpolated (recomputed from its neighbouring keyframes, or
 * kept as it is at a track's end), an interpolated box becomes a keyframe where it stands.
 */
export function toggleKeyframe(track: Track, frame: number): void {
  const box = track.boxes.find((b) => b.frame === frame);
  if (!box) return;
  if (box.interpolated) {
    delete box.interpolated;
    return;
  }
  const keys = track.boxes.filter((b) => !b.interpolated && b !== box);
  const lo = [...keys].reverse().find((b) => b.frame < frame);
  const hi = keys.find((b) => b.frame > frame);
  box.interpolated = true;
  if (lo && hi) interpolateAround(track, frame);
}

/** Adds a keyframe at `frame` where the track has no box: a copy of the nearest box, then fills around it. */
export function addKeyframe(track: Track, frame: number): Box | undefined {
  if (track.boxes.length === 0 || track.boxes.some((b) => b.frame === frame)) return undefined;
  let near = track.boxes[0]!;
  for (const b of track.boxes) if (Math.abs(b.frame - frame) < Math.abs(near.frame - frame)) near = b;
  const box: Box = { frame, x: near.x, y: near.y, w: near.w, h: near.h };
  if (near.label !== undefined) box.label = near.label;
  track.boxes = [...track.boxes, box].sort((a, b) => a.frame - b.frame);
  interpolateAround(track, frame);
  return box;
}
