// The comparison drawn over the frame: matched boxes solid, false positives dashed red, missed ground truth hollow
// orange, and a mark on the ground-truth box where an identity switch happens. Timeline: per-frame TP/FN/FP bars
// and the switches.
import type { Layer } from '../editor/layers.js';
import { type CompareOutput, FALSE_POSITIVE, MATCHED, MISSED } from './comparison.js';

export const COLORS = {
  matchedGt: '#30d158',
  matchedPred: '#64d2ff',
  falsePositive: '#ff3b30',
  missed: '#ff9500',
  switch: '#ff2dff',
};

export interface ActiveComparison {
  gt: Layer;
  pred: Layer;
  output: CompareOutput;
}

export function drawComparison(
  ctx: CanvasRenderingContext2D,
  cmp: ActiveComparison,
  frame: number,
  scale: number,
): void {
  const { width: W, height: H } = ctx.canvas;
  const line = Math.max(2, W / 320);
  ctx.globalAlpha = 1;
  const each = (
    layer: Layer,
    status: Uint8Array,
    want: number,
    paint: (x: number, y: number, w: number, h: number) => void,
  ) => {
    const { index } = layer;
    if (frame < 0 || frame >= index.frames) return;
    for (let i = index.start[frame]!; i < index.start[frame + 1]!; i++) {
      if (status[i] !== want) continue;
      paint(index.x[i]! * W, index.y[i]! * H, index.w[i]! * W, index.h[i]! * H);
    }
  };
  const { output } = cmp;
  ctx.lineWidth = line;
  // Matched: solid outlines, ground truth and prediction in their own colours.
  ctx.setLineDash([]);
  ctx.strokeStyle = COLORS.matchedGt;
  each(cmp.gt, output.gtStatus, MATCHED, (x, y, w, h) => ctx.strokeRect(x, y, w, h));
  ctx.strokeStyle = COLORS.matchedPred;
  each(cmp.pred, output.predStatus, MATCHED, (x, y, w, h) => ctx.strokeRect(x, y, w, h));
  // Missed ground truth: hollow (no fill), orange.
  ctx.strokeStyle = COLORS.missed;
  each(cmp.gt, output.gtStatus, MISSED, (x, y, w, h) => ctx.strokeRect(x, y, w, h));
  // False positive: dashed red outline over a faint red fill.
  ctx.strokeStyle = COLORS.falsePositive;
  ctx.fillStyle = `${COLORS.falsePositive}33`;
  ctx.setLineDash([4 * line, 3 * line]);
  each(cmp.pred, output.predStatus, FALSE_POSITIVE, (x, y, w, h) => {
    ctx.fillRect(x, y, w, h);
    ctx.strokeRect(x, y, w, h);
  });
  ctx.setLineDash([]);
  // Identity switch: a filled marker and "ID switch" above the ground-truth box whose match changed track.
  const { index } = cmp.gt;
  if (frame >= 0 && frame < index.frames) {
    ctx.font = `${Math.round(12 * scale)}px system-ui, sans-serif`;
    for (let i = index.start[frame]!; i < index.start[frame + 1]!; i++) {
      if (!output.gtSwitch[i]) continue;
      const x = index.x[i]! * W;
      const y = index.y[i]! * H;
      const s = 7 * scale;
      ctx.fillStyle = COLORS.switch;
      ctx.beginPath();
      ctx.moveTo(x, y - s);
      ctx.lineTo(x + s, y);
      ctx.lineTo(x, y + s);
      ctx.lineTo(x - s, y);
      ctx.closePath();
      ctx.fill();
      ctx.fillText('ID switch', x + s + 2, Math.max(12 * scale, y - 4));
    }
  }
}

/** Height (canvas pixels) of the comparison strip drawn at the top of the timeline. */
export const STRIP = 28;

/** Per-frame TP (green), FN (orange) and FP (red) stacked, and a magenta line through each identity switch. */
export function paintTimeline(ctx: CanvasRenderingContext2D, output: CompareOutput, W: number, H: number): void {
  const frames = output.tp.length;
  const fw = W / Math.max(1, frames);
  let max = 1;
  for (let f = 0; f < frames; f++) max = Math.max(max, output.tp[f]! + output.fn[f]! + output.fp[f]!);
  ctx.fillStyle = '#1c1c1e';
  ctx.fillRect(0, 0, W, STRIP);
  const unit = (STRIP - 4) / max;
  for (let f = 0; f < frames; f++) {
    let y = STRIP;
    for (const [n, color] of [
      [output.tp[f]!, COLORS.matchedGt],
      [output.fn[f]!, COLORS.missed],
      [output.fp[f]!, COLORS.falsePositive],
    ] as const) {
      if (n === 0) continue;
      const h = Math.max(1, n * unit);
      y -= h;
      ctx.fillStyle = color;
      ctx.fillRect(f * fw, y, Math.max(1, fw), h);
    }
  }
  ctx.fillStyle = COLORS.switch;
  for (const f of output.switchFrames) ctx.fillRect(Math.round((f + 0.5) * fw) - 1, 0, 3, H);
}

/** The switch frame within `pixels` (canvas) of a clicked frame, so a thin mark is easy to hit; else the frame. */
export function snapToSwitch(output: CompareOutput, frame: number, framesPerPixel: number, pixels = 5): number {
  let best = frame;
  let bestDistance = Math.max(1, pixels * framesPerPixel);
  for (const f of output.switchFrames) {
    const d = Math.abs(f - frame);
    if (d <= bestDistance) {
      best = f;
      bestDistance = d;
    }
  }
  return best;
}
