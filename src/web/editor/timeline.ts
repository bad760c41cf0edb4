// The timeline under the video: per-frame detection counts on top, each track's presence (Gantt) below,
// and the playhead. The static part is drawn once into an offscreen canvas; a frame change only blits it.
import { countsPerFrame, presence } from './frame-index.js';
import { trackLabel, type Layer } from './layers.js';
import { PALETTE } from './palette.js';
import type { Box, Track } from '../types.js';

type Spans = Array<[number, number]>;

export const COUNTS_HEIGHT = 28;

export class Timeline {
  private background: HTMLCanvasElement = document.createElement('canvas');
  counts = new Uint32Array(0);
  /** Painted over the static part after each rebuild (the comparison's per-frame strip and switches). */
  decorate?: ((ctx: CanvasRenderingContext2D, width: number, height: number) => void) | undefined;
  /**
   * Each track's presence, kept between rebuilds so that an edit does not walk every box of the run again. An
   * entry counts for the boxes array and length it was computed from; edits that keep both (a box moved, a
   * keyframe toggled) change no frame, and edits that change frames are also dropped by forget().
   */
  private spans = new WeakMap<Track, { boxes: Box[]; n: number; spans: Spans }>();

  constructor(
    private readonly canvas: HTMLCanvasElement,
    public frames: number,
  ) {}

  /** Drops the kept presence of tracks an edit changed. */
  forget(tracks: Iterable<Track>): void {
    for (const t of tracks) this.spans.delete(t);
  }

  private presenceOf(track: Track): Spans {
    const kept = this.spans.get(track);
    if (kept && kept.boxes === track.boxes && kept.n === track.boxes.length) return kept.spans;
    const spans = presence(track);
    this.spans.set(track, { boxes: track.boxes, n: track.boxes.length, spans });
    return spans;
  }

  /** Re-renders counts and presence bars; call when layers, visibility, thresholds or boxes change. */
  rebuild(layers: readonly Layer[]): void {
    const { width: W, height: H } = this.canvas;
    this.background.width = W;
    this.background.height = H;
    const ctx = this.background.getContext('2d')!;
    ctx.fillStyle = '#1c1c1e';
    ctx.fillRect(0, 0, W, H);
    const frames = Math.max(1, this.frames);
    this.counts = new Uint32Array(frames);
    const visible = layers.filter((l) => l.visible);
    for (const layer of visible) countsPerFrame(layer.index, layer.threshold, this.counts);
    let max = 1;
    for (const c of this.counts) if (c > max) max = c;
    const fw = W / frames;
    ctx.fillStyle = '#8e8e93';
    for (let f = 0; f < frames; f++) {
      const c = this.counts[f]!;
      if (c === 0) continue;
      const h = Math.max(1, (c / max) * (COUNTS_HEIGHT - 4));
      ctx.fillRect(f * fw, COUNTS_HEIGHT - h, Math.max(1, fw), h);
    }
    this.paintRows(ctx, visible, H, fw);
    ctx.globalAlpha = 1;
    this.decorate?.(ctx, W, H);
  }

  private paintRows(ctx: CanvasRenderingContext2D, visible: readonly Layer[], H: number, fw: number): void {
    const rows = visible.reduce((n, l) => n + l.tracks.length, 0);
    const area = H - COUNTS_HEIGHT - 2;
    if (rows === 0 || area <= 0) return;
    const rowH = area / rows;
    let row = 0;
    for (const layer of visible) {
      const slots = layer.colorBy === 'label' ? layer.slotByLabel : layer.slotByTrack;
      ctx.globalAlpha = Math.max(0.3, layer.opacity);
      layer.tracks.forEach((track, ti) => {
        ctx.fillStyle = PALETTE[slots[ti]!]!;
        const y = COUNTS_HEIGHT + 2 + row * rowH;
        const spans = this.presenceOf(track);
        for (const [a, b] of spans)
          ctx.fillRect(a * fw, y, Math.max(1, (b - a + 1) * fw), Math.max(1, rowH - (rowH > 3 ? 1 : 0)));
        // Rows tall enough to read carry the track's name at its start.
        if (rowH >= 9 && spans.length > 0) {
          const fill = ctx.fillStyle;
          ctx.font = `${Math.min(12, Math.floor(rowH - 2))}px sans-serif`;
          ctx.textBaseline = 'bottom';
          ctx.fillStyle = '#000000';
          ctx.fillText(`${trackLabel(track)} #${track.id}`, spans[0]![0] * fw + 2, y + rowH - 1);
          ctx.fillStyle = fill;
        }
        row++;
      });
    }
  }

  draw(frame: number): void {
    const ctx = this.canvas.getContext('2d')!;
    ctx.drawImage(this.background, 0, 0);
    const x = ((frame + 0.5) / Math.max(1, this.frames)) * this.canvas.width;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(Math.round(x) - 1, 0, 2, this.canvas.height);
  }

  /** The frame under a horizontal position in CSS pixels. */
  frameAt(offsetX: number): number {
    const width = this.canvas.clientWidth || this.canvas.width;
    const f = Math.floor((offsetX / width) * this.frames);
    return Math.min(this.frames - 1, Math.max(0, f));
  }

  /** The nearest frame before/after `frame` that shows a detection, or undefined. */
  neighbour(frame: number, direction: 1 | -1): number | undefined {
    for (let f = frame + direction; f >= 0 && f < this.counts.length; f += direction) if (this.counts[f]! > 0) return f;
    return undefined;
  }
}
