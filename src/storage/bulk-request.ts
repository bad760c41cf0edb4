// The bulk body, element by element: every bad element is reported, by index and reason, each with a code of the
// spec's list (§7): the field's own code where it has one, else invalid_bulk_request. Pure.
import { EXPIRY_HINT, parseExpiry } from '../util/expiry.js';
import { filenameProblem } from './filename.js';

export const MAX_BULK_ELEMENTS = 1000;
const FIELDS = new Set(['filename', 'provider', 'uriExpiryTime']);

export interface BulkItem {
  filename: string;
  provider: string | undefined;
  seconds: number | undefined;
}
export interface BulkError {
  index: number;
  field: string | null;
  code: string;
  reason: string;
}
export type BulkParse = { ok: true; items: BulkItem[] } | { ok: false; detail: string; errors: BulkError[] };

export function parseBulk(body: unknown): BulkParse {
  if (!Array.isArray(body)) {
    return {
      ok: false,
      detail: 'The body must be a JSON array of { filename, provider?, uriExpiryTime? }',
      errors: [],
    };
  }
  if (body.length > MAX_BULK_ELEMENTS) {
    return {
      ok: false,
      detail: `The array has ${body.length} elements; at most ${MAX_BULK_ELEMENTS} are allowed`,
      errors: [],
    };
  }
  const items: BulkItem[] = [];
  const errors: BulkError[] = [];
  body.forEach((element: unknown, index) => {
    if (typeof element !== 'object' || element === null || Array.isArray(element)) {
      errors.push({ index, field: null, code: 'invalid_bulk_request', reason: 'the element must be an object' });
      return;
    }
    const e = element as Record<string, unknown>;
    const before = errors.length;
    for (const key of Object.keys(e)) {
      if (!FIELDS.has(key))
        errors.push({
          index,
          field: key,
          code: 'invalid_bulk_request',
          reason: `unknown field "${key}" (fields: filename, provider, uriExpiryTime)`,
        });
    }
    if (typeof e.filename !== 'string') {
      errors.push({
        index,
        field: 'filename',
        code: 'invalid_filename',
        reason: e.filename === undefined ? 'filename is required' : 'filename must be a string',
      });
    } else {
      const bad = filenameProblem(e.filename);
      if (bad) errors.push({ index, field: 'filename', code: 'invalid_filename', reason: bad });
    }
    if (e.provider !== undefined && (typeof e.provider !== 'string' || e.provider === '')) {
      errors.push({
        index,
        field: 'provider',
        code: 'unknown_provider',
        reason: 'provider must be the non-empty name of a provider',
      });
    }
    let seconds: number | undefined;
    if (e.uriExpiryTime !== undefined) {
      seconds = parseExpiry(e.uriExpiryTime);
      if (seconds === undefined)
        errors.push({ index, field: 'uriExpiryTime', code: 'invalid_expiry', reason: EXPIRY_HINT });
    }
    if (errors.length === before)
      items.push({ filename: e.filename as string, provider: e.provider as string | undefined, seconds });
  });
  if (errors.length > 0) {
    const bad = new Set(errors.map((e) => e.index)).size;
    return {
      ok: false,
      detail: `${bad} of ${body.length} element${body.length > 1 ? 's are' : ' is'} invalid; no URL was issued`,
      errors,
    };
  }
  return { ok: true, items };
}
