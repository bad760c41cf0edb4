// Corrections to a layer (move, resize or delete a box, delete a track) and the POST /detections body that
// saves them: the same runId replaces the run; a new layer is a run of its own with source.kind "human".
import type { Box } from '../types.js';
import { layerName, reindex, type Layer } from './layers.js';
import { trackBody } from './patch.js';

const MIN_SIZE = 0.002;
const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

function boxAt(layer: Layer, i: number): Box {
  return layer.tracks[layer.index.track[i]!]!.boxes[layer.index.slot[i]!]!;
}

function write(layer: Layer, i: number, x: number, y: number, w: number, h: number): void {
  const box = boxAt(layer, i);
  box.x = x;
  box.y = y;
  box.w = w;
  box.h = h;
  delete box.interpolated; // placed by a person now: a keyframe
  layer.index.x[i] = x;
  layer.index.y[i] = y;
  layer.index.w[i] = w;
  layer.index.h[i] = h;
  layer.edited = true;
}

/** Moves box i so its top-left corner is at (x, y) (normalized), kept inside the frame. */
export function moveBox(layer: Layer, i: number, x: number, y: number): void {
  const box = boxAt(layer, i);
  write(layer, i, Math.min(clamp01(x), 1 - box.w), Math.min(clamp01(y), 1 - box.h), box.w, box.h);
}

export type Corner = 0 | 1 | 2 | 3; // top-left, top-right, bottom-left, bottom-right

/** Drags one corner of box i to (x, y) (normalized); the opposite corner stays. */
export function resizeBox(layer: Layer, i: number, corner: Corner, x: number, y: number): void {
  const b = boxAt(layer, i);
  let x1 = b.x;
  let y1 = b.y;
  let x2 = b.x + b.w;
  let y2 = b.y + b.h;
  const px = clamp01(x);
  const py = clamp01(y);
  if (corner === 0 || corner === 2) x1 = Math.min(px, x2 - MIN_SIZE);
  else x2 = Math.max(px, x1 + MIN_SIZE);
  if (corner === 0 || corner === 1) y1 = Math.min(py, y2 - MIN_SIZE);
  else y2 = Math.max(py, y1 + MIN_SIZE);
  write(layer, i, x1, y1, x2 - x1, y2 - y1);
}

/** Deletes box i; a track left without boxes goes too (the API refuses empty tracks). */
export function deleteBox(layer: Layer, i: number): void {
  const ti = layer.index.track[i]!;
  const track = layer.tracks[ti]!;
  track.boxes.splice(layer.index.slot[i]!, 1);
  if (track.boxes.length === 0) layer.tracks.splice(ti, 1);
  layer.edited = true;
  reindex(layer);
}

export function deleteTrack(layer: Layer, trackIndex: number): void {
  layer.tracks.splice(trackIndex, 1);
  layer.edited = true;
  reindex(layer);
}

export type SaveMode = 'replace' | 'new';

/** The run as a POST /detections body: normalized x,y,w,h, so what is saved is exactly what is shown. */
export function correctedRunBody(layer: Layer, mode: SaveMode, editor?: string): Record<string, unknown> {
  const run = layer.run;
  const source: Record<string, unknown> =
    mode === 'replace'
      ? { ...run.source, runId: run.runId }
      : {
          kind: 'human',
          name: `${layerName(run)} (corrected)`,
          correctedFrom: run.runId,
          ...(editor ? { editor } : {}),
        };
  const body: Record<string, unknown> = {
    mediaKey: run.mediaKey,
    schemaVersion: run.schemaVersion,
    task: run.task,
    source,
    coordinateSpace: 'normalized',
    tracks: layer.tracks.map(trackBody),
  };
  if (run.name !== undefined) body.name = run.name;
  if (run.media) body.media = run.media;
  if (run.categories?.length) body.categories = run.categories;
  return body;
}
