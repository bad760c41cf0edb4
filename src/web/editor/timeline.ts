// The timeline under the video: per-frame detection counts on top, each track's presence (Gantt) below,
// and the playhead. The static part is drawn once into an offscreen canvas; a frame change only blits it.
import { FrameCounts } from './frame-counts.js';
import { presence } from './frame-index.js';
import { trackLabel, type Layer } from './layers.js';
import { PALETTE } from './palette.js';
import {
  changedRows,
  dirtyBands,
  type PaintedRow,
  type RowGeometry,
  rowGeometry,
  rowsInBand,
} from './timeline-rows.js';
import type { Box, Track } from '../types.js';

type Spans = Array<[number, number]>;

function sameCounts(a: Uint32Array | undefined, b: Uint32Array): boolean {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

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
  private spans = new WeakMap<Track, { boxes: Box[]; n: number; spans: Spans; row?: PaintedRow }>();
  /**
   * Each layer's rows as last made, with what they were made from: after an edit that moved no track (the index
   * kept its ids), only the forgotten tracks' rows are made again.
   */
  private layerRows = new WeakMap<
    Layer,
    { version: number; ids: readonly string[]; slots: Uint8Array; alpha: number; rowH: number; rows: PaintedRow[] }
  >();
  /** The tracks forget() was given since the last rebuild. */
  private forgotten = new Set<Track>();
  /** Each layer's boxes per frame, recounted only where an edit wrote. */
  private frameCounts = new FrameCounts<Layer>();
  /** What the background holds now: the rows compare against it to repaint only what an edit changed. */
  private painted:
    | { W: number; H: number; frames: number; rows: PaintedRow[]; counts: Uint32Array; decorated: boolean }
    | undefined;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    public frames: number,
  ) {}

  /** Drops the kept presence of tracks an edit changed. */
  forget(tracks: Iterable<Track>): void {
    for (const t of tracks) {
      this.spans.delete(t);
      this.forgotten.add(t);
    }
  }

  private presenceOf(track: Track): { spans: Spans; row?: PaintedRow } {
    const kept = this.spans.get(track);
    if (kept && kept.boxes === track.boxes && kept.n === track.boxes.length) return kept;
    const entry = { boxes: track.boxes, n: track.boxes.length, spans: presence(track) };
    this.spans.set(track, entry);
    return entry;
  }

  /**
   * Re-renders counts and presence bars; call when layers, visibility, thresholds or boxes change. When the rows
   * are the same in number and size as last time, only the rows that paint differently are repainted (an edit
   * touches a few tracks of thousands); otherwise, or with a decoration on top, everything is.
   */
  rebuild(layers: readonly Layer[]): void {
    const { width: W, height: H } = this.canvas;
    const frames = Math.max(1, this.frames);
    const counts = new Uint32Array(frames);
    const visible = layers.filter((l) => l.visible);
    for (const layer of visible) {
      const shown = this.frameCounts.of(layer, layer.index, layer.threshold, frames);
      for (let f = 0; f < frames; f++) counts[f]! += shown[f]!;
    }
    const rowCount = visible.reduce((n, l) => n + l.tracks.length, 0);
    const g = rowGeometry(rowCount, COUNTS_HEIGHT + 2, H - COUNTS_HEIGHT - 2);
    const rows = this.rowsOf(layers, g.rowH);
    const before = this.painted;
    const decorated = this.decorate !== undefined;
    const same = before && !decorated && !before.decorated && before.W === W && before.H === H;
    const changed = same && before.frames === frames ? changedRows(before.rows, rows) : undefined;
    const countsChanged = !before || !sameCounts(before.counts, counts);
    this.painted = { W, H, frames, rows, counts, decorated };
    this.counts = counts;
    const ctx = this.background.getContext('2d')!;
    if (changed && changed.length <= rows.length / 4) {
      if (countsChanged) {
        this.clear(ctx, 0, COUNTS_HEIGHT + 2);
        this.paintCounts(ctx, W / frames);
      }
      for (const [from, to] of dirtyBands(changed, g)) {
        ctx.save();
        ctx.beginPath();
        ctx.rect(0, from, W, to - from);
        ctx.clip();
        this.clear(ctx, from, to);
        const [first, last] = rowsInBand(from, to, rows.length, g);
        this.paintRows(ctx, rows, first, last, g, W / frames);
        ctx.restore();
      }
      return;
    }
    this.background.width = W;
    this.background.height = H;
    this.clear(ctx, 0, H);
    this.paintCounts(ctx, W / frames);
    if (g.rowH * rowCount > 0) this.paintRows(ctx, rows, 0, rows.length - 1, g, W / frames);
    ctx.globalAlpha = 1;
    this.decorate?.(ctx, W, H);
  }

  /** What each visible track's row paints, in row order. */
  private rowsOf(layers: readonly Layer[], rowH: number): PaintedRow[] {
    const rows: PaintedRow[] = [];
    for (const layer of layers) {
      // A hidden layer's rows are made whole when it shows again.
      if (!layer.visible) {
        this.layerRows.delete(layer);
        continue;
      }
      const slots = layer.colorBy === 'label' ? layer.slotByLabel : layer.slotByTrack;
      const alpha = Math.max(0.3, layer.opacity);
      const { index } = layer;
      const kept = this.layerRows.get(layer);
      const follows =
        kept &&
        (kept.version === index.version || kept.version === index.changed?.from) &&
        kept.ids === index.ids &&
        kept.slots === slots &&
        kept.alpha === alpha &&
        kept.rowH === rowH &&
        kept.rows.length === layer.tracks.length;
      if (kept && follows) {
        for (const t of this.forgotten) {
          const ti = layer.tracks.indexOf(t);
          if (ti >= 0) kept.rows[ti] = this.rowOf(t, PALETTE[slots[ti]!]!, alpha, rowH);
        }
        kept.version = index.version;
      } else {
        const made = layer.tracks.map((t, ti) => this.rowOf(t, PALETTE[slots[ti]!]!, alpha, rowH));
        this.layerRows.set(layer, { version: index.version, ids: index.ids, slots, alpha, rowH, rows: made });
      }
      for (const row of this.layerRows.get(layer)!.rows) rows.push(row);
    }
    this.forgotten.clear();
    return rows;
  }

  /** What one track's row paints: the row painted last time when it is the same (changedRows passes over it). */
  private rowOf(track: Track, color: string, alpha: number, rowH: number): PaintedRow {
    const kept = this.presenceOf(track);
    const { spans } = kept;
    // Rows tall enough to read carry the track's name at its start.
    const name = rowH >= 9 && spans.length > 0 ? `${trackLabel(track)} #${track.id}` : '';
    const last = kept.row;
    if (last && last.color === color && last.alpha === alpha && last.name === name) return last;
    kept.row = { spans, color, alpha, name };
    return kept.row;
  }

  private clear(ctx: CanvasRenderingContext2D, from: number, to: number): void {
    ctx.globalAlpha = 1;
    ctx.fillStyle = '#1c1c1e';
    ctx.fillRect(0, from, this.background.width, to - from);
  }

  private paintCounts(ctx: CanvasRenderingContext2D, fw: number): void {
    let max = 1;
    for (const c of this.counts) if (c > max) max = c;
    ctx.globalAlpha = 1;
    ctx.fillStyle = '#8e8e93';
    for (let f = 0; f < this.counts.length; f++) {
      const c = this.counts[f]!;
      if (c === 0) continue;
      const h = Math.max(1, (c / max) * (COUNTS_HEIGHT - 4));
      ctx.fillRect(f * fw, COUNTS_HEIGHT - h, Math.max(1, fw), h);
    }
  }

  private paintRows(
    ctx: CanvasRenderingContext2D,
    rows: readonly PaintedRow[],
    first: number,
    last: number,
    g: RowGeometry,
    fw: number,
  ): void {
    for (let r = first; r <= last; r++) {
      const row = rows[r]!;
      const y = g.top + r * g.rowH;
      ctx.globalAlpha = row.alpha;
      ctx.fillStyle = row.color;
      for (const [a, b] of row.spans) ctx.fillRect(a * fw, y, Math.max(1, (b - a + 1) * fw), g.barH);
      if (row.name) {
        ctx.font = `${Math.min(12, Math.floor(g.rowH - 2))}px sans-serif`;
        ctx.textBaseline = 'bottom';
        ctx.fillStyle = '#000000';
        ctx.fillText(row.name, row.spans[0]![0] * fw + 2, y + g.rowH - 1);
      }
    }
    ctx.globalAlpha = 1;
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
