// The paging and filter parameters the recordings list and the region search share: a page's limit, a start-time
// range and how many labels a filter may name.
import { ApiError } from '../http/problem.js';
import { parseTimestamp } from './validate.js';

export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 500;
export const MAX_LABELS = 100;

const fieldError = (field: string, detail: string) => new ApiError(400, 'invalid_field', detail, { field });

/**
 * A `from`/`to` start-time bound of the search or the list, in seconds as given (a fraction kept): Unix seconds or
 * ISO-8601, undefined when absent. `source`: a query string (where an empty value is absent) or a JSON body.
 */
export function parseTimeBound(value: unknown, field: 'from' | 'to', source: 'query' | 'body'): number | undefined {
  if (value === undefined || value === null || (source === 'query' && value === '')) return undefined;
  const t = parseTimestamp(value, (seconds) => seconds);
  if (t === undefined) throw fieldError(field, `${field} must be Unix seconds or an ISO-8601 date`);
  return t;
}

/**
 * Both routes' start-time range: refused when it ends before it starts, then rounded inwards to the whole seconds
 * starts are, so that `from` never admits a start before it (from=1700000000.5 must not find 1700000000), nor `to`
 * one after it. A range within one second (from=…0.2, to=…0.8) is valid and matches nothing.
 */
export function parseTimeRange(
  fromValue: unknown,
  toValue: unknown,
  source: 'query' | 'body',
): { from?: number; to?: number } {
  const from = parseTimeBound(fromValue, 'from', source);
  const to = parseTimeBound(toValue, 'to', source);
  if (from !== undefined && to !== undefined && from > to) throw fieldError('from', 'from must not be after to');
  return { from: from === undefined ? undefined : Math.ceil(from), to: to === undefined ? undefined : Math.floor(to) };
}

/** `from`: a query string (text, digits accepted) or a JSON body (a number, as JSON says). */
export function parseLimit(value: unknown, from: 'query' | 'body', field = 'limit'): number {
  if (value === undefined || value === null || (from === 'query' && value === '')) return DEFAULT_PAGE_LIMIT;
  const n = from === 'query' && typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_PAGE_LIMIT) {
    throw fieldError(field, `${field} must be an integer from 1 to ${MAX_PAGE_LIMIT}`);
  }
  return n;
}
