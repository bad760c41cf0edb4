// Undo / redo over a layer's edits: each edit is recorded as the affected tracks before and after it (by id), so
// undoing puts back exactly those tracks and never copies the whole run. Pure: no DOM, no drawing.
import type { Track } from '../types.js';

/** One track as it was: where it stood in the run, or null when it did not exist. */
export interface TrackState {
  id: string;
  index: number;
  track: Track | null;
}

export interface Step<L> {
  layer: L;
  before: TrackState[];
  after: TrackState[];
}

const cloneTrack = (t: Track): Track => ({ ...t, boxes: t.boxes.map((b) => ({ ...b })) });

/** The tracks with these ids as they are now (deep copies), with their positions. */
export function snapshot(tracks: readonly Track[], ids: Iterable<string>): TrackState[] {
  const out: TrackState[] = [];
  for (const id of new Set(ids)) {
    const index = tracks.findIndex((t) => t.id === id);
    out.push({ id, index, track: index < 0 ? null : cloneTrack(tracks[index]!) });
  }
  return out;
}

/** Puts tracks back as a snapshot holds them: removed, replaced in place, or inserted where they stood. */
export function applySnapshot(tracks: Track[], states: readonly TrackState[]): void {
  for (const s of states) {
    const at = tracks.findIndex((t) => t.id === s.id);
    if (at >= 0) tracks.splice(at, 1);
  }
  // Insert in position order so that earlier positions are right when later ones are placed.
  for (const s of [...states].sort((a, b) => a.index - b.index)) {
    if (!s.track) continue;
    tracks.splice(Math.min(Math.max(0, s.index), tracks.length), 0, cloneTrack(s.track));
  }
}

/** The undo and redo stacks; a new step forgets what was undone. */
export class History<L> {
  private done: Step<L>[] = [];
  private undone: Step<L>[] = [];
  constructor(private readonly limit = 500) {}

  push(step: Step<L>): void {
    this.done.push(step);
    if (this.done.length > this.limit) this.done.shift();
    this.undone = [];
  }

  get canUndo(): boolean {
    return this.done.length > 0;
  }

  get canRedo(): boolean {
    return this.undone.length > 0;
  }

  /** The step to undo (apply its `before`), or undefined. */
  undo(): Step<L> | undefined {
    const s = this.done.pop();
    if (s) this.undone.push(s);
    return s;
  }

  /** The step to redo (apply its `after`), or undefined. */
  redo(): Step<L> | undefined {
    const s = this.undone.pop();
    if (s) this.done.push(s);
    return s;
  }

  /** Forgets the steps of one layer (saved or reloaded: its history starts again). */
  forget(layer: L): void {
    this.done = this.done.filter((s) => s.layer !== layer);
    this.undone = this.undone.filter((s) => s.layer !== layer);
  }
}
