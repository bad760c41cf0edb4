// Region search: walk the recording-label cell masks newest first (an index-only scan that tests bits),
// then confirm each candidate against its runs' exact centroids. Always inside one organisation.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { decodePoints } from '../detections/centroids.js';
import { before, decodeCursor, encodeCursor, type Position } from '../recordings/cursor.js';
import { ANY_LABEL, isEmpty, type CellMask } from './grid.js';
import { containsPoint, coverCells, type Polygon } from './region.js';
import type { SearchRequest } from './request.js';

type Db = Kysely<Database>;

export interface Match { runId: string; label: string; count: number }
export interface SearchHit {
  id: string; mediaKey: string; analysisId: string; startTimestamp: number; deviceKey: string | null; matches: Match[];
}
export interface SearchPage { recordings: SearchHit[]; nextCursor: string | null }

interface Candidate extends Position { }

const maskTest = (table: string, mask: CellMask) =>
  sql<boolean>`((${sql.ref(`${table}.cells_lo`)} & ${mask.lo}) <> 0 or (${sql.ref(`${table}.cells_hi`)} & ${mask.hi}) <> 0)`;

async function candidatesFor(db: Db, orgId: string, label: string, mask: CellMask, req: SearchRequest, after: Position | undefined, batch: number) {
  let q = db.selectFrom('recording_label_cells as c').select(['c.recording_id', 'c.start_timestamp'])
    .where('c.org_id', '=', orgId).where('c.label', '=', label).where(maskTest('c', mask));
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
async function nextCandidates(db: Db, orgId: string, labels: string[], mask: CellMask, req: SearchRequest, after: Position | undefined, batch: number) {
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

async function exactMatches(db: Db, orgId: string, ids: string[], labels: string[] | undefined, mask: CellMask, polygon: Polygon) {
  let q = db.selectFrom('run_centroids as rc').innerJoin('runs', 'runs.id', 'rc.run_pk')
    .select(['rc.recording_id', 'rc.label', 'rc.points', 'runs.run_id'])
    .where('rc.org_id', '=', orgId).where('rc.recording_id', 'in', ids).where(maskTest('rc', mask));
  if (labels) q = q.where('rc.label', 'in', labels);
  const rows = await q.execute();
  const byRecording = new Map<string, Match[]>();
  for (const row of rows) {
    const points = decodePoints(row.points);
    let count = 0;
    for (let i = 0; i < points.length; i += 2) if (containsPoint(polygon, points[i]!, points[i + 1]!)) count++;
    if (count === 0) continue;
    let list = byRecording.get(row.recording_id);
    if (!list) byRecording.set(row.recording_id, (list = []));
    list.push({ runId: row.run_id, label: row.label, count });
  }
  for (const list of byRecording.values()) {
    list.sort((a, b) => (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  }
  return byRecording;
}

export async function searchRecordings(db: Db, orgId: string, req: SearchRequest): Promise<SearchPage> {
  let position = decodeCursor(req.cursor);
  const mask = coverCells(req.polygon);
  if (isEmpty(mask)) return { recordings: [], nextCursor: null };
  const labels = req.labels ?? [ANY_LABEL];
  // Dense regions fill a page from the first batch; sparse ones widen the walk each round.
  let batch = req.limit + 1;
  const found: Array<{ position: Position; matches: Match[] }> = [];
  // One more than the page, so that the last page says nextCursor: null.
  while (found.length <= req.limit) {
    const { candidates, exhausted } = await nextCandidates(db, orgId, labels, mask, req, position, batch);
    if (candidates.length > 0) {
      const exact = await exactMatches(db, orgId, candidates.map((c) => c.id), req.labels, mask, req.polygon);
      for (const c of candidates) {
        const matches = exact.get(c.id);
        if (matches) found.push({ position: c, matches });
        if (found.length > req.limit) break;
      }
      position = candidates[candidates.length - 1];
    }
    batch = Math.min(batch * 4, 4096);
    if (exhausted || candidates.length === 0) break;
  }
  const page = found.slice(0, req.limit);
  const nextCursor = found.length > req.limit ? encodeCursor(page[page.length - 1]!.position) : null;
  if (page.length === 0) return { recordings: [], nextCursor };
  const rows = await db.selectFrom('recordings').select(['id', 'media_key', 'analysis_id', 'start_timestamp', 'device_key'])
    .where('org_id', '=', orgId).where('id', 'in', page.map((p) => p.position.id)).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const recordings: SearchHit[] = [];
  for (const p of page) {
    const r = byId.get(p.position.id);
    // A recording deleted between the two reads is simply left out.
    if (r) recordings.push({ id: r.id, mediaKey: r.media_key, analysisId: r.analysis_id, startTimestamp: Number(r.start_timestamp), deviceKey: r.device_key, matches: p.matches });
  }
  return { recordings, nextCursor };
}
