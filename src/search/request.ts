// Pure validation of a POST /recordings/search body into a polygon of the 100×100 centroid space.
import { isObject } from '../util/is-object.js';
import { ApiError } from '../http/problem.js';
import { MAX_LABELS, parseLimit, parseTimeRange } from '../recordings/page-params.js';
import { SPACE } from './grid.js';
import { polygonOf, type Polygon } from './region.js';

const MAX_POLYGON_POINTS = 1000;

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
