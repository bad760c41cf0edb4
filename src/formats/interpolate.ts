// Linear interpolation over the stored columns: every frame between two consecutive boxes of a track gets a box,
// marked interpolated and without a confidence. Used on import (files that list keyframes only) and on export
// (tools that expect every frame).
import { BOX_STRIDE, type BoxExtras, type RunBoxes, type TrackHeader } from '../detections/run-types.js';

/** The extras of every filled box: one frozen object, as a run can have hundreds of thousands of them. */
const FILLED: BoxExtras = Object.freeze({ interpolated: true as const });

export interface Interpolated {
  boxes: RunBoxes;
  /** 1 for each box that was filled in, by box index (the track headers' extras mark them too, as stored). */
  interpolated: Uint8Array;
}

/** A new run with the gaps filled; `boxes` is not changed. Frames of each track must be sorted (they are, stored). */
export function interpolate(boxes: RunBoxes): Interpolated {
  const c = boxes.columns;
  let total = boxes.count;
  let start = 0;
  for (const h of boxes.headers) {
    for (let i = start + 1; i < start + h.n; i++)
      total += Math.max(0, c[i * BOX_STRIDE]! - c[(i - 1) * BOX_STRIDE]! - 1);
    start += h.n;
  }
  const out = new Float64Array(total * BOX_STRIDE);
  const marks = new Uint8Array(total);
  const headers: TrackHeader[] = [];
  let j = 0;
  let i = 0;
  for (const header of boxes.headers) {
    const first = j;
    let extras: Record<number, BoxExtras> | undefined;
    for (let k = 0; k < header.n; k++, i++) {
      if (k > 0) {
        const a = (i - 1) * BOX_STRIDE;
        const b = i * BOX_STRIDE;
        const from = c[a]!;
        const steps = c[b]! - from;
        for (let f = 1; f < steps; f++) {
          const t = f / steps;
          const o = j * BOX_STRIDE;
          out[o] = from + f;
          for (let m = 1; m <= 4; m++) out[o + m] = c[a + m]! + (c[b + m]! - c[a + m]!) * t;
          out[o + 5] = NaN;
          out[o + 6] = NaN;
          extras ??= {};
          extras[j - first] = FILLED;
          marks[j++] = 1;
        }
      }
      out.set(c.subarray(i * BOX_STRIDE, (i + 1) * BOX_STRIDE), j * BOX_STRIDE);
      const extra = header.extras?.[k];
      if (extra) {
        extras ??= {};
        extras[j - first] = extra;
      }
      j++;
    }
    const copy: TrackHeader = { ...header, n: j - first };
    if (extras) copy.extras = extras;
    else delete copy.extras;
    headers.push(copy);
  }
  return { boxes: { headers, columns: out, count: total }, interpolated: marks };
}
