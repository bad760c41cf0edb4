// Reads a run's summary with its stored body (the track headers and the box blob) as one version.
import { inPgSnapshot, type PgSnapshot } from '../db/pg-snapshot.js';
import type { Store } from '../db/store.js';
import { runSummary, runWithBody, type SummaryRow } from './queries.js';
import { isSegmentedBoxes } from './run-codec.js';
import { CURRENT, joinSegmentRows, readJoinedSegments } from './segment-queries.js';

/** `version` counts the run's writes: a body belongs to the summary of the same version. */
export interface RunBody {
  tracks: string;
  boxes: Uint8Array;
  version: number;
}

const bodySelect = (runPk: string) => (literal: (value: string) => string) =>
  `SELECT tracks, boxes, version FROM runs WHERE id = ${literal(runPk)}`;
const segmentsSelect = (runPk: string) => (literal: (value: string) => string) =>
  `SELECT tracks, boxes FROM run_segments WHERE run_pk = ${literal(runPk)} AND revision = ${CURRENT} ORDER BY segment`;

function bodyOfCopiedRow(row: Array<Buffer | null> | undefined): RunBody | undefined {
  // Binary COPY: an integer column is 4 bytes, big-endian.
  return row && { tracks: row[0]!.toString('utf8'), boxes: row[1]!, version: row[2]!.readInt32BE(0) };
}

/**
 * The run's summary and body as one version, or undefined when the run is gone. Read apart, a replacement between
 * the two reads kept the run's id and paired one version's summary (counts, name, source) with another's tracks.
 * SQLite: one statement, or one transaction when the boxes are in segments. PostgreSQL: one REPEATABLE READ
 * transaction (the body goes out as binary COPY, which no query can join), every statement under the deadline.
 * A run stored in segments reads as one body: the segments' headers and boxes joined (run-codec.ts, "SLB3").
 */
export async function readRunSnapshot(
  store: Store,
  orgId: string,
  runPk: string,
): Promise<{ row: SummaryRow; body: RunBody } | undefined> {
  if (store.pgPool) {
    return inPgSnapshot(
      store.pgPool,
      store.pgQueryDeadlineMs?.() ?? 0,
      async ({ db, copyOutFirstRow, copyOutRows }: PgSnapshot) => {
        const row = await runSummary(db, orgId, runPk);
        if (!row) return undefined;
        const body = bodyOfCopiedRow(await copyOutFirstRow(bodySelect(runPk)));
        if (!body) return undefined;
        if (!isSegmentedBoxes(body.boxes)) return { row, body };
        const segments = await copyOutRows(segmentsSelect(runPk));
        const joined = joinSegmentRows(segments.map((s) => ({ tracks: s[0]!.toString('utf8'), boxes: s[1]! })));
        return { row, body: { ...joined, version: body.version } };
      },
    );
  }
  const found = await runWithBody(store.db, orgId, runPk);
  if (!found) return undefined;
  if (isSegmentedBoxes(found.boxes)) return readSegmentedOnSqlite(store, orgId, runPk);
  const { tracks, boxes, ...row } = found;
  return { row, body: { tracks, boxes, version: row.version } };
}

/** The summary and the joined segments in one read transaction (a write between them would pair two versions). */
function readSegmentedOnSqlite(store: Store, orgId: string, runPk: string) {
  return store.db.transaction().execute(async (trx) => {
    const found = await runWithBody(trx, orgId, runPk);
    if (!found) return undefined;
    const { tracks, boxes, ...row } = found;
    const body = isSegmentedBoxes(boxes) ? await readJoinedSegments(trx, runPk, CURRENT) : { tracks, boxes };
    return { row, body: { ...body, version: row.version } };
  });
}
