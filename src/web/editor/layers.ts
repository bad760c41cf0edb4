// One layer per run: its boxes indexed by frame, and how it is shown (visibility, opacity, colours, threshold).
import type { Run, Track } from '../types.js';
import { buildFrameIndex, updateFrameIndex, type FrameIndex } from './frame-index.js';
import { labelSlot, paletteSlot } from './palette.js';
import type { Baseline } from './patch.js';

export type ColorBy = 'label' | 'track';

export interface Layer {
  runId: string;
  run: Run;
  /** The run's tracks; corrections edit them in place. */
  tracks: Track[];
  index: FrameIndex;
  visible: boolean;
  opacity: number;
  colorBy: ColorBy;
  threshold: number;
  edited: boolean;
  /** The run's revision the layer was loaded from: Save patches against it. */
  revision: number;
  /** Tracks as loaded, kept at their first edit: Save sends only what differs. */
  baseline: Baseline;
  /** Palette slot per track, by label and by track id. */
  slotByLabel: Uint8Array;
  slotByTrack: Uint8Array;
}

export function layerName(run: Pick<Run, 'source' | 'name' | 'runId'>): string {
  return run.source.name || run.name || run.runId;
}

export function trackLabel(track: Track): string {
  return track.label ?? track.boxes[0]?.label ?? 'object';
}

export function makeLayer(run: Run): Layer {
  const tracks = run.tracks;
  const layer: Layer = {
    runId: run.runId,
    run,
    tracks,
    index: buildFrameIndex(tracks),
    visible: true,
    opacity: 1,
    colorBy: 'label',
    threshold: 0,
    edited: false,
    revision: run.revision ?? 1,
    baseline: new Map(),
    slotByLabel: new Uint8Array(0),
    slotByTrack: new Uint8Array(0),
  };
  recolor(layer);
  return layer;
}

export function recolor(layer: Layer): void {
  layer.slotByLabel = Uint8Array.from(layer.tracks, (t) => labelSlot(trackLabel(t)));
  layer.slotByTrack = Uint8Array.from(layer.tracks, (t) => paletteSlot(`track:${t.id}`));
}

/**
 * After an edit: what is derived from the tracks follows. Given the edited tracks' ids and how those were before
 * (`edited`), only their frames of the index are re-laid; without it the index is rebuilt.
 */
export function reindex(layer: Layer, edited?: { ids: Iterable<string>; before: readonly Track[] }): void {
  layer.index = edited
    ? updateFrameIndex(layer.index, layer.tracks, edited.ids, edited.before)
    : buildFrameIndex(layer.tracks);
  recolor(layer);
}

export interface LayerGroup {
  name: string;
  layers: Layer[];
}

/** Sibling runs of one source.name together; groups and runs keep the API's order (oldest first). */
export function groupLayers(layers: readonly Layer[]): LayerGroup[] {
  const groups = new Map<string, LayerGroup>();
  for (const layer of layers) {
    const name = layerName(layer.run);
    let group = groups.get(name);
    if (!group) {
      group = { name, layers: [] };
      groups.set(name, group);
    }
    group.layers.push(layer);
  }
  return [...groups.values()];
}

/** Boxes actually stored in a layer now (after corrections). */
export function boxCount(layer: Layer): number {
  return layer.index.start[layer.index.frames] ?? 0;
}
