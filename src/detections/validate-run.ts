// Spec §4.3–4.5 as one pure function: a parsed body in, a normalised run (or the 400 it earns) out.
import { decimalText } from '../util/decimal-text.js';
import { isObject } from '../util/is-object.js';
import {
  holdsNonFiniteNumber,
  isStorableText,
  isWellFormed,
  jsonBytesOver,
  nestedDeeperThan,
} from '../util/json-shape.js';
import { newId } from '../util/ids.js';
import { newBoxView, PackedBoxes } from './packed-boxes.js';
import { normaliseGeometry, type BoxForm, type NormalisedBox } from './box-geometry.js';
import * as L from './limits.js';
import { checkSchemaVersion } from './schema-version.js';
import { RejectionList } from './rejection-list.js';
import {
  BOX_STRIDE,
  type BoxExtras,
  type RunBoxes,
  type RunMetadata,
  type TrackHeader,
  type Warning,
} from './run-types.js';
import { computeWarnings } from './warnings.js';

export interface RequestFailure {
  ok: false;
  code: string;
  detail: string;
  extensions?: Record<string, unknown>;
}
export interface ValidatedRun {
  ok: true;
  meta: RunMetadata;
  boxes: RunBoxes;
  rejected: RejectionList;
  warnings: Warning[];
  /** Boxes dropped because a later box of the same track had the same frame. */
  overwritten: number;
}
export type ValidationResult = ValidatedRun | RequestFailure;

type Obj = Record<string, unknown>;
const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');
const fail = (code: string, detail: string): RequestFailure => ({ ok: false, code, detail });
// Unicode's control characters (category Cc): C0, DEL and C1.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Absent, null (JSON's way of saying absent) or a string of at most `max` bytes. Stored strings must be valid
 * Unicode: a lone surrogate (`"\ud800"`) would be stored as U+FFFD, and the run would answer to another name.
 */
function optionalString(value: unknown, max: number): value is string | undefined | null {
  return (
    value === undefined || value === null || (typeof value === 'string' && bytes(value) <= max && isStorableText(value))
  );
}

/** A class id kept on a box or track: text, or a number a double holds (1e400 counts as absent, as for confidence). */
const isClassId = (v: unknown): v is string | number =>
  typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** `interpolated` on a box: absent, null (absent), or a boolean; anything else is a whole-request 400. */
const isOptionalBoolean = (v: unknown) => v === undefined || v === null || typeof v === 'boolean';

function metaTooLarge(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (!isObject(value)) return true;
  return jsonBytesOver(value, L.MAX_META_BYTES);
}

/**
 * The scalar members of an object, kept as sent (other members are dropped). A number past a double's range (1e400)
 * parses as Infinity and would come back as null: refused, so that what is kept is what was sent.
 */
function keptScalars(value: Obj, where: string, code: string): RequestFailure | { ok: true; kept: Obj } {
  const kept: Obj = {};
  for (const [key, member] of Object.entries(value)) {
    if (typeof member === 'number' && !Number.isFinite(member)) {
      return fail(
        code,
        `${where}.${key} is a number beyond a 64-bit float's range (about ±1.8e308) and could not be kept as sent; send it as a string`,
      );
    }
    if (member === null || ['string', 'number', 'boolean'].includes(typeof member)) kept[key] = member;
  }
  return { ok: true, kept };
}

function checkSource(source: unknown): RequestFailure | { ok: true; source: Obj; runId?: string } {
  if (!isObject(source)) return fail('invalid_source', 'source must be an object with kind, name, version and runId');
  const runId = source.runId;
  if (runId !== undefined && runId !== null) {
    if (
      typeof runId !== 'string' ||
      runId === '' ||
      bytes(runId) > L.MAX_RUN_ID_BYTES ||
      CONTROL.test(runId) ||
      runId.includes('/') ||
      !isWellFormed(runId)
    ) {
      return fail(
        'invalid_run_id',
        `source.runId must be a non-empty string of valid Unicode, at most ${L.MAX_RUN_ID_BYTES} bytes, without "/" or control characters`,
      );
    }
  }
  for (const field of ['kind', 'name', 'version'] as const) {
    if (!optionalString(source[field], L.MAX_SOURCE_BYTES[field])) {
      return fail(
        'invalid_source',
        `source.${field} must be a string of at most ${L.MAX_SOURCE_BYTES[field]} bytes of valid Unicode, without U+0000 (it is stored as text)`,
      );
    }
  }
  const kept = keptScalars(source, 'source', 'invalid_source');
  if (!kept.ok) return kept;
  return { ok: true, source: kept.kept, ...(typeof runId === 'string' ? { runId } : {}) };
}

function checkMedia(media: unknown, pixel: boolean): RequestFailure | { ok: true; media?: Obj } {
  if (media === undefined || media === null) {
    return pixel
      ? fail('media_required', 'media.width and media.height are required when coordinateSpace is "pixel"')
      : { ok: true };
  }
  if (!isObject(media)) return fail('invalid_media', 'media must be an object');
  const positive = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v > 0;
  const absent = (v: unknown) => v === undefined || v === null;
  for (const field of ['width', 'height'] as const) {
    const v = media[field];
    if (absent(v) && !pixel) continue;
    if (!positive(v)) return fail('invalid_media', `media.${field} must be a number greater than 0`);
  }
  if (!absent(media.fps) && !positive(media.fps))
    return fail('invalid_media', 'media.fps must be a number greater than 0');
  if (!absent(media.frameCount) && !(Number.isInteger(media.frameCount) && (media.frameCount as number) >= 0)) {
    return fail('invalid_media', 'media.frameCount must be an integer of 0 or more');
  }
  const kept = keptScalars(media, 'media', 'invalid_media');
  if (!kept.ok) return kept;
  return { ok: true, media: kept.kept };
}

/** The id's text when it is a valid one: the 64-byte limit holds for a number's decimal text too (5e-324 has 326). */
function trackId(value: unknown): string | undefined {
  const text = typeof value === 'number' && Number.isFinite(value) ? decimalText(value) : value;
  if (typeof text === 'string' && text !== '' && bytes(text) <= L.MAX_TRACK_ID_BYTES && isStorableText(text))
    return text;
  return undefined;
}

/** Whole-request checks of the tracks array; box content is checked later, box by box. */
function checkTracks(tracks: unknown): RequestFailure | { ok: true; ids: string[]; total: number } {
  if (!Array.isArray(tracks) || tracks.length === 0) return fail('tracks_missing', 'tracks must be a non-empty array');
  if (tracks.length > L.MAX_TRACKS)
    return fail('too_many_tracks', `a run holds at most ${L.MAX_TRACKS} tracks; split it into several runs`);
  const ids: string[] = new Array(tracks.length);
  const seen = new Set<string>();
  let total = 0;
  for (let i = 0; i < tracks.length; i++) {
    const track = tracks[i];
    if (!isObject(track)) return fail('invalid_track', `tracks[${i}] must be an object`);
    const id = trackId(track.id);
    if (id === undefined)
      return fail(
        'invalid_track',
        `tracks[${i}].id must be a non-empty string of valid Unicode without U+0000, or a number, at most ${L.MAX_TRACK_ID_BYTES} bytes as text`,
      );
    if (seen.has(id)) return fail('duplicate_track_id', `track id "${id}" appears more than once`);
    seen.add(id);
    ids[i] = id;
    const boxes = track.boxes;
    if (!(Array.isArray(boxes) || boxes instanceof PackedBoxes) || boxes.length === 0) {
      return fail('track_without_boxes', `track "${id}" has no boxes: boxes must be a non-empty array`);
    }
    if (boxes.length > L.MAX_BOXES_PER_TRACK)
      return fail('too_many_boxes', `track "${id}" has more than ${L.MAX_BOXES_PER_TRACK} boxes`);
    if (metaTooLarge(track.meta))
      return fail('invalid_field', `track "${id}": meta must be an object of at most ${L.MAX_META_BYTES} bytes`);
    // The label keys the search index (its own column): it must be storable as text on both dialects.
    if (typeof track.label === 'string' && !isStorableText(track.label))
      return fail('invalid_track', `track "${id}": label must be valid Unicode without U+0000`);
    total += boxes.length;
  }
  return { ok: true, ids, total };
}

export function validateRun(body: unknown): ValidationResult {
  if (!isObject(body)) return fail('invalid_body', 'The body must be a JSON object (a detection run)');
  const version = checkSchemaVersion(body.schemaVersion);
  if (!version.ok) return fail(version.code, version.detail);
  const mediaKey = typeof body.mediaKey === 'string' && body.mediaKey !== '' ? body.mediaKey : undefined;
  const analysisId = typeof body.analysisId === 'string' && body.analysisId !== '' ? body.analysisId : undefined;
  if (!mediaKey && !analysisId) return fail('target_missing', 'Name the recording with mediaKey or analysisId');
  const task = body.task ?? 'detection';
  if (task !== 'detection' && task !== 'pose') return fail('unsupported_task', 'task must be "detection" or "pose"');
  if (!optionalString(body.name, L.MAX_NAME_BYTES)) {
    return fail(
      'invalid_field',
      `name must be a string of at most ${L.MAX_NAME_BYTES} bytes of valid Unicode, without U+0000 (it is stored as text)`,
    );
  }
  const source = checkSource(body.source);
  if (!source.ok) return source;
  const space = body.coordinateSpace;
  if (space !== 'pixel' && space !== 'normalized')
    return fail('invalid_coordinate_space', 'coordinateSpace must be "pixel" or "normalized"');
  const media = checkMedia(body.media, space === 'pixel');
  if (!media.ok) return media;
  if (
    body.categories !== undefined &&
    body.categories !== null &&
    (!Array.isArray(body.categories) ||
      body.categories.length > L.MAX_CATEGORIES ||
      nestedDeeperThan(body.categories, L.MAX_CATEGORIES_DEPTH))
  ) {
    return fail(
      'invalid_field',
      `categories must be an array of at most ${L.MAX_CATEGORIES} entries, nested at most ${L.MAX_CATEGORIES_DEPTH} levels deep`,
    );
  }
  // Stored as sent: a number past a double's range would come back as null.
  if (Array.isArray(body.categories) && holdsNonFiniteNumber(body.categories)) {
    return fail(
      'invalid_field',
      "categories hold a number beyond a 64-bit float's range (about ±1.8e308) that could not be kept as sent; send it as a string",
    );
  }
  const tracksCheck = checkTracks(body.tracks);
  if (!tracksCheck.ok) return tracksCheck;

  const scaleX = space === 'pixel' ? (media.media!.width as number) : 1;
  const scaleY = space === 'pixel' ? (media.media!.height as number) : 1;
  const boxes = normaliseTracks(body.tracks as Obj[], tracksCheck.ids, tracksCheck.total, scaleX, scaleY);
  if (boxes.failure) return boxes.failure;

  const runId = source.runId ?? newId();
  const meta: RunMetadata = {
    runId,
    runIdGenerated: source.runId === undefined,
    ...(mediaKey ? { mediaKey } : {}),
    ...(analysisId ? { analysisId } : {}),
    ...(typeof body.name === 'string' ? { name: body.name } : {}),
    task: task as string,
    schemaVersion: body.schemaVersion as string,
    source: { ...source.source, runId },
    originalCoordinateSpace: space,
    originalBoxForm: boxes.form,
    ...(media.media ? { media: media.media } : {}),
    ...(Array.isArray(body.categories) ? { categories: body.categories } : {}),
  };
  const warnings = computeWarnings(
    boxes.run,
    media.media,
    boxes.overwritten,
    version.minorMismatch ? (body.schemaVersion as string) : undefined,
    boxes.keypoints,
  );
  return { ok: true, meta, boxes: boxes.run, rejected: boxes.rejected, warnings, overwritten: boxes.overwritten };
}

interface Normalised {
  run: RunBoxes;
  rejected: RejectionList;
  overwritten: number;
  /** Boxes that passed the box rules carrying keypoints, which no run stores, and how many keypoints in all. */
  keypoints: { boxes: number; points: number };
  form: BoxForm | 'mixed';
  failure?: RequestFailure;
}

function normaliseTracks(tracks: Obj[], ids: string[], total: number, scaleX: number, scaleY: number): Normalised {
  const columns = new Float64Array(total * BOX_STRIDE);
  const headers: TrackHeader[] = [];
  const rejected = new RejectionList();
  // The form of the box in each slot: originalBoxForm counts the kept boxes, not the ones a duplicate overwrote.
  const xyxyAt = new Uint8Array(total);
  const geometry: NormalisedBox = { x: 0, y: 0, w: 0, h: 0, form: 'xywh' };
  const view = newBoxView();
  let count = 0;
  let overwritten = 0;
  const keypoints = { boxes: 0, points: 0 };
  for (let t = 0; t < tracks.length; t++) {
    const track = tracks[t]!;
    const id = ids[t]!;
    const input = track.boxes as unknown[] | PackedBoxes;
    const packed = input instanceof PackedBoxes ? input : undefined;
    const start = count;
    // frame -> slot, so that a later box of the same frame overwrites the earlier one in place. Built only once
    // a frame does not follow the track's last one: producers send frames in order, and a large run would
    // otherwise make 250 000 Map entries only to look each up once.
    let slotOfFrame: Map<number, number> | undefined;
    let extras: Record<number, BoxExtras> | undefined;
    let sorted = true;
    let lastFrame = -1;
    for (let b = 0; b < input.length; b++) {
      const box: unknown = packed ? packed.load(b, view) : (input as unknown[])[b];
      // A whole-request check: it holds for a box that is rejected too.
      if (!packed && isObject(box) && (metaTooLarge(box.meta) || !isOptionalBoolean(box.interpolated))) {
        const at = Number.isInteger(box.frame) ? `frame ${box.frame as number}` : `box ${b}`;
        return {
          run: { headers, columns, count },
          rejected,
          overwritten,
          keypoints,
          form: 'xywh',
          failure: fail(
            'invalid_field',
            isOptionalBoolean(box.interpolated)
              ? `track "${id}" ${at}: meta must be an object of at most ${L.MAX_META_BYTES} bytes`
              : `track "${id}" ${at}: interpolated must be true or false`,
          ),
        };
      }
      if (!isObject(box) || !Number.isInteger(box.frame) || (box.frame as number) < 0) {
        rejected.push(
          id,
          isObject(box) && Number.isInteger(box.frame) ? (box.frame as number) : null,
          'box_invalid_frame',
        );
        continue;
      }
      const frame = box.frame as number;
      const rejection = normaliseGeometry(box, scaleX, scaleY, geometry);
      if (rejection !== undefined) {
        rejected.push(id, frame, rejection);
        continue;
      }
      // A pose run's keypoints are not stored (the box is): counted, so that the answer says what was dropped.
      if (box.keypoints !== undefined && box.keypoints !== null) {
        keypoints.boxes++;
        keypoints.points += Array.isArray(box.keypoints) ? box.keypoints.length : 1;
      }
      let slot: number | undefined;
      if (slotOfFrame === undefined && frame > lastFrame) {
        slot = count++; // every earlier frame of the track is smaller: a new slot, no lookup
        lastFrame = frame;
      } else {
        slotOfFrame ??= slotsByFrame(columns, start, count);
        slot = slotOfFrame.get(frame);
        if (slot === undefined) {
          slot = count++;
          slotOfFrame.set(frame, slot);
          if (frame < lastFrame) sorted = false;
          lastFrame = frame;
        } else {
          overwritten++;
          if (extras) delete extras[slot - start];
        }
      }
      xyxyAt[slot] = geometry.form === 'xyxy' ? 1 : 0;
      const o = slot * BOX_STRIDE;
      columns[o] = frame;
      columns[o + 1] = geometry.x;
      columns[o + 2] = geometry.y;
      columns[o + 3] = geometry.w;
      columns[o + 4] = geometry.h;
      columns[o + 5] = typeof box.confidence === 'number' && Number.isFinite(box.confidence) ? box.confidence : NaN;
      columns[o + 6] = typeof box.timestampMs === 'number' && Number.isFinite(box.timestampMs) ? box.timestampMs : NaN;
      if (box.label !== undefined || box.classId !== undefined || box.interpolated === true) {
        const extra: BoxExtras = {};
        if (typeof box.label === 'string') extra.label = box.label;
        if (isClassId(box.classId)) extra.classId = box.classId;
        if (box.interpolated === true) extra.interpolated = true;
        if (extra.label !== undefined || extra.classId !== undefined || extra.interpolated) {
          extras ??= {};
          extras[slot - start] = extra;
        }
      }
    }
    const n = count - start;
    if (n === 0) continue;
    if (!sorted) extras = sortTrackByFrame(columns, start, n, extras);
    const header: TrackHeader = { id, n };
    if (typeof track.label === 'string') header.label = track.label;
    if (isClassId(track.classId)) header.classId = track.classId;
    if (typeof track.confidence === 'number' && Number.isFinite(track.confidence)) header.confidence = track.confidence;
    if (typeof track.color === 'string') header.color = track.color;
    if (extras && Object.keys(extras).length > 0) header.extras = extras;
    headers.push(header);
  }
  const xyxy = xyxyAt.subarray(0, count).reduce((sum, v) => sum + v, 0);
  const form = xyxy === 0 ? 'xywh' : xyxy === count ? 'xyxy' : 'mixed';
  return { run: { headers, columns, count }, rejected, overwritten, keypoints, form };
}

/** The slots [start, end) of the columns by their frame. */
function slotsByFrame(columns: Float64Array, start: number, end: number): Map<number, number> {
  const slots = new Map<number, number>();
  for (let slot = start; slot < end; slot++) slots.set(columns[slot * BOX_STRIDE]!, slot);
  return slots;
}

function sortTrackByFrame(
  columns: Float64Array,
  start: number,
  n: number,
  extras: Record<number, BoxExtras> | undefined,
) {
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => columns[(start + a) * BOX_STRIDE]! - columns[(start + b) * BOX_STRIDE]!);
  const copy = columns.slice(start * BOX_STRIDE, (start + n) * BOX_STRIDE);
  const moved: Record<number, BoxExtras> = {};
  for (let i = 0; i < n; i++) {
    const from = order[i]!;
    columns.set(copy.subarray(from * BOX_STRIDE, (from + 1) * BOX_STRIDE), (start + i) * BOX_STRIDE);
    if (extras?.[from]) moved[i] = extras[from]!;
  }
  return extras ? moved : undefined;
}
