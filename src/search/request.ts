// Pure validation of a POST /recordings/search body into a polygon of the 100×100 centroid space.
import { isObject } from '../util/is-object.js';
import { ApiError } from '../http/problem.js';
import { parseTimestamp } from '../recordings/validate.js';
import { SPACE } from './grid.js';
import { polygonOf, type Polygon } from './region.js';

export const DEFAULT_SEARCH_LIMIT = 50;
export const MAX_SEARCH_LIMIT = 500;
const MAX_POLYGON_POINTS = 1000;
export const MAX_LABELS = 100;

export interface SearchRequest {
  polygon: Polygon;
  labels?: string[];
  from?: number;
  to?: number;
  limit: number;
  cursor?: unknown;
}

const fieldError = (field: string, detail: string) => new ApiError(400, 'invalid_field', detail, { field });
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * `{ points: [{x, y}…], width, height }` — a polygon in a canvas of that size (without width and height the
 * points are normalized, 0–1) — or `{ x, y, w, h }`, a normalized rectangle.
 */
export function regionPolygon(region: unknown): Polygon {
  if (!isObject(region)) throw fieldError('region', 'region must be { points, width, height } or { x, y, w, h }');
  if (region.points !== undefined) {
    const points = region.points;
    if (!Array.isArray(points) || points.length < 3 || points.length > MAX_POLYGON_POINTS) {
      throw fieldError('region.points', `region.points must be an array of 3 to ${MAX_POLYGON_POINTS} points`);
    }
    const hasW = region.width !== undefined && region.width !== null;
    const hasH = region.height !== undefined && region.height !== null;
    if (hasW !== hasH)
      throw fieldError('region', 'give both region.width and region.height, or neither (normalized points)');
    const width = hasW ? region.width : 1;
    const height = hasH ? region.height : 1;
    if (!finite(width) || width <= 0 || !finite(height) || height <= 0) {
      throw fieldError('region', 'region.width and region.height must be numbers > 0');
    }
    const xy: number[] = [];
    points.forEach((p, i) => {
      if (!isObject(p) || !finite(p.x) || !finite(p.y))
        throw fieldError(`region.points[${i}]`, `region.points[${i}] must be { x, y } with finite numbers`);
      xy.push((p.x / width) * SPACE, (p.y / height) * SPACE);
    });
    if (!xy.every(Number.isFinite))
      throw fieldError(
        'region',
        hasW
          ? 'region.points divided by width and height must stay finite numbers'
          : 'region.points are too large: normalized points lie near 0 to 1 (give width and height for pixel points)',
      );
    return polygonOf(xy);
  }
  const { x, y, w, h } = region;
  if (!finite(x) || !finite(y) || !finite(w) || !finite(h))
    throw fieldError('region', 'region must be { points, width, height } or { x, y, w, h }');
  if (w <= 0 || h <= 0) throw fieldError('region', 'region.w and region.h must be > 0');
  const x0 = x * SPACE;
  const y0 = y * SPACE;
  const x1 = (x + w) * SPACE;
  const y1 = (y + h) * SPACE;
  if (![x0, y0, x1, y1].every(Number.isFinite))
    throw fieldError('region', 'region x + w and y + h must stay finite numbers');
  return polygonOf([x0, y0, x1, y0, x1, y1, x0, y1]);
}

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
  if (value === undefined || value === null || (from === 'query' && value === '')) return DEFAULT_SEARCH_LIMIT;
  const n = from === 'query' && typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_SEARCH_LIMIT) {
    throw fieldError(field, `${field} must be an integer from 1 to ${MAX_SEARCH_LIMIT}`);
  }
  return n;
}

export function validateSearchBody(body: unknown): SearchRequest {
  if (!isObject(body)) throw new ApiError(400, 'invalid_body', 'The body must be a JSON object');
  if (body.region === undefined) throw fieldError('region', 'region is required');
  const polygon = regionPolygon(body.region);
  let labels: string[] | undefined;
  if (body.labels !== undefined && body.labels !== null) {
    if (
      !Array.isArray(body.labels) ||
      body.labels.length > MAX_LABELS ||
      !body.labels.every((l) => typeof l === 'string' && l !== '')
    ) {
      throw fieldError('labels', `labels must be an array of at most ${MAX_LABELS} non-empty strings`);
    }
    labels = body.labels.length > 0 ? [...new Set(body.labels as string[])] : undefined;
  }
  const { from, to } = parseTimeRange(body.from, body.to, 'body');
  return { polygon, labels, from, to, limit: parseLimit(body.limit, 'body'), cursor: body.cursor };
}
