// A patch's work follows the segments it touches, not the run (detections/run-segments.ts): each segment row counts
// its tracks (track_count), run_track_segments says which current segment holds each track, and run_centroids has
// one row per (run, label, segment), so that a patch rewrites the centroids of the segments it writes only. A run
// whose boxes are one blob keeps one centroid row per label (segment 0) and no index rows. Existing data: every
// segment row's tracks are counted, and each run in segments gets its index and its centroids split by segment
// (the same points, so the recordings' search aggregates stay as they are).
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../column-types.js';
import { splitCentroidRows } from './frozen/014_segment_centroids.js';

/** Runs in segments read per query: each is read whole once. */
const RUNS_PER_PAGE = 16;
/** Index rows per insert: three parameters each, under both dialects' limits. */
const INDEX_ROWS_PER_INSERT = 2000;

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  const pg = t.blob === 'bytea';
  await db.schema
    .alterTable('run_segments')
    .addColumn('track_count', t.int, (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update run_segments set track_count = ${sql.raw(pg ? 'json_array_length(tracks::json)' : 'json_array_length(tracks)')}`.execute(
    db,
  );
  // Covering: a patch reads every current segment's count from the index alone. On SQLite the column, added last,
  // sits after the segment's boxes, and reading it from the row would walk their overflow pages.
  await db.schema
    .createIndex('run_segments_track_counts')
    .on('run_segments')
    .columns(['run_pk', 'revision', 'segment', 'track_count'])
    .execute();

  await db.schema
    .createTable('run_track_segments')
    .addColumn('run_pk', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('track_id', 'text', (c) => c.notNull())
    .addColumn('segment', t.int, (c) => c.notNull())
    .addPrimaryKeyConstraint('run_track_segments_pk', ['run_pk', 'track_id'])
    .execute();

  await db.schema
    .alterTable('run_centroids')
    .addColumn('segment', t.int, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.dropIndex('run_centroids_run').execute();
  await db.schema.createIndex('run_centroids_run_segment').on('run_centroids').columns(['run_pk', 'segment']).execute();

  let after = '';
  for (;;) {
    const runs = (await db
      .selectFrom('runs')
      .select(['id', 'recording_id', 'org_id'])
      .where('id', '>', after)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('run_segments as s')
            .select('s.run_pk')
            .whereRef('s.run_pk', '=', 'runs.id')
            .where('s.revision', '=', 0),
        ),
      )
      .orderBy('id')
      .limit(RUNS_PER_PAGE)
      .execute()) as Array<{ id: string; recording_id: string; org_id: string }>;
    for (const run of runs) await splitRun(db, run);
    if (runs.length < RUNS_PER_PAGE) break;
    after = runs[runs.length - 1]!.id;
  }
}

async function splitRun(db: Kysely<any>, run: { id: string; recording_id: string; org_id: string }): Promise<void> {
  const segments = (await db
    .selectFrom('run_segments')
    .select(['segment', 'tracks', 'boxes'])
    .where('run_pk', '=', run.id)
    .where('revision', '=', 0)
    .orderBy('segment')
    .execute()) as Array<{ segment: number; tracks: string; boxes: Uint8Array }>;
  const index: Array<{ run_pk: string; track_id: string; segment: number }> = [];
  for (const s of segments)
    for (const h of JSON.parse(s.tracks) as Array<{ id: string }>)
      index.push({ run_pk: run.id, track_id: h.id, segment: s.segment });
  for (let i = 0; i < index.length; i += INDEX_ROWS_PER_INSERT)
    await db
      .insertInto('run_track_segments')
      .values(index.slice(i, i + INDEX_ROWS_PER_INSERT))
      .execute();
  await db.deleteFrom('run_centroids').where('run_pk', '=', run.id).execute();
  for (const s of segments) {
    const rows = splitCentroidRows(s.tracks, s.boxes);
    if (rows.length === 0) continue;
    await db
      .insertInto('run_centroids')
      .values(
        rows.map((r) => ({
          run_pk: run.id,
          recording_id: run.recording_id,
          org_id: run.org_id,
          segment: s.segment,
          label: r.label,
          count: r.count,
          points: r.points,
          frames: r.frames,
          ...r.starts,
          cells_lo: r.cells.lo,
          cells_hi: r.cells.hi,
        })),
      )
      .execute();
  }
}
