// Reads a run's summary with its stored body (the track headers and the box blob) as one version.
import { inPgSnapshot, type PgSnapshot } from '../db/pg-snapshot.js';
import type { Store } from '../db/store.js';
import { runSummary, runWithBody, type SummaryRow } from './queries.js';

/** `version` counts the run's writes: a body belongs to the summary of the same version. */
export interface RunBody {
  tracks: string;
  boxes: Uint8Array;
  version: number;
}

const bodySelect = (runPk: string) => (literal: (value: string) => string) =>
  `SELECT tracks, boxes, version FROM runs WHERE id = ${literal(runPk)}`;

function bodyOfCopiedRow(row: Array<Buffer | null> | undefined): RunBody | undefined {
  // Binary COPY: an integer column is 4 bytes, big-endian.
  return row && { tracks: row[0]!.toString('utf8'), boxes: row[1]!, version: row[2]!.readInt32BE(0) };
}

/**
 * The run's summary and body as one version, or undefined when the run is gone. Read apart, a replacement between
 * the two reads kept the run's id and paired one version's summary (counts, name, source) with another's tracks.
 * SQLite: one statement. PostgreSQL: one REPEATABLE READ transaction (the body goes out as binary COPY, which no
 * query can join), every statement under the deadline.
 */
export async function readRunSnapshot(
  store: Store,
  orgId: string,
  runPk: string,
): Promise<{ row: SummaryRow; body: RunBody } | undefined> {
  if (store.pgPool) {
    return inPgSnapshot(store.pgPool, store.pgQueryDeadlineMs?.() ?? 0, async ({ db, copyOutFirstRow }: PgSnapshot) => {
      const row = await runSummary(db, orgId, runPk);
      const body = row && bodyOfCopiedRow(await copyOutFirstRow(bodySelect(runPk)));
      return row && body && { row, body };
    });
  }
  const found = await runWithBody(store.db, orgId, runPk);
  if (!found) return undefined;
  const { tracks, boxes, ...row } = found;
  return { row, body: { tracks, boxes, version: row.version } };
}
