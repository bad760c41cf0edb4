// One box through spec §4.4 rules 2–7: geometry, positive size, pixel normalisation, frame tolerance, clamping.

export type BoxForm = 'xywh' | 'xyxy';
export type GeometryRejection = 'box_missing_geometry' | 'box_non_positive_dimensions' | 'box_out_of_frame';

/** How far (in normalised units) a corner may stand outside the frame and still be clamped in. */
export const FRAME_TOLERANCE = 0.01;

export interface NormalisedBox {
  x: number;
  y: number;
  w: number;
  h: number;
  form: BoxForm;
}

const present = (v: unknown): boolean => v !== undefined && v !== null;
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Canonical x,y,w,h in [0,1], written into `out` (one object reused for a whole run: a fresh one per box was
 * 250 000 allocations for a large run), or the reason the box is rejected. `scaleX`/`scaleY` are the frame size for
 * pixel input and 1 for normalised input. Widths are computed from the input's own numbers (not from
 * differences of normalised corners), so {x1:100,x2:300} on 1000 px gives exactly w = 0.2.
 */
export function normaliseGeometry(
  box: Record<string, unknown>,
  scaleX: number,
  scaleY: number,
  out: NormalisedBox,
): GeometryRejection | undefined {
  let x: number, y: number, w: number, h: number, form: BoxForm;
  if (present(box.x) && present(box.y) && present(box.w) && present(box.h)) {
    if (!finite(box.x) || !finite(box.y) || !finite(box.w) || !finite(box.h)) return 'box_missing_geometry';
    if (box.w <= 0 || box.h <= 0) return 'box_non_positive_dimensions';
    form = 'xywh';
    x = box.x / scaleX;
    y = box.y / scaleY;
    w = box.w / scaleX;
    h = box.h / scaleY;
  } else if (present(box.x1) && present(box.y1) && present(box.x2) && present(box.y2)) {
    if (!finite(box.x1) || !finite(box.y1) || !finite(box.x2) || !finite(box.y2)) return 'box_missing_geometry';
    if (box.x2 <= box.x1 || box.y2 <= box.y1) return 'box_non_positive_dimensions';
    form = 'xyxy';
    x = box.x1 / scaleX;
    y = box.y1 / scaleY;
    w = (box.x2 - box.x1) / scaleX;
    h = (box.y2 - box.y1) / scaleY;
  } else {
    return 'box_missing_geometry';
  }
  // Rule 3 held on the input's numbers, so a size that is 0 or infinite here came from the arithmetic: a width that
  // underflowed when divided by the frame (rule 6: clamped to nothing) or corners so far apart that their difference
  // overflowed (rule 5: such a box cannot fit the frame).
  if (!(w > 0) || !(h > 0) || !Number.isFinite(w) || !Number.isFinite(h)) return 'box_out_of_frame';
  const x2 = form === 'xyxy' ? (box.x2 as number) / scaleX : x + w;
  const y2 = form === 'xyxy' ? (box.y2 as number) / scaleY : y + h;
  if (x < -FRAME_TOLERANCE || y < -FRAME_TOLERANCE || x2 > 1 + FRAME_TOLERANCE || y2 > 1 + FRAME_TOLERANCE)
    return 'box_out_of_frame';
  if (x < 0 || x2 > 1) {
    const cx1 = Math.max(0, x);
    const cx2 = Math.min(1, x2);
    if (cx2 - cx1 <= 0) return 'box_out_of_frame';
    x = cx1;
    w = cx2 - cx1;
  }
  if (y < 0 || y2 > 1) {
    const cy1 = Math.max(0, y);
    const cy2 = Math.min(1, y2);
    if (cy2 - cy1 <= 0) return 'box_out_of_frame';
    y = cy1;
    h = cy2 - cy1;
  }
  // x + w can exceed 1 by an ulp without clamping; keep the invariant x + w <= 1 exact enough for callers.
  out.x = x;
  out.y = y;
  out.w = w;
  out.h = h;
  out.form = form;
  return undefined;
}
