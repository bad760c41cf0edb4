// PATCH /detections/{runId} (spec §9) as pure steps: the body's whole-request checks, then the upserted tracks
// validated exactly as POST /detections validates a run's tracks, then the run's new tracks.
import { decimalText } from '../util/decimal-text.js';
import { isObject } from '../util/is-object.js';
import * as L from './limits.js';
import { sameTrack, tracksOf, type TrackSlice } from './run-delta.js';
import type { RequestFailure, ValidatedRun } from './validate-run.js';
import { validateRun } from './validate-run.js';

export interface PatchRequest {
  ok: true;
  baseRevision: number;
  upsert: unknown[];
  deletes: string[];
}

const fail = (code: string, detail: string, extensions?: Record<string, unknown>): RequestFailure => ({
  ok: false,
  code,
  detail,
  ...(extensions ? { extensions } : {}),
});

/** A track id as POST reads one: a non-empty string, or a number as its decimal text. */
const idText = (v: unknown): string | undefined => {
  const text = typeof v === 'number' && Number.isFinite(v) ? decimalText(v) : v;
  return typeof text === 'string' && text !== '' ? text : undefined;
};

export function checkPatchBody(body: unknown): PatchRequest | RequestFailure {
  if (!isObject(body))
    return fail(
      'invalid_body',
      'The body must be a JSON object: { "baseRevision": N, "tracks": { "upsert", "delete" } }',
    );
  const base = body.baseRevision;
  if (typeof base !== 'number' || !Number.isSafeInteger(base) || base < 1)
    return fail('invalid_field', 'baseRevision must be the integer revision the change was made on', {
      field: 'baseRevision',
    });
  const tracks = body.tracks;
  if (!isObject(tracks))
    return fail('invalid_field', 'tracks must be an object with "upsert" (tracks) and/or "delete" (track ids)', {
      field: 'tracks',
    });
  const upsert = tracks.upsert ?? [];
  const del = tracks.delete ?? [];
  if (!Array.isArray(upsert))
    return fail('invalid_field', 'tracks.upsert must be an array of tracks', { field: 'tracks.upsert' });
  if (!Array.isArray(del))
    return fail('invalid_field', 'tracks.delete must be an array of track ids', { field: 'tracks.delete' });
  if (upsert.length > L.MAX_TRACKS)
    return fail('too_many_tracks', `a run holds at most ${L.MAX_TRACKS} tracks; a patch cannot upsert more`);
  if (upsert.length === 0 && del.length === 0)
    return fail('nothing_to_change', 'The patch upserts and deletes no track: nothing would change');
  const deletes: string[] = [];
  const seen = new Set<string>();
  for (const [i, v] of del.entries()) {
    const id = idText(v);
    if (id === undefined)
      return fail('invalid_track', `tracks.delete[${i}] must be a track id (a non-empty string or a number)`);
    if (seen.has(id)) return fail('duplicate_track_id', `track id "${id}" is deleted more than once`);
    seen.add(id);
    deletes.push(id);
  }
  for (const t of upsert) {
    const id = isObject(t) ? idText(t.id) : undefined;
    if (id !== undefined && seen.has(id))
      return fail('duplicate_track_id', `track id "${id}" is both upserted and deleted`);
  }
  return { ok: true, baseRevision: base, upsert, deletes };
}

/**
 * The upserted tracks as POST /detections would store them in a run with this one's media (its fps and frameCount
 * decide the warnings). Boxes are in the run's stored space, normalized.
 */
export function validateUpserts(
  upsert: unknown[],
  target: { mediaKey: string; runId: string; media: Record<string, unknown> | null },
): ValidatedRun | RequestFailure {
  return validateRun({
    mediaKey: target.mediaKey,
    schemaVersion: '1.0',
    source: { runId: target.runId },
    coordinateSpace: 'normalized',
    ...(target.media ? { media: target.media } : {}),
    tracks: upsert,
  });
}

export type PatchChanges =
  | { ok: true; changing: TrackSlice[]; deletes: Set<string>; changed: Set<string>; tracks: number }
  | RequestFailure;

/**
 * The tracks a patch changes (the upserted tracks that differ from the stored ones or are new) and the run's track
 * count after it, or why it is refused (an unknown id to delete, nothing changed, no track left, too many).
 * `stored` holds the run's current versions of the patch's ids, `trackCount` its tracks now: no other track of the
 * run is needed.
 */
export function patchChanges(
  stored: ReadonlyMap<string, TrackSlice>,
  trackCount: number,
  upserts: ValidatedRun | undefined,
  deletes: string[],
): PatchChanges {
  const upserted = upserts ? tracksOf(upserts.boxes) : [];
  const unknown = deletes.filter((id) => !stored.has(id));
  if (unknown.length > 0)
    return fail('track_not_found', `The run has no track ${unknown.map((id) => `"${id}"`).join(', ')} to delete`, {
      trackIds: unknown,
    });
  // Only what differs from the stored track counts as a change.
  const changing = upserted.filter((t) => {
    const old = stored.get(t.header.id);
    return old === undefined || !sameTrack(old, t);
  });
  if (changing.length === 0 && deletes.length === 0)
    return fail('nothing_to_change', 'Every upserted track equals the stored one and nothing is deleted');
  let tracks = trackCount - deletes.length;
  for (const t of changing) if (!stored.has(t.header.id)) tracks++;
  if (tracks === 0)
    return fail(
      'tracks_missing',
      'A run keeps at least one track: delete the run instead (DELETE /detections/{runId})',
    );
  if (tracks > L.MAX_TRACKS)
    return fail('too_many_tracks', `a run holds at most ${L.MAX_TRACKS} tracks; the patch would make ${tracks}`);
  const gone = new Set(deletes);
  return {
    ok: true,
    changing,
    deletes: gone,
    changed: new Set([...changing.map((t) => t.header.id), ...gone]),
    tracks,
  };
}
