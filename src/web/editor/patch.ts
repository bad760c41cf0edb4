// What Save sends: the tracks changed since the layer was loaded (or last saved), as one PATCH body against the
// revision it was loaded from. Each track's JSON is kept from just before its first edit, so a track edited and
// then put back as it was is not sent, and building the body never walks the untouched tracks.
import type { Track } from '../types.js';

/** Track ids → the track's saved JSON as loaded (null: the track did not exist then). */
export type Baseline = Map<string, string | null>;

export function trackBody(t: Track): Record<string, unknown> {
  const out: Record<string, unknown> = { id: t.id };
  for (const k of ['label', 'classId', 'confidence', 'color'] as const) if (t[k] !== undefined) out[k] = t[k];
  out.boxes = t.boxes.map((b) => {
    const box: Record<string, unknown> = { frame: b.frame, x: b.x, y: b.y, w: b.w, h: b.h };
    for (const k of ['confidence', 'timestampMs', 'label', 'classId', 'interpolated'] as const)
      if (b[k] !== undefined) box[k] = b[k];
    return box;
  });
  return out;
}

/** Records the tracks with these ids as they are now, unless an earlier edit already did. */
export function remember(baseline: Baseline, tracks: readonly Track[], ids: Iterable<string>): void {
  for (const id of ids) {
    if (baseline.has(id)) continue;
    const t = tracks.find((x) => x.id === id);
    baseline.set(id, t ? JSON.stringify(trackBody(t)) : null);
  }
}

export interface TrackPatch {
  baseRevision: number;
  tracks: { upsert: Record<string, unknown>[]; delete: string[] };
}

/** The PATCH body; empty upsert and delete when nothing differs from the baseline. */
export function buildPatch(baseline: Baseline, tracks: readonly Track[], baseRevision: number): TrackPatch {
  const byId = new Map<string, Track>();
  for (const id of baseline.keys()) byId.set(id, undefined as unknown as Track);
  for (const t of tracks) if (byId.has(t.id)) byId.set(t.id, t);
  const upsert: Record<string, unknown>[] = [];
  const del: string[] = [];
  for (const [id, before] of baseline) {
    const now = byId.get(id);
    if (!now) {
      if (before !== null) del.push(id);
      continue;
    }
    const body = trackBody(now);
    if (JSON.stringify(body) !== before) upsert.push(body);
  }
  return { baseRevision, tracks: { upsert, delete: del } };
}

/**
 * After an edit of the tracks `ids`: which of them differ from their baseline now, kept in `changed` (the other
 * tracks' entries stand). The layer has unsaved corrections exactly when `changed` is not empty, which is what
 * buildPatch would find without serialising every edited track on each edit.
 */
export function markChanged(
  changed: Set<string>,
  baseline: Baseline,
  tracks: readonly Track[],
  ids: Iterable<string>,
): void {
  for (const id of ids) {
    if (!baseline.has(id)) continue;
    const t = tracks.find((x) => x.id === id);
    if ((t ? JSON.stringify(trackBody(t)) : null) !== baseline.get(id)) changed.add(id);
    else changed.delete(id);
  }
}

export const isEmptyPatch = (p: TrackPatch) => p.tracks.upsert.length === 0 && p.tracks.delete.length === 0;
