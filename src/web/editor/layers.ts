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
  /** The tracks that differ from their baseline now (see markChanged): the layer is edited while it has any. */
  changed: Set<string>;
  /** Palette slot per track, by label and by track id. */
  slotByLabel: Uint8Array;
  slotByTrack: Uint8Array;
  /** How many tracks carry each label: the editor's label choices, kept by reindex rather than read from every track. */
  labels: Map<string, number>;
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
    changed: new Set(),
    slotByLabel: new Uint8Array(0),
    slotByTrack: new Uint8Array(0),
    labels: new Map(),
  };
  recolor(layer);
  return layer;
}

/** A track's palette slots: by its label, and by its id. */
const labelSlotOf = (t: Track) => labelSlot(trackLabel(t));
const trackSlotOf = (t: Track) => paletteSlot(`track:${t.id}`);

export function recolor(layer: Layer): void {
  layer.slotByLabel = Uint8Array.from(layer.tracks, labelSlotOf);
  layer.slotByTrack = Uint8Array.from(layer.tracks, trackSlotOf);
  layer.labels = new Map();
  for (const t of layer.tracks) countLabel(layer.labels, trackLabel(t), 1);
}

/**
 * After an edit: what is derived from the tracks follows. Given the edited tracks' ids and how those were before
 * (`edited`), only their frames of the index are re-laid; without it the index is rebuilt.
 */
export function reindex(layer: Layer, edited?: { ids: Iterable<string>; before: readonly Track[] }): void {
  if (!edited) {
    layer.index = buildFrameIndex(layer.tracks);
    recolor(layer);
    return;
  }
  const ids = new Set(edited.ids);
  const wasIds = layer.index.ids;
  layer.index = updateFrameIndex(layer.index, layer.tracks, ids, edited.before);
  let now: Track[];
  if (layer.index.ids === wasIds) {
    // No track moved (the index kept its ids), so only the edited tracks' slots are looked at again.
    now = [];
    for (const id of ids) {
      const ti = wasIds.indexOf(id);
      const t = layer.tracks[ti]!;
      layer.slotByLabel[ti] = labelSlotOf(t);
      layer.slotByTrack[ti] = trackSlotOf(t);
      now.push(t);
    }
  } else now = recolorEdited(layer, wasIds, ids);
  for (const t of edited.before) countLabel(layer.labels, trackLabel(t), -1);
  for (const t of now) countLabel(layer.labels, trackLabel(t), 1);
}

function countLabel(labels: Map<string, number>, label: string, by: number): void {
  const n = (labels.get(label) ?? 0) + by;
  if (n > 0) labels.set(label, n);
  else labels.delete(label);
}

/**
 * The palette slots after an edit of the tracks `edited`, from the slots of the tracks as they stood (`was`, their
 * ids in order): the other tracks keep their order, so their slots are carried over and only the edited tracks'
 * labels and ids are looked at again. Returns the edited tracks as they are now.
 */
export function recolorEdited(layer: Layer, was: readonly string[], edited: ReadonlySet<string>): Track[] {
  const { tracks } = layer;
  const byLabel = new Uint8Array(tracks.length);
  const byTrack = new Uint8Array(tracks.length);
  const now: Track[] = [];
  let old = 0;
  for (let ti = 0; ti < tracks.length; ti++) {
    const t = tracks[ti]!;
    if (edited.has(t.id)) {
      byLabel[ti] = labelSlotOf(t);
      byTrack[ti] = trackSlotOf(t);
      now.push(t);
      continue;
    }
    // Skips the edited (or removed) tracks' old places; an untouched track is met in the same order.
    while (old < was.length && was[old] !== t.id) old++;
    byLabel[ti] = layer.slotByLabel[old]!;
    byTrack[ti] = layer.slotByTrack[old]!;
    old++;
  }
  layer.slotByLabel = byLabel;
  layer.slotByTrack = byTrack;
  return now;
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
