// Region-search hits carry the first frame that matched: each stored centroid keeps its box's frame, in a `frames`
// column beside `points` (one float64 per point, in the points' grid-row order, so a search slices both alike).
// Every existing centroid row is rebuilt from its run's current boxes, one run at a time; the rebuilt points, row
// starts and cells equal the stored ones (same rule), so the recordings' search aggregates stay as they are.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../column-types.js';
import { framedCentroidRows } from './frozen/012_centroid_frames.js';

/** Runs read per query: a run's boxes may be tens of MiB, so a page holds few. */
const RUNS_PER_PAGE = 16;

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('run_centroids').addColumn('frames', t.blob).execute();
  // Uncompressed out-of-line storage, as for `points`: substr then reads only the TOAST chunks it needs.
  if (t.blob === 'bytea') await sql`alter table run_centroids alter column frames set storage external`.execute(db);

  let after = '';
  for (;;) {
    const runs = (await db
      .selectFrom('runs')
      .select(['id', 'tracks', 'boxes'])
      .where('id', '>', after)
      .where(({ exists, selectFrom }) =>
        exists(selectFrom('run_centroids as rc').select('rc.run_pk').whereRef('rc.run_pk', '=', 'runs.id')),
      )
      .orderBy('id')
      .limit(RUNS_PER_PAGE)
      .execute()) as Array<{ id: string; tracks: string; boxes: Uint8Array }>;
    for (const run of runs) {
      for (const row of framedCentroidRows(run.tracks, run.boxes)) {
        await db
          .updateTable('run_centroids')
          .set({ points: row.points, frames: row.frames, ...row.starts })
          .where('run_pk', '=', run.id)
          .where('label', '=', row.label)
          .execute();
      }
    }
    if (runs.length < RUNS_PER_PAGE) break;
    after = runs[runs.length - 1]!.id;
  }
}
