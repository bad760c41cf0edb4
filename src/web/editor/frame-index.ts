// A run's boxes re-laid by frame (compressed rows: the boxes of frame f are start[f]..start[f+1]), so
// drawing one frame touches only that frame's boxes, never the whole run.
import type { Track } from '../types.js';

export interface FrameIndex {
  /** One past the last frame with a box. */
  frames: number;
  /** Offsets into the box arrays, length frames + 1. */
  start: Uint32Array;
  x: Float32Array;
  y: Float32Array;
  w: Float32Array;
  h: Float32Array;
  /** Box confidence, else the track's, else NaN (always shown). */
  conf: Float32Array;
  /** Track index and position of the box within its track's (frame-sorted) boxes. */
  track: Uint32Array;
  slot: Uint32Array;
}

export function boxConfidence(track: Track, boxIndex: number): number {
  const c = track.boxes[boxIndex]?.confidence ?? track.confidence;
  return typeof c === 'number' && Number.isFinite(c) ? c : Number.NaN;
}

export function buildFrameIndex(tracks: readonly Track[]): FrameIndex {
  let total = 0;
  let frames = 0;
  for (const t of tracks) {
    total += t.boxes.length;
    for (const b of t.boxes) if (b.frame + 1 > frames) frames = b.frame + 1;
  }
  const start = new Uint32Array(frames + 1);
  for (const t of tracks) for (const b of t.boxes) start[b.frame + 1]! += 1;
  for (let f = 0; f < frames; f++) start[f + 1]! += start[f]!;
  const fill = start.slice(0, frames);
  const index: FrameIndex = {
    frames,
    start,
    x: new Float32Array(total),
    y: new Float32Array(total),
    w: new Float32Array(total),
    h: new Float32Array(total),
    conf: new Float32Array(total),
    track: new Uint32Array(total),
    slot: new Uint32Array(total),
  };
  tracks.forEach((t, ti) => {
    t.boxes.forEach((b, bi) => {
      const i = fill[b.frame]!++;
      index.x[i] = b.x;
      index.y[i] = b.y;
      index.w[i] = b.w;
      index.h[i] = b.h;
      index.conf[i] = boxConfidence(t, bi);
      index.track[i] = ti;
      index.slot[i] = bi;
    });
  });
  return index;
}

/** Where box (track ti, slot bi) sits in the index, or -1. */
export function findInIndex(index: FrameIndex, frame: number, ti: number, bi: number): number {
  if (frame < 0 || frame >= index.frames) return -1;
  for (let i = index.start[frame]!; i < index.start[frame + 1]!; i++) {
    if (index.track[i] === ti && index.slot[i] === bi) return i;
  }
  return -1;
}

/** Boxes shown per frame at a confidence threshold (a box without confidence is always shown). */
export function countsPerFrame(index: FrameIndex, threshold: number, into: Uint32Array): void {
  const n = Math.min(index.frames, into.length);
  for (let f = 0; f < n; f++) {
    let c = 0;
    for (let i = index.start[f]!; i < index.start[f + 1]!; i++) {
      const conf = index.conf[i]!;
      if (!(conf < threshold)) c++;
    }
    into[f]! += c;
  }
}

/** The runs of frames a track is present in, as [first, last] pairs (a gap of more than one frame splits). */
export function presence(track: Track): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const b of track.boxes) {
    const last = spans[spans.length - 1];
    if (last && b.frame <= last[1] + 1) last[1] = Math.max(last[1], b.frame);
    else spans.push([b.frame, b.frame]);
  }
  return spans;
}
