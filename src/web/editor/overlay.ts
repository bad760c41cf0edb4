// Draws one frame of every visible layer. Boxes of a colour go into one path (one fill and one stroke per
// colour and layer), which keeps thousands of boxes per frame cheap.
import { trackLabel, type Layer } from './layers.js';
import { PALETTE } from './palette.js';

export interface BoxRef {
  layer: Layer;
  i: number;
}

export interface DrawOptions {
  frame: number;
  /** Trail length in frames (0: none). */
  trail: number;
  hover?: BoxRef | undefined;
  selected?: BoxRef | undefined;
  /** Canvas pixels per screen (CSS) pixel: handles and outlines keep one size on screen at any resolution. */
  scale?: number;
  /** Draw each box's label, track id and score above it, on its layer's colour. */
  labels?: boolean;
}

/** One colour per layer (the label tags' background and the layer's swatch), apart from the label colours. */
export const LAYER_COLORS = ['#ffffff', '#ffd60a', '#64d2ff', '#ff9f0a', '#bf5af2', '#30d158'] as const;
export const layerColor = (n: number) => LAYER_COLORS[n % LAYER_COLORS.length]!;

/**
 * At most this many label tags per frame: past it the tags cover each other and the frame (and drawing 400 texts
 * costs a 60 fps frame's budget); the hovered and selected boxes' read-out is in the side panel.
 */
export const MAX_TAGS = 150;

const shown = (layer: Layer, i: number) => !(layer.index.conf[i]! < layer.threshold);

/** Whether a box is drawn at all: only a drawn box can be hovered, picked or stay selected. */
export function isDrawn(ref: BoxRef): boolean {
  return ref.layer.visible && ref.layer.opacity > 0 && shown(ref.layer, ref.i);
}

export function drawOverlay(ctx: CanvasRenderingContext2D, layers: readonly Layer[], opts: DrawOptions): number {
  const { width: W, height: H } = ctx.canvas;
  ctx.clearRect(0, 0, W, H);
  const f = opts.frame;
  let drawn = 0;
  let tags = MAX_TAGS;
  const line = Math.max(1.5, W / 400);
  for (const [l, layer] of layers.entries()) {
    if (!layer.visible || layer.opacity <= 0) continue;
    const { index } = layer;
    if (f < 0 || f >= index.frames) continue;
    const from = index.start[f]!;
    const to = index.start[f + 1]!;
    if (from === to) continue;
    const slots = layer.colorBy === 'label' ? layer.slotByLabel : layer.slotByTrack;
    ctx.globalAlpha = layer.opacity;
    ctx.lineWidth = line;
    for (let s = 0; s < PALETTE.length; s++) {
      let any = false;
      ctx.beginPath();
      for (let i = from; i < to; i++) {
        if (slots[index.track[i]!] !== s || !shown(layer, i)) continue;
        ctx.rect(index.x[i]! * W, index.y[i]! * H, index.w[i]! * W, index.h[i]! * H);
        any = true;
        drawn++;
      }
      if (!any) continue;
      ctx.fillStyle = `${PALETTE[s]}26`;
      ctx.fill();
      ctx.strokeStyle = PALETTE[s]!;
      ctx.stroke();
      if (opts.trail > 0) drawTrails(ctx, layer, from, to, s, f - opts.trail, W, H);
    }
    if (opts.labels && tags > 0) tags = drawLabels(ctx, layer, from, to, layerColor(l), W, H, opts.scale ?? 1, tags);
  }
  ctx.globalAlpha = 1;
  const scale = opts.scale ?? 1;
  for (const [ref, color] of [
    [opts.hover, '#ffffff'],
    [opts.selected, '#ffff00'],
  ] as const) {
    if (!ref || !isDrawn(ref)) continue;
    const { index } = ref.layer;
    ctx.lineWidth = 3 * scale;
    ctx.strokeStyle = color;
    ctx.strokeRect(index.x[ref.i]! * W, index.y[ref.i]! * H, index.w[ref.i]! * W, index.h[ref.i]! * H);
    if (ref === opts.selected) drawHandles(ctx, ref, W, H, HANDLE * scale);
  }
  return drawn;
}

/** The label, track id and score of each shown box, in a tag of the layer's colour just above the box. */
function drawLabels(
  ctx: CanvasRenderingContext2D,
  layer: Layer,
  from: number,
  to: number,
  color: string,
  W: number,
  H: number,
  scale: number,
  budget: number,
): number {
  const { index, tracks } = layer;
  const size = Math.round(11 * scale);
  ctx.font = `${size}px sans-serif`;
  ctx.textBaseline = 'bottom';
  for (let i = from; i < to && budget > 0; i++) {
    if (!shown(layer, i)) continue;
    budget--;
    const track = tracks[index.track[i]!]!;
    const box = track.boxes[index.slot[i]!];
    const conf = index.conf[i]!;
    const text = `${box?.label ?? trackLabel(track)} #${track.id}${Number.isNaN(conf) ? '' : ` ${conf.toFixed(2)}`}`;
    const x = index.x[i]! * W;
    const y = Math.max(size + 2 * scale, index.y[i]! * H);
    const w = ctx.measureText(text).width + 4 * scale;
    ctx.fillStyle = color;
    ctx.fillRect(x, y - size - 2 * scale, w, size + 2 * scale);
    ctx.fillStyle = '#000000';
    ctx.fillText(text, x + 2 * scale, y);
  }
  return budget;
}

function drawTrails(
  ctx: CanvasRenderingContext2D,
  layer: Layer,
  from: number,
  to: number,
  slot: number,
  oldest: number,
  W: number,
  H: number,
) {
  const { index, tracks } = layer;
  const slots = layer.colorBy === 'label' ? layer.slotByLabel : layer.slotByTrack;
  ctx.beginPath();
  for (let i = from; i < to; i++) {
    if (slots[index.track[i]!] !== slot || !shown(layer, i)) continue;
    const boxes = tracks[index.track[i]!]!.boxes;
    let k = index.slot[i]!;
    ctx.moveTo((index.x[i]! + index.w[i]! / 2) * W, (index.y[i]! + index.h[i]! / 2) * H);
    while (--k >= 0 && boxes[k]!.frame >= oldest) {
      const b = boxes[k]!;
      ctx.lineTo((b.x + b.w / 2) * W, (b.y + b.h / 2) * H);
    }
  }
  ctx.strokeStyle = PALETTE[slot]!;
  ctx.stroke();
}

/** Corner handle size in screen (CSS) pixels. */
export const HANDLE = 6;

function drawHandles(ctx: CanvasRenderingContext2D, ref: BoxRef, W: number, H: number, size: number) {
  const { index } = ref.layer;
  ctx.fillStyle = '#ffff00';
  for (const [cx, cy] of corners(index.x[ref.i]! * W, index.y[ref.i]! * H, index.w[ref.i]! * W, index.h[ref.i]! * H)) {
    ctx.fillRect(cx - size / 2, cy - size / 2, size, size);
  }
}

export function corners(x: number, y: number, w: number, h: number): Array<[number, number]> {
  return [
    [x, y],
    [x + w, y],
    [x, y + h],
    [x + w, y + h],
  ];
}

/** The topmost shown box under a point (canvas pixels): the last layer drawn wins. */
export function hitTest(
  layers: readonly Layer[],
  frame: number,
  px: number,
  py: number,
  W: number,
  H: number,
): BoxRef | undefined {
  const nx = px / W;
  const ny = py / H;
  for (let l = layers.length - 1; l >= 0; l--) {
    const layer = layers[l]!;
    const { index } = layer;
    if (!layer.visible || layer.opacity <= 0 || frame < 0 || frame >= index.frames) continue;
    let best: number | undefined;
    let bestArea = Infinity;
    for (let i = index.start[frame]!; i < index.start[frame + 1]!; i++) {
      if (!shown(layer, i)) continue;
      const x = index.x[i]!;
      const y = index.y[i]!;
      const w = index.w[i]!;
      const h = index.h[i]!;
      // The smallest box under the point, so a box inside a larger one can still be picked.
      if (nx >= x && nx <= x + w && ny >= y && ny <= y + h && w * h < bestArea) {
        best = i;
        bestArea = w * h;
      }
    }
    if (best !== undefined) return { layer, i: best };
  }
  return undefined;
}

/** The shown boxes of a frame in drawing order, layer by layer: what the keyboard steps through (`n`, `Shift+n`). */
export function boxesOnFrame(layers: readonly Layer[], frame: number): BoxRef[] {
  const boxes: BoxRef[] = [];
  for (const layer of layers) {
    const { index } = layer;
    if (!layer.visible || layer.opacity <= 0 || frame < 0 || frame >= index.frames) continue;
    for (let i = index.start[frame]!; i < index.start[frame + 1]!; i++) if (shown(layer, i)) boxes.push({ layer, i });
  }
  return boxes;
}
