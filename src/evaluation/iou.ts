/**
 * Box IoU as the references compute it. The two references round differently (TrackEval converts to corners first
 * and takes the area from the corners; pycocotools multiplies width by height), and a tie at a threshold goes the
 * way the reference's own rounding sends it, so each has its own function with the reference's order of operations.
 */

import { EPS } from './numeric.js';

/**
 * TrackEval's `_calculate_box_ious` (box_format 'xywh') for `a` (n boxes) against `b` (m boxes), both
 * `[x, y, w, h]` packed from `aOffset`/`bOffset` (in boxes). Writes the n × m matrix row-major into `out` at `outOffset`.
 */
export function trackEvalIou(
  a: Float64Array,
  aOffset: number,
  n: number,
  b: Float64Array,
  bOffset: number,
  m: number,
  out: Float64Array,
  outOffset = 0,
): void {
  for (let i = 0; i < n; i++) {
    const p = (aOffset + i) * 4;
    const ax0 = a[p]!;
    const ay0 = a[p + 1]!;
    const ax1 = ax0 + a[p + 2]!;
    const ay1 = ay0 + a[p + 3]!;
    const area1 = (ax1 - ax0) * (ay1 - ay0);
    const row = outOffset + i * m;
    for (let j = 0; j < m; j++) {
      const q = (bOffset + j) * 4;
      const bx0 = b[q]!;
      const by0 = b[q + 1]!;
      const bx1 = bx0 + b[q + 2]!;
      const by1 = by0 + b[q + 3]!;
      const iw = Math.min(ax1, bx1) - Math.max(ax0, bx0);
      const ih = Math.min(ay1, by1) - Math.max(ay0, by0);
      // No overlap: TrackEval's intersection is 0 and so is its IoU, whatever the union.
      if (!(iw > 0 && ih > 0)) {
        out[row + j] = 0;
        continue;
      }
      const area2 = (bx1 - bx0) * (by1 - by0);
      let intersection = iw * ih;
      let union = area1 + area2 - intersection;
      if (area1 <= EPS || area2 <= EPS || union <= EPS) intersection = 0;
      if (union <= EPS) union = 1;
      out[row + j] = intersection / union;
    }
  }
}

/**
 * pycocotools `maskUtils.iou` for boxes (`bbIou` in maskApi.c): `dt` (d boxes) against `gt` (g boxes), both
 * `[x, y, w, h]`; for a crowd ground truth the union is the detection's own area. Writes d × g row-major into `out`.
 */
export function cocoIou(
  dt: Float64Array,
  d: number,
  gt: Float64Array,
  g: number,
  isCrowd: Uint8Array,
  out: Float64Array,
): void {
  for (let k = 0; k < g; k++) {
    const gx = gt[k * 4]!;
    const gy = gt[k * 4 + 1]!;
    const gw = gt[k * 4 + 2]!;
    const gh = gt[k * 4 + 3]!;
    const ga = gw * gh;
    const crowd = isCrowd[k] !== 0;
    for (let i = 0; i < d; i++) {
      const dx = dt[i * 4]!;
      const dy = dt[i * 4 + 1]!;
      const dw = dt[i * 4 + 2]!;
      const dh = dt[i * 4 + 3]!;
      const da = dw * dh;
      out[i * g + k] = 0;
      const w = Math.min(dw + dx, gw + gx) - Math.max(dx, gx);
      if (w <= 0) continue;
      const h = Math.min(dh + dy, gh + gy) - Math.max(dy, gy);
      if (h <= 0) continue;
      const inter = w * h;
      const u = crowd ? da : da + ga - inter;
      out[i * g + k] = inter / u;
    }
  }
}
