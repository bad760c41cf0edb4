// Region search: walk the recording-label cell masks newest first (an index-only scan that tests bits),
// then confirm each candidate against its runs' exact centroids. Always inside one organisation.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { before, decodeCursor, encodeCursor, type Position } from '../recordings/cursor.js';
import { ANY_LABEL, GRID, isEmpty, type CellMask } from './grid.js';
import { isPostgres } from '../db/is-postgres.js';
import { FRAME_BYTES, POINT_BYTES, rowSpan } from './point-rows.js';
import { containsPoint, coverCells, inBoundingBox, type Polygon } from './region.js';
import type { SearchRequest } from './request.js';
import { withoutNul } from '../db/unstorable-text.js';
import { compareCodePoints } from '../util/code-point-order.js';

type Db = Kysely<Database>;

export interface Match {
  runId: string;
  label: string;
  count: number;
  /** The smallest frame among the matching centroids; null for centroids stored without frames (see 012). */
  firstFrame: number | null;
}
export interface SearchHit {
  id: string;
  mediaKey: string;
  analysisId: string;
  startTimestamp: number;
  deviceKey: string | null;
  /** The smallest of its matches' first frames: where the editor opens the hit. */
  firstFrame: number | null;
  matches: Match[];
}
export interface SearchPage {
  recordings: SearchHit[];
  nextCursor: string | null;
}

interface Candidate extends Position {}

const maskTest = (table: string, mask: CellMask) =>
  sql<boolean>`((${sql.ref(`${table}.cells_lo`)} & ${mask.lo}) <> 0 or (${sql.ref(`${table}.cells_hi`)} & ${mask.hi}) <> 0)`;

async function candidatesFor(
  db: Db,
  orgId: string,
  label: string,
  mask: CellMask,
  req: SearchRequest,
  after: Position | undefined,
  batch: number,
) {
  let q = db
    .selectFrom('recording_label_cells as c')
    .select(['c.recording_id', 'c.start_timestamp'])
    .where('c.org_id', '=', orgId)
    .where('c.label', '=', label)
    .where(maskTest('c', mask));
  if (req.from !== undefined) q = q.where('c.start_timestamp', '>=', req.from);
  if (req.to !== undefined) q = q.where('c.start_timestamp', '<=', req.to);
  if (after) q = q.where(sql<boolean>`(c.start_timestamp, c.recording_id) < (${after.start}, ${after.id})`);
  const rows = await q.orderBy('c.start_timestamp', 'desc').orderBy('c.recording_id', 'desc').limit(batch).execute();
  return rows.map((r): Candidate => ({ start: Number(r.start_timestamp), id: r.recording_id }));
}

/**
 * The next candidates in newest-first order, merged over the labels (one ordered index walk each).
 * `until` is how far the walk is complete: every candidate at or before it has been returned.
 */
async function nextCandidates(
  db: Db,
  orgId: string,
  labels: string[],
  mask: CellMask,
  req: SearchRequest,
  after: Position | undefined,
  batch: number,
) {
  const lists = await Promise.all(labels.map((l) => candidatesFor(db, orgId, l, mask, req, after, batch)));
  let until: Position | undefined;
  for (const list of lists) {
    if (list.length < batch) continue;
    const last = list[list.length - 1]!;
    if (!until || before(last, until)) until = last;
  }
  const seen = new Map<string, Candidate>();
  for (const list of lists) {
    for (const c of list) if (!until || !before(until, c)) seen.set(c.id, c);
  }
  const merged = [...seen.values()].sort((a, b) => (before(a, b) ? -1 : 1));
  return { candidates: merged, exhausted: until === undefined };
}

/** Where grid row `row` starts in rc.points, in points: 0 for the first row, count past the last. */
function rowStart(row: number) {
  return row === 0
    ? sql<number>`0`
    : row === GRID
      ? sql.ref<number>('rc.count')
      : sql.ref<number>(`rc.row${row}_start`);
}

/**
 * Only the entries of the grid rows the region's cells lie in: a small region reads a fraction of each list. The
 * points (`POINT_BYTES` each) and their frames (`FRAME_BYTES` each) are stored in the same order, so one row span
 * slices both.
 */
function sliceOfRows(column: 'points' | 'frames', width: number, mask: CellMask, pg: boolean) {
  const [first, last] = rowSpan(mask);
  const from = rowStart(first);
  const bytes =
    first === 0 && last === GRID - 1
      ? sql<Buffer>`${sql.ref(`rc.${column}`)}`
      : sql<Buffer>`substr(${sql.ref(`rc.${column}`)}, 1 + ${sql.lit(width)} * ${from}, ${sql.lit(width)} * (${rowStart(last + 1)} - ${from}))`;
  // node-postgres receives bytea as hex text, twice its size; base64 is a third smaller and quicker to parse,
  // which is most of the exact check's time on dense regions.
  return pg ? sql<Buffer | string>`encode(${bytes}, 'base64')` : bytes;
}

/**
 * A reused, 8-byte-aligned scratch for decoding float64 lists: a page's thousand lists, each decoded into a new
 * array, cost more in garbage collection than the point tests themselves.
 */
class Scratch {
  private values = new Float64Array(1024);
  private bytes = Buffer.from(this.values.buffer);

  /** The stored float64 list (see detections/centroids.ts) as a view valid until the next call. */
  view(value: Buffer | string): Float64Array {
    const size = typeof value === 'string' ? Math.ceil((value.length * 3) / 4) : value.length;
    if (this.bytes.length < size) {
      this.values = new Float64Array(Math.ceil(size / 8) * 2);
      this.bytes = Buffer.from(this.values.buffer);
    }
    // Buffer's base64 decoder skips the line breaks PostgreSQL puts every 76 characters.
    const written = typeof value === 'string' ? this.bytes.write(value, 'base64') : value.copy(this.bytes);
    return this.values.subarray(0, written >> 3);
  }
}
const pointScratch = new Scratch();
const frameScratch = new Scratch();

/** What confirming costs, in units of about one decoded point: every point, plus its edge tests. */
export interface Work {
  units: number;
}

/** How many points lie inside the polygon and the smallest frame among them (null when no frames are stored). */
function matchInside(
  polygon: Polygon,
  value: Buffer | string,
  frameValue: Buffer | string | null,
  work: Work,
): { count: number; firstFrame: number | null } {
  const points = pointScratch.view(value);
  const frames = frameValue === null ? undefined : frameScratch.view(frameValue);
  const edges = polygon.xy.length >> 1;
  let count = 0;
  let inBox = 0;
  let firstFrame = Number.POSITIVE_INFINITY;
  for (let i = 0; i + 1 < points.length; i += 2) {
    const x = points[i]!;
    const y = points[i + 1]!;
    if (!inBoundingBox(polygon, x, y)) continue;
    inBox++;
    if (!containsPoint(polygon, x, y)) continue;
    count++;
    if (frames) firstFrame = Math.min(firstFrame, frames[i >> 1]!);
  }
  work.units += (points.length >> 1) + inBox * edges * EDGE_UNITS;
  return { count, firstFrame: frames && count > 0 ? firstFrame : null };
}

async function exactMatches(
  db: Db,
  orgId: string,
  ids: string[],
  labels: string[] | undefined,
  mask: CellMask,
  polygon: Polygon,
  work: Work,
) {
  let q = db
    .selectFrom('run_centroids as rc')
    .innerJoin('runs', 'runs.id', 'rc.run_pk')
    .select([
      'rc.recording_id',
      'rc.label',
      sliceOfRows('points', POINT_BYTES, mask, isPostgres(db)).as('points'),
      sliceOfRows('frames', FRAME_BYTES, mask, isPostgres(db)).as('frames'),
      'runs.run_id',
    ])
    .where('rc.org_id', '=', orgId)
    .where('rc.recording_id', 'in', ids)
    .where(maskTest('rc', mask));
  if (labels) q = q.where('rc.label', 'in', labels);
  const rows = await q.execute();
  // A run in segments has a row per label and segment: one match per run and label sums them.
  const byRecording = new Map<string, Map<string, Match>>();
  for (const row of rows) {
    const { count, firstFrame } = matchInside(polygon, row.points, row.frames, work);
    if (count === 0) continue;
    let matches = byRecording.get(row.recording_id);
    if (!matches) {
      matches = new Map();
      byRecording.set(row.recording_id, matches);
    }
    const key = `${row.run_id}\u0000${row.label}`;
    const match = matches.get(key);
    if (!match) matches.set(key, { runId: row.run_id, label: row.label, count, firstFrame });
    else {
      match.count += count;
      if (firstFrame !== null) match.firstFrame = Math.min(match.firstFrame ?? firstFrame, firstFrame);
    }
  }
  const sorted = new Map<string, Match[]>();
  for (const [recordingId, matches] of byRecording) {
    const list = [...matches.values()];
    list.sort((a, b) => compareCodePoints(a.runId, b.runId) || compareCodePoints(a.label, b.label));
    sorted.set(recordingId, list);
  }
  return sorted;
}

const MAX_BATCH = 4096;

/**
 * Edge tests cost about this many decoded points each (measured: a point costs ~0.3 µs to read, decode and
 * pre-test, one edge test ~0.01 µs).
 */
const EDGE_UNITS = 1 / 32;

/**
 * How much confirming one search may do, in work units (about 0.15–0.3 µs each): a page that would take more
 * comes back short, with a nextCursor to go on from. A region that crosses every grid cell but holds almost
 * no centroid (a thin sliver) would otherwise confirm every recording of the organisation in one request.
 */
export const CONFIRM_BUDGET = 1_000_000;

/** How many candidates to confirm next: enough for the rest of the page at the hit rate seen so far. */
function checkSize(needed: number, found: number, checked: number): number {
  if (checked === 0) return needed;
  const rate = (found + 1) / (checked + 1);
  return Math.min(MAX_BATCH, Math.ceil((needed / rate) * 1.2) + 2);
}

/** How many centroids each recording has under the labels: what confirming it can cost, at most. */
async function centroidCounts(db: Db, orgId: string, ids: string[], labels: string[]): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('recording_label_cells')
    .select(['recording_id', 'centroid_count'])
    .where('org_id', '=', orgId)
    .where('recording_id', 'in', ids)
    .where('label', 'in', labels)
    .execute();
  const counts = new Map<string, number>();
  for (const row of rows)
    counts.set(row.recording_id, (counts.get(row.recording_id) ?? 0) + Number(row.centroid_count));
  return counts;
}

/** The smallest first frame among the matches that know theirs. */
function firstFrameOf(matches: Match[]): number | null {
  let first: number | null = null;
  for (const m of matches) if (m.firstFrame !== null && (first === null || m.firstFrame < first)) first = m.firstFrame;
  return first;
}

export async function searchRecordings(
  db: Db,
  orgId: string,
  req: SearchRequest,
  budget = CONFIRM_BUDGET,
  stats?: Work,
): Promise<SearchPage> {
  const mask = coverCells(req.polygon);
  if (isEmpty(mask)) return { recordings: [], nextCursor: null };
  const storableLabels = req.labels && withoutNul(req.labels);
  if (storableLabels?.length === 0) return { recordings: [], nextCursor: null };
  const labels = storableLabels ?? [ANY_LABEL];
  // The index walk is cheap and the exact check is not: candidates are walked ahead in growing batches, but
  // confirmed in chunks sized to what the page still needs, so a dense region reads about one page of points.
  let walked = decodeCursor(req.cursor);
  // Twice the page: a region most recordings match then needs one walk for the page and its few misses.
  let walkBatch = 2 * (req.limit + 1);
  let exhausted = false;
  const pending: Candidate[] = [];
  let checked = 0;
  const work: Work = stats ?? { units: 0 };
  // The most a centroid can cost: read and decoded, then tested against every edge.
  const perCentroid = 1 + (req.polygon.xy.length >> 1) * EDGE_UNITS;
  let lastConfirmed: Candidate | undefined;
  // Where a page cut short by the budget stops: the last candidate confirmed, matched or not.
  let cutAt: Position | undefined;
  const found: Array<{ position: Position; matches: Match[] }> = [];
  // One more than the page, so that the last page says nextCursor: null.
  while (found.length <= req.limit) {
    const want = checkSize(req.limit + 1 - found.length, found.length, checked);
    while (pending.length < want && !exhausted) {
      const next = await nextCandidates(
        db,
        orgId,
        labels,
        mask,
        req,
        walked,
        Math.max(walkBatch, want - pending.length),
      );
      pending.push(...next.candidates);
      if (next.candidates.length > 0) walked = next.candidates[next.candidates.length - 1];
      exhausted = next.exhausted || next.candidates.length === 0;
      walkBatch = Math.min(walkBatch * 4, MAX_BATCH);
    }
    if (pending.length === 0) break;
    // The part of the chunk the budget still covers, by each candidate's most possible cost; the very first
    // candidate of a request is always confirmed, so that every page moves on.
    const counts = await centroidCounts(
      db,
      orgId,
      pending.slice(0, want).map((c) => c.id),
      labels,
    );
    let take = 0;
    let planned = work.units;
    while (take < want && take < pending.length) {
      const cost = (counts.get(pending[take]!.id) ?? 0) * perCentroid;
      if (planned + cost > budget && (take > 0 || checked > 0)) break;
      planned += cost;
      take++;
    }
    if (take === 0) {
      cutAt = lastConfirmed;
      break;
    }
    const chunk = pending.splice(0, take);
    const exact = await exactMatches(
      db,
      orgId,
      chunk.map((c) => c.id),
      storableLabels,
      mask,
      req.polygon,
      work,
    );
    checked += chunk.length;
    lastConfirmed = chunk[chunk.length - 1];
    for (const c of chunk) {
      const matches = exact.get(c.id);
      if (matches) found.push({ position: c, matches });
      if (found.length > req.limit) break;
    }
  }
  const page = found.slice(0, req.limit);
  const nextCursor = cutAt
    ? encodeCursor(cutAt)
    : found.length > req.limit
      ? encodeCursor(page[page.length - 1]!.position)
      : null;
  if (page.length === 0) return { recordings: [], nextCursor };
  const rows = await db
    .selectFrom('recordings')
    .select(['id', 'media_key', 'analysis_id', 'start_timestamp', 'device_key'])
    .where('org_id', '=', orgId)
    .where(
      'id',
      'in',
      page.map((p) => p.position.id),
    )
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const recordings: SearchHit[] = [];
  for (const p of page) {
    const r = byId.get(p.position.id);
    // A recording deleted between the two reads is simply left out.
    if (r)
      recordings.push({
        id: r.id,
        mediaKey: r.media_key,
        analysisId: r.analysis_id,
        startTimestamp: Number(r.start_timestamp),
        deviceKey: r.device_key,
        firstFrame: firstFrameOf(p.matches),
        matches: p.matches,
      });
  }
  return { recordings, nextCursor };
}
