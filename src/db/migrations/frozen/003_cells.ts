// What migration 003's backfill computes, frozen as it was when the migration shipped: the live search and detections
// code may change its layout later, and an applied migration must not change with it.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../../is-postgres.js';

const GRID = 8;
const CELL = 100 / GRID;
const ANY_LABEL = '';

export const ROW_START_COLUMNS = [
  'row1_start',
  'row2_start',
  'row3_start',
  'row4_start',
  'row5_start',
  'row6_start',
  'row7_start',
] as const;
type RowStarts = Record<(typeof ROW_START_COLUMNS)[number], number>;

interface CellMask {
  lo: number;
  hi: number;
}

function axisCell(v: number): number {
  const c = Math.floor(v / CELL);
  return c < 0 ? 0 : c >= GRID ? GRID - 1 : c;
}

function cellOf(x: number, y: number): number {
  return axisCell(y) * GRID + axisCell(x);
}

/** The 8×8 cells holding any of the points (x0, y0, x1, y1, …), as two 32-bit halves. */
export function cellMasksOfPoints(points: ArrayLike<number>): CellMask {
  let lo = 0;
  let hi = 0;
  for (let i = 0; i + 1 < points.length; i += 2) {
    const cell = cellOf(points[i]!, points[i + 1]!);
    if (cell < 32) lo |= 1 << cell;
    else hi |= 1 << (cell - 32);
  }
  return { lo: lo >>> 0, hi: hi >>> 0 };
}

function rowOf(y: number): number {
  return Math.floor(cellOf(0, y) / GRID);
}

/** The points ordered by grid row (stable within a row), and where each row starts. */
export function orderByRow(points: ArrayLike<number>): { ordered: number[]; starts: RowStarts } {
  const n = points.length >> 1;
  const counts = new Array<number>(GRID + 1).fill(0);
  for (let i = 0; i < n; i++) counts[rowOf(points[2 * i + 1]!) + 1]!++;
  for (let r = 1; r <= GRID; r++) counts[r]! += counts[r - 1]!;
  const next = counts.slice();
  const ordered = new Array<number>(2 * n);
  for (let i = 0; i < n; i++) {
    const at = next[rowOf(points[2 * i + 1]!)]!++;
    ordered[2 * at] = points[2 * i]!;
    ordered[2 * at + 1] = points[2 * i + 1]!;
  }
  const starts = Object.fromEntries(ROW_START_COLUMNS.map((c, i) => [c, counts[i + 1]!])) as RowStarts;
  return { ordered, starts };
}

/** Centroids are stored as float64 pairs. */
export function encodePoints(points: number[]): Buffer {
  const values = Float64Array.from(points);
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
}

export function decodePoints(blob: Uint8Array): Float64Array {
  const copy = new Float64Array(blob.byteLength / 8);
  new Uint8Array(copy.buffer).set(blob);
  return copy;
}

/** Rewrites a recording's recording_label_cells rows from its run_centroids rows (each label, and ANY_LABEL). */
export async function refreshRecordingCells(db: Kysely<any>, recordingId: string): Promise<void> {
  if (isPostgres(db))
    await sql`select pg_advisory_xact_lock(hashtext('recording-cells:' || ${recordingId}::text))`.execute(db);
  const recording = (await db
    .selectFrom('recordings')
    .select(['org_id', 'start_timestamp'])
    .where('id', '=', recordingId)
    .executeTakeFirst()) as { org_id: string; start_timestamp: number } | undefined;
  await db.deleteFrom('recording_label_cells').where('recording_id', '=', recordingId).execute();
  if (!recording) return;
  const parts = (await db
    .selectFrom('run_centroids')
    .select(['label', 'cells_lo', 'cells_hi', 'count'])
    .where('recording_id', '=', recordingId)
    .execute()) as Array<{
    label: string;
    cells_lo: number | string;
    cells_hi: number | string;
    count: number | string;
  }>;
  if (parts.length === 0) return;
  const byLabel = new Map<string, { lo: number; hi: number; n: number }>();
  for (const p of parts) {
    for (const label of [ANY_LABEL, p.label]) {
      const a = byLabel.get(label) ?? { lo: 0, hi: 0, n: 0 };
      byLabel.set(label, {
        lo: (a.lo | Number(p.cells_lo)) >>> 0,
        hi: (a.hi | Number(p.cells_hi)) >>> 0,
        n: a.n + Number(p.count),
      });
    }
  }
  await db
    .insertInto('recording_label_cells')
    .values(
      [...byLabel].map(([label, a]) => ({
        recording_id: recordingId,
        org_id: recording.org_id,
        label,
        start_timestamp: Number(recording.start_timestamp),
        cells_lo: a.lo,
        cells_hi: a.hi,
        centroid_count: a.n,
      })),
    )
    .execute();
}
