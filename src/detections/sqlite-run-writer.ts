// upsertRun on SQLite: the same rows as the Kysely path (run-rows.ts, label-cells.ts), written with statements
// prepared once, in one synchronous IMMEDIATE transaction. Building the queries through Kysely cost more than
// running them (about 200 µs of a small run's 350 µs write). A batch of runs shares one transaction and its commit.
import type SqliteDatabase from 'better-sqlite3';
import { labelCellRows, labelCellsOf, cellChange, type LabelCells, type LabelCellsRow } from '../search/label-cells.js';
import { ROW_START_COLUMNS } from '../search/point-rows.js';
import type { RunsTable } from '../db/schema.js';
import type { Recording } from '../recordings/queries.js';
import {
  REPLACED_RUN_COLUMNS,
  REVISION_COPY_COLUMNS,
  REVISION_COPY_SELECT,
  RUN_COLUMNS,
  type CentroidRow,
} from './run-rows.js';
import type { StoredRun } from './run-write-batch.js';
import { SQLITE_DROP_TRACK_INDEX, SQLITE_KEEP_SEGMENTS, SQLITE_PRUNE_SEGMENTS } from './segment-queries.js';

const CENTROID_COLUMNS = [
  'run_pk',
  'recording_id',
  'org_id',
  'label',
  'count',
  'points',
  'frames',
  ...ROW_START_COLUMNS,
  'cells_lo',
  'cells_hi',
] as const;
const CELL_COLUMNS = [
  'recording_id',
  'org_id',
  'label',
  'start_timestamp',
  'cells_lo',
  'cells_hi',
  'centroid_count',
] as const satisfies ReadonlyArray<keyof LabelCellsRow>;

const named = (columns: readonly string[]) => columns.map((c) => `@${c}`).join(', ');
const SQL = {
  upsertRun: `insert into runs (${RUN_COLUMNS.join(', ')}) values (${named(RUN_COLUMNS)})
    on conflict (recording_id, run_id) do update set ${REPLACED_RUN_COLUMNS.map((c) => `${c} = excluded.${c}`).join(', ')},
    version = runs.version + 1, revision = runs.revision + 1
    returning id, version, revision`,
  keepRevision: `insert into run_revisions (${REVISION_COPY_COLUMNS}) select ${REVISION_COPY_SELECT} from runs r
    where r.recording_id = @recording_id and r.run_id = @run_id`,
  keepSegments: SQLITE_KEEP_SEGMENTS,
  pruneRevisions: 'delete from run_revisions where run_pk = ? and revision <= ?',
  pruneSegments: SQLITE_PRUNE_SEGMENTS,
  dropTrackIndex: SQLITE_DROP_TRACK_INDEX,
  deleteCentroids: 'delete from run_centroids where run_pk = ? returning label, cells_lo, cells_hi, count',
  insertCentroid: `insert into run_centroids (${CENTROID_COLUMNS.join(', ')}) values (${named(CENTROID_COLUMNS)})`,
  mergeCells: `insert into recording_label_cells (${CELL_COLUMNS.join(', ')}) values (${named(CELL_COLUMNS)})
    on conflict (recording_id, label) do update set cells_lo = recording_label_cells.cells_lo | excluded.cells_lo,
    cells_hi = recording_label_cells.cells_hi | excluded.cells_hi,
    centroid_count = recording_label_cells.centroid_count + excluded.centroid_count`,
  clearCells: 'delete from recording_label_cells where recording_id = ?',
  recordingCentroids: 'select label, cells_lo, cells_hi, count from run_centroids where recording_id = ?',
  insertCells: `insert into recording_label_cells (${CELL_COLUMNS.join(', ')}) values (${named(CELL_COLUMNS)})`,
};

type Statements = { [K in keyof typeof SQL]: SqliteDatabase.Statement };
type StoredCentroid = { label: string; cells_lo: number; cells_hi: number; count: number };

export interface SqliteRun {
  row: RunsTable;
  /** RUN_REVISIONS_KEPT: the revisions the run keeps, the current one included. */
  revisionsKept: number;
  recording: Recording;
  centroids: CentroidRow[];
}
export type SqliteRunWrite = (runs: SqliteRun[]) => StoredRun[];

const writers = new WeakMap<SqliteDatabase.Database, SqliteRunWrite>();

/** The writer for this database handle (all the runs in one transaction), its statements prepared on first use. */
export function sqliteRunWriter(sqlite: SqliteDatabase.Database): SqliteRunWrite {
  let write = writers.get(sqlite);
  if (!write) {
    const s = Object.fromEntries(Object.entries(SQL).map(([k, text]) => [k, sqlite.prepare(text)])) as Statements;
    const writeOne = ({ row, revisionsKept, recording, centroids }: SqliteRun): StoredRun => {
      // The content being replaced becomes a revision (none when the run is new).
      // A run in segments hands them to that revision; the new content is one blob in the row again.
      s.keepRevision.run({ recording_id: row.recording_id, run_id: row.run_id });
      s.keepSegments.run({ recording_id: row.recording_id, run_id: row.run_id });
      const stored = s.upsertRun.get(row) as { id: string; version: number; revision: number };
      const created = stored.version === 1;
      if (!created) {
        s.pruneRevisions.run(stored.id, stored.revision - revisionsKept);
        s.pruneSegments.run(stored.id, stored.revision - revisionsKept);
        s.dropTrackIndex.run(stored.id);
      }
      // A run just created has no centroid rows yet.
      const removed: LabelCells[] = created
        ? []
        : (s.deleteCentroids.all(stored.id) as StoredCentroid[]).map(labelCellsOf);
      for (const c of centroids) s.insertCentroid.run({ ...c, run_pk: stored.id });
      const change = cellChange(removed, centroids.map(labelCellsOf));
      if (change === 'recompute') {
        s.clearCells.run(recording.id);
        const parts = (s.recordingCentroids.all(recording.id) as StoredCentroid[]).map(labelCellsOf);
        for (const cells of labelCellRows(recording, parts)) s.insertCells.run(cells);
      } else {
        for (const cells of labelCellRows(recording, change.merge)) s.mergeCells.run(cells);
      }
      return { created, runPk: stored.id };
    };
    const transaction = sqlite.transaction((runs: SqliteRun[]) => runs.map(writeOne));
    write = (runs) => transaction.immediate(runs);
    writers.set(sqlite, write);
  }
  return write;
}
