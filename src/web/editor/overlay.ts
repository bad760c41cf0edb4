// Draws one frame of every visible layer. Boxes of a colour go into one path (one fill and one stroke per
// colour and layer), which keeps thousands of boxes per frame cheap.
import { boxConfidence } from './frame-index.js';
import { trackLabel, type Layer } from './layers.js';
import type { Track } from '../types.js';
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
  /** Only this part of the canvas is cleared and drawn again (the rest is left as the last draw made it). */
  clip?: Rect | undefined;
}

/** A part of the canvas, in canvas pixels: [x0, x1) × [y0, y1). */
export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
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
  const clip = opts.clip;
  if (clip) {
    ctx.save();
    ctx.beginPath();
    ctx.rect(clip.x0, clip.y0, clip.x1 - clip.x0, clip.y1 - clip.y0);
    ctx.clip();
    ctx.clearRect(clip.x0, clip.y0, clip.x1 - clip.x0, clip.y1 - clip.y0);
  } else ctx.clearRect(0, 0, W, H);
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
  if (clip) ctx.restore();
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
  const size = useTagFont(ctx, scale);
  ctx.textBaseline = 'bottom';
  for (let i = from; i < to && budget > 0; i++) {
    if (!shown(layer, i)) continue;
    budget--;
    const track = tracks[index.track[i]!]!;
    const text = tagText(track, index.slot[i]!, index.conf[i]!);
    const tag = tagRect(ctx, text, index.x[i]! * W, index.y[i]! * H, size, scale);
    ctx.fillStyle = color;
    ctx.fillRect(tag.x0, tag.y0, tag.x1 - tag.x0, tag.y1 - tag.y0);
    ctx.fillStyle = '#000000';
    ctx.fillText(text, tag.x0 + 2 * scale, tag.y1);
  }
  return budget;
}

/** Sets the label tags' font for `scale` and returns its size in pixels. */
function useTagFont(ctx: CanvasRenderingContext2D, scale: number): number {
  const size = Math.round(11 * scale);
  ctx.font = `${size}px sans-serif`;
  return size;
}

/** Where the tag of `text` stands over a box whose top left is (x, y), in canvas pixels (inside the canvas top). */
function tagRect(ctx: CanvasRenderingContext2D, text: string, x: number, y: number, size: number, scale: number): Rect {
  const bottom = Math.max(size + 2 * scale, y);
  return { x0: x, y0: bottom - size - 2 * scale, x1: x + ctx.measureText(text).width + 4 * scale, y1: bottom };
}

function tagText(track: Track, slot: number, conf: number): string {
  const box = track.boxes[slot];
  return `${box?.label ?? trackLabel(track)} #${track.id}${Number.isNaN(conf) ? '' : ` ${conf.toFixed(2)}`}`;
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

/** Which boxes of a frame are shown, in drawing order: label tags go to the first MAX_TAGS of them. */
export function shownOnFrame(layer: Layer, frame: number): Uint8Array {
  const { index } = layer;
  if (frame < 0 || frame >= index.frames) return new Uint8Array(0);
  const from = index.start[frame]!;
  const out = new Uint8Array(index.start[frame + 1]! - from);
  for (let i = 0; i < out.length; i++) out[i] = shown(layer, from + i) ? 1 : 0;
  return out;
}

export function sameShown(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Where one track draws on a frame (as it is, or as it was before an edit): its box and outline, its label tag
 * and its trail, padded for line widths and handles. Undefined when it has no box on the frame.
 */
export function trackArea(
  ctx: CanvasRenderingContext2D,
  track: Track,
  opts: Pick<DrawOptions, 'frame' | 'trail' | 'scale'>,
): Rect | undefined {
  const { width: W, height: H } = ctx.canvas;
  const f = opts.frame;
  const bi = track.boxes.findIndex((b) => b.frame === f);
  if (bi < 0) return undefined;
  const scale = opts.scale ?? 1;
  const b = track.boxes[bi]!;
  const r = { x0: b.x * W, y0: b.y * H, x1: (b.x + b.w) * W, y1: (b.y + b.h) * H };
  const size = useTagFont(ctx, scale);
  grow(r, tagRect(ctx, tagText(track, bi, boxConfidence(track, bi)), r.x0, r.y0, size, scale));
  for (let k = bi - 1; k >= 0 && track.boxes[k]!.frame >= f - opts.trail; k--) {
    const p = track.boxes[k]!;
    const cx = (p.x + p.w / 2) * W;
    const cy = (p.y + p.h / 2) * H;
    grow(r, { x0: cx, y0: cy, x1: cx, y1: cy });
  }
  return pad(r, Math.max(1.5, W / 400) + (3 + HANDLE) * scale + 2);
}

/** A shown box's outline (hover or selection) with its handles, or undefined. */
export function markArea(ref: BoxRef | undefined, W: number, H: number, scale: number): Rect | undefined {
  if (!ref || !isDrawn(ref)) return undefined;
  const { index } = ref.layer;
  const x = index.x[ref.i]! * W;
  const y = index.y[ref.i]! * H;
  return pad({ x0: x, y0: y, x1: x + index.w[ref.i]! * W, y1: y + index.h[ref.i]! * H }, (3 + HANDLE) * scale + 2);
}

function grow(r: Rect, by: Rect): void {
  r.x0 = Math.min(r.x0, by.x0);
  r.y0 = Math.min(r.y0, by.y0);
  r.x1 = Math.max(r.x1, by.x1);
  r.y1 = Math.max(r.y1, by.y1);
}

function pad(r: Rect, by: number): Rect {
  return { x0: r.x0 - by, y0: r.y0 - by, x1: r.x1 + by, y1: r.y1 + by };
}

/** The union of some areas in whole pixels, kept inside a W × H canvas; undefined when there are none. */
export function unionArea(areas: ReadonlyArray<Rect | undefined>, W: number, H: number): Rect | undefined {
  let out: Rect | undefined;
  for (const a of areas) {
    if (!a) continue;
    if (out) grow(out, a);
    else out = { ...a };
  }
  if (!out) return undefined;
  const r = {
    x0: Math.max(0, Math.floor(out.x0)),
    y0: Math.max(0, Math.floor(out.y0)),
    x1: Math.min(W, Math.ceil(out.x1)),
    y1: Math.min(H, Math.ceil(out.y1)),
  };
  return r.x1 > r.x0 && r.y1 > r.y0 ? r : undefined;
}
