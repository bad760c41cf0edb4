// Pure checks of the registry's inputs: POST /recordings bodies, pipeline upload events, list filters.
import { isObject } from '../util/is-object.js';
import { hasControlCharacter, isPlainText, isWellFormed } from '../util/json-shape.js';
import { ApiError } from '../http/problem.js';
import { startFromMediaKey } from './media-key.js';
import type { NewRecording } from './queries.js';

const MAX_KEY_BYTES = 1024;
const MAX_TEXT_BYTES = 256;

/** 9999-12-31T23:59:59Z: later starts are typos (or milliseconds read as seconds), and no cursor or column holds them. */
export const MAX_START_SECONDS = 253_402_300_799;

const fieldError = (field: string, detail: string) => new ApiError(400, 'invalid_field', detail, { field });

export function checkMediaKey(value: unknown, field = 'mediaKey'): string {
  if (value === undefined || value === null || value === '')
    throw new ApiError(400, 'media_key_missing', `${field} is required`, { field });
  if (typeof value !== 'string') throw fieldError(field, `${field} must be a string`);
  if (Buffer.byteLength(value) > MAX_KEY_BYTES)
    throw fieldError(field, `${field} is longer than ${MAX_KEY_BYTES} bytes`);
  if (hasControlCharacter(value)) throw fieldError(field, `${field} contains a control character`);
  // A lone surrogate (JSON's "\ud800") cannot be stored as UTF-8: the key would be stored as another one.
  if (!isWellFormed(value)) throw fieldError(field, `${field} is not valid Unicode text`);
  return value;
}

function optionalText(
  body: Record<string, unknown>,
  field: string,
  maxBytes = MAX_TEXT_BYTES,
): string | null | undefined {
  const v = body[field];
  if (v === undefined || v === null) return v as undefined | null;
  if (typeof v !== 'string' || v === '' || Buffer.byteLength(v) > maxBytes || !isPlainText(v)) {
    throw fieldError(
      field,
      `${field} must be a non-empty string of valid Unicode, at most ${maxBytes} bytes, without control characters`,
    );
  }
  return v;
}

function optionalNumber(
  body: Record<string, unknown>,
  field: string,
  integer: boolean,
  positive: boolean,
): number | null | undefined {
  const v = body[field];
  if (v === undefined || v === null) return v as undefined | null;
  const ok =
    typeof v === 'number' &&
    Number.isFinite(v) &&
    (integer ? Number.isSafeInteger(v) : true) &&
    (positive ? v > 0 : v >= 0);
  if (!ok)
    throw fieldError(field, `${field} must be ${integer ? 'an integer' : 'a number'} ${positive ? '> 0' : '≥ 0'}`);
  return v as number;
}

/** A POST /recordings body; startTimestamp falls back to the time in the mediaKey's file name. */
export function validateRecordingBody(body: unknown): NewRecording {
  if (!isObject(body)) throw new ApiError(400, 'invalid_body', 'The body must be a JSON object');
  const mediaKey = checkMediaKey(body.mediaKey);
  const analysisId = optionalText(body, 'analysisId', 128) ?? undefined;
  const explicitStart = optionalNumber(body, 'startTimestamp', true, false) ?? undefined;
  if (explicitStart !== undefined && explicitStart > MAX_START_SECONDS)
    throw fieldError('startTimestamp', `startTimestamp must be Unix seconds up to ${MAX_START_SECONDS} (year 9999)`);
  const startTimestamp = explicitStart ?? startFromMediaKey(mediaKey);
  if (startTimestamp === undefined) {
    throw fieldError(
      'startTimestamp',
      'startTimestamp (Unix seconds) is required: the mediaKey carries no start time (<dir>/<unixSeconds>_….mp4)',
    );
  }
  return {
    mediaKey,
    analysisId,
    startTimestamp,
    ...(explicitStart === undefined ? { startFromKey: true } : {}),
    deviceKey: optionalText(body, 'deviceKey'),
    provider: optionalText(body, 'provider'),
    width: optionalNumber(body, 'width', false, true),
    height: optionalNumber(body, 'height', false, true),
    fps: optionalNumber(body, 'fps', false, true),
    frameCount: optionalNumber(body, 'frameCount', true, false),
    durationMs: optionalNumber(body, 'durationMs', false, false),
  };
}

// ISO-8601 as producers write it: a date, optionally a time (minutes, seconds, fraction) and a zone. A time
// without a zone is UTC, so that the answer never depends on the server's time zone.
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** Milliseconds of a strict ISO-8601 date or date-time, or undefined (no "May 1", no February 30th). */
function isoMillis(text: string): number | undefined {
  const m = ISO_8601.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, hh = '00', mi = '00', ss = '00', fraction = '', zone = 'Z'] = m;
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (day.getUTCFullYear() !== Number(y) || day.getUTCMonth() !== Number(mo) - 1 || day.getUTCDate() !== Number(d))
    return undefined;
  if (Number(hh) > 23 || Number(mi) > 59 || Number(ss) > 59) return undefined;
  const offset = /^[Zz]$/.test(zone)
    ? 'Z'
    : zone.length === 3
      ? `${zone}:00`
      : zone.includes(':')
        ? zone
        : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const ms = Date.parse(`${y}-${mo}-${d}T${hh}:${mi}:${ss}${fraction.slice(0, 4)}${offset}`);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Up to the end of year 9999: a fraction of its last second (…799.5, 23:59:59.5Z) is no later start, in any form. */
const inYear9999 = (seconds: number): boolean => Math.floor(seconds) <= MAX_START_SECONDS;

/**
 * Unix seconds from a number or text: seconds, milliseconds (13+ digits) or a strict ISO-8601 date. Anything else
 * (negative numbers, "May 1", "2024-02-30") is undefined: a start time guessed from loose text would file the
 * recording under a wrong date, and retention would then delete it.
 */
export function parseTimestamp(value: unknown, round: (seconds: number) => number = Math.floor): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) {
    // 13 digits and more are milliseconds (1e12 ms is 2001); fewer are seconds, and past year 9999 refused.
    const seconds = round(value >= 1e12 ? value / 1000 : value);
    return inYear9999(seconds) ? seconds : undefined;
  }
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return parseTimestamp(Number(text), round);
  const ms = isoMillis(text);
  if (ms === undefined || ms < 0) return undefined;
  const seconds = round(ms / 1000);
  return inYear9999(seconds) ? seconds : undefined;
}

/**
 * User metadata by lower-case name without the `x-amz-meta-` prefix: S3 metadata names are case-insensitive, and
 * pipelines forward them as `Event-Timestamp` or `X-Amz-Meta-Event-Timestamp` as often as `event-timestamp`.
 * An exact name wins over a spelling of it.
 */
function metadataByName(metadata: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(metadata)) {
    const plain = name.toLowerCase().replace(/^x-amz-meta-/, '');
    if (!(plain in out) || plain === name) out[plain] = value;
  }
  return out;
}

export type UploadEvent =
  | { kind: 'recording'; recording: NewRecording }
  | { kind: 'ignored'; key: string; reason: string };

/** The storage pipeline's upload event: `{ source, payload: { key, fileSize, metadata: { event-timestamp, productid } } }`. */
export function validateUploadEvent(body: unknown): UploadEvent {
  if (!isObject(body)) throw new ApiError(400, 'invalid_body', 'The body must be a JSON object');
  if (!isObject(body.payload)) throw fieldError('payload', "payload must be an object with the uploaded object's key");
  const payload = body.payload;
  const key = checkMediaKey(payload.key, 'payload.key');
  if (!/\.mp4$/i.test(key) || /_redacted\.mp4$/i.test(key)) {
    return { kind: 'ignored', key, reason: 'not_a_recording' };
  }
  const source = body.source;
  if (
    source !== undefined &&
    source !== null &&
    (typeof source !== 'string' || source === '' || Buffer.byteLength(source) > MAX_TEXT_BYTES || !isPlainText(source))
  ) {
    throw fieldError('source', 'source must be the provider name');
  }
  const metadata = isObject(payload.metadata) ? metadataByName(payload.metadata) : {};
  const stamp = metadata['event-timestamp'];
  let startTimestamp: number | undefined;
  if (stamp !== undefined && stamp !== null && stamp !== '') {
    startTimestamp = parseTimestamp(stamp);
    if (startTimestamp === undefined)
      throw fieldError(
        'payload.metadata.event-timestamp',
        'event-timestamp must be Unix seconds, milliseconds or an ISO-8601 date',
      );
  }
  startTimestamp ??= startFromMediaKey(key);
  if (startTimestamp === undefined) {
    throw fieldError('payload.metadata.event-timestamp', 'event-timestamp is required: the key carries no start time');
  }
  const product = metadata.productid;
  const deviceKey =
    typeof product === 'string' && product !== '' ? product : typeof product === 'number' ? String(product) : null;
  if (deviceKey !== null && (Buffer.byteLength(deviceKey) > MAX_TEXT_BYTES || !isPlainText(deviceKey))) {
    throw fieldError('payload.metadata.productid', 'productid is too long or contains a control character');
  }
  return {
    kind: 'recording',
    recording: { mediaKey: key, startTimestamp, deviceKey, provider: typeof source === 'string' ? source : null },
  };
}
