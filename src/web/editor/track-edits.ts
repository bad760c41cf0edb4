// Track-level corrections: a new track from a drawn box, a new label, a range of frames deleted, a track split
// at a frame, two tracks merged. Pure: they change the tracks array; the caller reindexes and records history.
import type { Box, Track } from '../types.js';

/** An id no track of the run uses: `new-1`, `new-2`, … (ids are text; the API keeps them as given). */
export function freshTrackId(tracks: readonly Track[], prefix = 'new'): string {
  const used = new Set(tracks.map((t) => String(t.id)));
  let n = 1;
  while (used.has(`${prefix}-${n}`)) n++;
  return `${prefix}-${n}`;
}

/** A new track of one box (normalized), added after the run's last track. */
export function addTrack(tracks: Track[], id: string, label: string, box: Omit<Box, 'interpolated'>): Track {
  const track: Track = { id, label, boxes: [{ ...box }] };
  tracks.push(track);
  return track;
}

/** A track's label: the track's own, and boxes that carried their own label follow it. */
export function relabel(track: Track, label: string): void {
  track.label = label;
  for (const b of track.boxes) if (b.label !== undefined) b.label = label;
}

/** Deletes the track's boxes in frames [from, to]; false when that would leave the track empty (delete it). */
export function deleteFrames(track: Track, from: number, to: number): boolean {
  const kept = track.boxes.filter((b) => b.frame < from || b.frame > to);
  if (kept.length === 0) return false;
  track.boxes = kept;
  return true;
}

/**
 * Splits a track at `frame`: its boxes from that frame on go to a new track (same label, class, confidence),
 * inserted right after it. Undefined when one side would be empty.
 */
export function splitTrack(tracks: Track[], index: number, frame: number, id: string): Track | undefined {
  const track = tracks[index]!;
  const before = track.boxes.filter((b) => b.frame < frame);
  const after = track.boxes.filter((b) => b.frame >= frame);
  if (before.length === 0 || after.length === 0) return undefined;
  const { boxes: _boxes, ...header } = track;
  const part: Track = { ...header, id, boxes: after };
  track.boxes = before;
  tracks.splice(index + 1, 0, part);
  return part;
}

/**
 * Merges track `from` into track `into`: the boxes of both, one per frame (where both have a box, `into`'s
 * keyframe wins over an interpolated box, else `into`'s), sorted by frame; `from` goes.
 */
export function mergeTracks(tracks: Track[], into: number, from: number): void {
  const a = tracks[into]!;
  const b = tracks[from]!;
  const byFrame = new Map<number, Box>();
  for (const box of b.boxes) byFrame.set(box.frame, box);
  for (const box of a.boxes) {
    const other = byFrame.get(box.frame);
    if (!other || !box.interpolated || other.interpolated) byFrame.set(box.frame, box);
  }
  a.boxes = [...byFrame.values()].sort((x, y) => x.frame - y.frame);
  tracks.splice(from, 1);
}

/**
 * Why track `otherId` cannot be merged into the track at `into`, in words, or undefined when it can: the id must
 * name another track of the layer, and the two must not both have a box on one frame (one object is not in two
 * places at once; that is two objects, or a box to delete first).
 */
export function mergeProblem(tracks: readonly Track[], into: number, otherId: string): string | undefined {
  const id = otherId.trim();
  const target = tracks[into]!;
  if (id === '') return 'Type the id of the track to merge into this one.';
  if (id === target.id) return `Track ${id} is the selected track: type the id of another track.`;
  const other = tracks.find((t) => t.id === id);
  if (!other) return `This layer has no track ${id}.`;
  const frames = new Set(target.boxes.map((b) => b.frame));
  const both = other.boxes.filter((b) => frames.has(b.frame)).map((b) => b.frame);
  if (both.length === 0) return undefined;
  const where = both.length === 1 ? `frame ${both[0]}` : `${both.length} frames (${both[0]}–${both[both.length - 1]})`;
  return `Tracks ${target.id} and ${id} both have a box on ${where}: delete those frames from one of them first.`;
}
