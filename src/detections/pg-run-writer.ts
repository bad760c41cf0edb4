// upsertRun on PostgreSQL: one transaction stores a batch of runs (one for a large run, many for small runs
// under load) with one statement per step rather than one per run: the round trips and the commit are the
// cost of a small run, not the rows.
import { sql, type Kysely } from 'kysely';
import { lockRecordingsForWrite } from '../db/recording-gate.js';
import { rowBatchQuery } from '../db/row-batch-query.js';
import type { Database, RunsTable } from '../db/schema.js';
import type { Recording } from '../recordings/queries.js';
import { lockRecordingCells, mergeLabelCellRows, refreshRecordingCells } from '../search/cell-index.js';
import { cellChange, labelCellRows, labelCellsOf, type LabelCells } from '../search/label-cells.js';
import {
  REPLACED_RUN_COLUMNS,
  REVISION_COPY_COLUMNS,
  REVISION_COPY_SELECT,
  RUN_COLUMNS,
  centroidRowsOf,
  runRowOf,
  type CentroidRow,
  runKey,
  type RunWrite,
} from './run-rows.js';
import type { StoredRun } from './run-write-batch.js';

// The two multi-row statements of every batch, compiled once per row count (row-batch-query.ts).
const upsertRuns = rowBatchQuery(RUN_COLUMNS, (db: Kysely<Database>, rows: RunsTable[]) =>
  db
    .insertInto('runs')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['recording_id', 'run_id']).doUpdateSet((eb) => ({
        ...Object.fromEntries(REPLACED_RUN_COLUMNS.map((c) => [c, eb.ref(`excluded.${c}`)])),
        version: eb('runs.version', '+', 1),
        revision: eb('runs.revision', '+', 1),
      })),
    )
    .returning(['id', 'version', 'recording_id', 'run_id']),
);

type CentroidInsert = CentroidRow & { run_pk: string };
const CENTROID_COLUMNS = [
  'run_pk',
  'recording_id',
  'org_id',
  'label',
  'count',
  'points',
  'frames',
  'cells_lo',
  'cells_hi',
  'row1_start',
  'row2_start',
  'row3_start',
  'row4_start',
  'row5_start',
  'row6_start',
  'row7_start',
] as const satisfies ReadonlyArray<keyof CentroidInsert>;
const insertCentroids = rowBatchQuery(
  CENTROID_COLUMNS,
  (db: Kysely<Database>, rows: CentroidInsert[]) => db.insertInto('run_centroids').values(rows),
  256,
);

/**
 * Stores the last write of each group. Runs go in key order, so that two instances writing overlapping
 * batches take the run rows' locks in the same order and cannot deadlock.
 */
export async function writePgRuns(db: Kysely<Database>, groups: RunWrite[][]): Promise<StoredRun[]> {
  const writes = groups.map((g) => g[g.length - 1]!).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const now = Date.now();
  const rows = writes.map((w) => runRowOf(w.orgId, w.recording, w.run, now, 'columns', w.editedBy));
  const recordingIds = [...new Set(writes.map((w) => w.recording.id))].sort();
  const byKey = await db.transaction().execute(async (trx) => {
    // The recordings' rows before anything else, as deleting a recording and the retention sweep take them: a
    // replaced run takes no foreign-key lock on its recording, and without this a delete that holds the recording
    // and waits for this run's row deadlocks with this batch's own wait for the recording (its centroids' key).
    // Queued on the connection together with the upsert: no extra wait here.
    // Behind the recordings' gates (recording-gate.ts), so that a delete waiting for them is not starved.
    const locked = lockRecordingsForWrite(recordingIds).execute(trx);
    locked.catch(() => {});
    // The contents being replaced become revisions, their rows locked first in key order (no deadlock between
    // batches), so that what is kept is the latest committed content.
    const kept = keepRevisions(writes).execute(trx);
    kept.catch(() => {});
    // A run in segments hands them to that revision; the new content is one blob in the row again.
    const keptSegments = keepSegments(writes).execute(trx);
    keptSegments.catch(() => {});
    const upsert = upsertRuns(trx, rows);
    // The centroids are worked out while the runs travel to the server and it writes them: once the query is
    // on the wire (the driver sends it within the current turn's microtasks), the CPU is free until the answer
    // comes. A large run's centroids take ~11 ms.
    // Marked handled now: a failure surfaces at the await below, not as an unhandled rejection meanwhile.
    upsert.catch(() => {});
    await new Promise<void>((resolve) => setImmediate(resolve));
    const centroids = writes.map((w) => centroidRowsOf(w.recording, w.run));
    await locked;
    await kept;
    await keptSegments;
    const upserted = await upsert;
    const stored = new Map(
      upserted.map((r) => [runKey(r.recording_id, r.run_id), { runPk: r.id, created: r.version === 1 }]),
    );
    const results = writes.map((w) => stored.get(w.key)!);
    const replacedRows = upserted.filter((r) => r.version !== 1);
    if (replacedRows.length > 0) {
      const keep = Math.min(...writes.map((w) => w.revisionsKept));
      await sql`delete from run_revisions rr where rr.run_pk = any(${replacedRows.map((r) => r.id)}::text[])
        and rr.revision <= (select r.revision from runs r where r.id = rr.run_pk) - ${keep}`.execute(trx);
      await sql`delete from run_segments s where s.run_pk = any(${replacedRows.map((r) => r.id)}::text[])
        and s.revision > 0 and s.revision <= (select r.revision from runs r where r.id = s.run_pk) - ${keep}`.execute(
        trx,
      );
      // Stored as one blob again: the track index of its former segments goes.
      await sql`delete from run_track_segments where run_pk = any(${replacedRows.map((r) => r.id)}::text[])`.execute(
        trx,
      );
    }

    // A run just created has no centroid rows yet.
    const replaced = results.filter((r) => !r.created).map((r) => r.runPk);
    const previous =
      replaced.length === 0
        ? []
        : await trx
            .deleteFrom('run_centroids')
            .where('run_pk', 'in', replaced)
            .returning(['recording_id', 'label', 'cells_lo', 'cells_hi', 'count'])
            .execute();
    const newRows = writes.flatMap((_, i) => centroids[i]!.map((c) => ({ ...c, run_pk: results[i]!.runPk })));
    if (newRows.length > 0) await insertCentroids(trx, newRows);

    await updateRecordingCells(
      trx,
      writes.map((w) => w.recording),
      centroids,
      previous,
    );
    return stored;
  });
  return groups.map((g) => byKey.get(g[g.length - 1]!.key)!);
}

/** INSERT … SELECT of the runs about to be replaced into run_revisions, each row locked in the writes' order. */
function keepRevisions(writes: RunWrite[]) {
  const recordings = writes.map((w) => w.recording.id);
  const runIds = writes.map((w) => w.run.meta.runId);
  return sql`insert into run_revisions (${sql.raw(REVISION_COPY_COLUMNS)})
    select ${sql.raw(REVISION_COPY_SELECT)} from runs r
    join unnest(${recordings}::text[], ${runIds}::text[]) with ordinality as k(recording_id, run_id, ord)
      on r.recording_id = k.recording_id and r.run_id = k.run_id
    order by k.ord
    for update of r`;
}

/** The current segments of the runs about to be replaced become their kept revision's (rows locked just before). */
function keepSegments(writes: RunWrite[]) {
  const recordings = writes.map((w) => w.recording.id);
  const runIds = writes.map((w) => w.run.meta.runId);
  return sql`update run_segments s set revision = r.revision from runs r
    join unnest(${recordings}::text[], ${runIds}::text[]) as k(recording_id, run_id)
      on r.recording_id = k.recording_id and r.run_id = k.run_id
    where s.run_pk = r.id and s.revision = 0`;
}

/** Each touched recording's aggregate follows its runs' centroids: OR-merged where no cell is gone, else recomputed. */
async function updateRecordingCells(
  trx: Kysely<Database>,
  recordings: Recording[],
  centroids: CentroidRow[][],
  previous: Array<{ recording_id: string; label: string; cells_lo: number; cells_hi: number; count: number }>,
): Promise<void> {
  const touched = new Map<string, { recording: Recording; removed: LabelCells[]; added: LabelCells[] }>();
  recordings.forEach((recording, i) => {
    const entry = touched.get(recording.id) ?? { recording, removed: [], added: [] };
    entry.added.push(...centroids[i]!.map(labelCellsOf));
    touched.set(recording.id, entry);
  });
  for (const p of previous) touched.get(p.recording_id)!.removed.push(labelCellsOf(p));
  await lockRecordingCells(trx, [...touched.keys()]);
  const merged = [];
  for (const { recording, removed, added } of touched.values()) {
    const change = cellChange(removed, added);
    if (change === 'recompute') await refreshRecordingCells(trx, recording.id);
    else merged.push(...labelCellRows(recording, change.merge));
  }
  await mergeLabelCellRows(trx, merged);
}
