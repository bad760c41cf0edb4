// Region search over a run in segments (detections/run-segments.ts): a run's centroids are one row per label and
// segment, patched segment by segment, and a search still answers one match per run and label; migration 014 splits
// the centroid rows (and builds the track index) of runs already in segments as a patch would have left them.
import { sql } from 'kysely';
import { describe, expect } from 'vitest';
import { columnTypes } from '../../src/db/column-types.js';
import * as m014 from '../../src/db/migrations/014_segment_track_index.js';
import { decodeBoxes } from '../../src/detections/run-codec.js';
import { tracksOf, runOf } from '../../src/detections/run-delta.js';
import { centroidRowsOf } from '../../src/detections/run-rows.js';
import type { TrackHeader } from '../../src/detections/run-types.js';
import { readJoinedSegments } from '../../src/detections/segment-queries.js';
import { serverTests } from '../support/fixtures.js';
import { bearer, postJson } from '../support/server.js';
import { DIALECTS } from '../support/store.js';
import { search } from './helpers.js';

// The bottom-right corner of the frame: x and y from 80 to 95.
const REGION = { x: 0.8, y: 0.8, w: 0.15, h: 0.15 };
/** 1000 boxes a track: four tracks fill a segment (SEGMENT_BOXES = 4096), so ten make three segments. */
const BOXES = 1000;

/** A 'car' track centred at (20, 20) in the 100×100 space, or at (90, 90) from frame `inFrom` on. */
const car = (id: string, inFrom = Number.POSITIVE_INFINITY) => ({
  id,
  label: 'car',
  boxes: Array.from({ length: BOXES }, (_, frame) => {
    const c = frame >= inFrom ? 0.9 : 0.2;
    return { frame, x: c - 0.01, y: c - 0.01, w: 0.02, h: 0.02 };
  }),
});
const initial = () => Array.from({ length: 10 }, (_, i) => car(`t${i}`));

const tests = serverTests();

describe.each(DIALECTS)('region search over a run in segments on %s', (dialect) => {
  const it = tests[dialect];

  it('finds boxes patched into the region in two segments as one match, and loses them on restore; migration 014 splits existing rows the same way', async ({
    server,
    org,
  }) => {
    const runId = 'seg-search';
    const url = `${server.url}/detections/${runId}`;
    const patch = (baseRevision: number, upsert: unknown[]) =>
      postJson(url, { baseRevision, tracks: { upsert } }, bearer(org.token), 'PATCH');
    const hits = async () => (await search(server.url, org.token, { region: REGION })).body.data.recordings;
    const posted = await postJson(
      `${server.url}/detections`,
      {
        mediaKey: org.recording.mediaKey,
        schemaVersion: '1.0',
        coordinateSpace: 'normalized',
        source: { runId },
        tracks: initial(),
      },
      bearer(org.token),
    );
    expect(posted.status).toBe(201);
    expect(await hits()).toEqual([]);

    // t1 (segment 0) enters the region at frame 500, t9 (segment 2) at frame 300. Of each track's ten centroids
    // (frames 0, 111, 222, … 999) t1 has five inside from 555, t9 seven from 333: one match of twelve, from 333.
    expect((await patch(1, [car('t1', 500)])).status).toBe(200);
    expect((await patch(2, [car('t9', 300)])).status).toBe(200);
    const db = server.store.db;
    const { id: runPk } = await db
      .selectFrom('runs')
      .select('id')
      .where('run_id', '=', runId)
      .executeTakeFirstOrThrow();
    const centroidRows = () =>
      db
        .selectFrom('run_centroids')
        .selectAll()
        .where('run_pk', '=', runPk)
        .orderBy('segment')
        .orderBy('label')
        .execute();
    expect((await centroidRows()).map((r) => [r.label, r.segment])).toEqual([
      ['car', 0],
      ['car', 1],
      ['car', 2],
    ]);
    const match = [{ runId, label: 'car', count: 12, firstFrame: 333 }];
    expect(await hits()).toEqual([
      expect.objectContaining({ mediaKey: org.recording.mediaKey, firstFrame: 333, matches: match }),
    ]);

    // The store as migration 013 left it: one centroid row per label for the whole run, no segment column, no
    // track counts, no track index; then migration 014 again. Only this run, so that no other's rows are in play.
    const written = await centroidRows();
    const counts = () =>
      db
        .selectFrom('run_segments')
        .select(['revision', 'segment', 'track_count'])
        .where('run_pk', '=', runPk)
        .orderBy('revision')
        .orderBy('segment')
        .execute();
    const index = () =>
      db
        .selectFrom('run_track_segments')
        .select(['track_id', 'segment'])
        .where('run_pk', '=', runPk)
        .orderBy('track_id')
        .execute();
    const [countsBefore, indexBefore] = [await counts(), await index()];
    expect(indexBefore).toHaveLength(10);
    const cellsBefore = await db.selectFrom('recording_label_cells').selectAll().orderBy('label').execute();
    await db.deleteFrom('runs').where('run_id', '!=', runId).execute();
    const body = await readJoinedSegments(db, runPk, 0);
    const content = tracksOf({
      headers: JSON.parse(body.tracks) as TrackHeader[],
      columns: decodeBoxes(body.boxes),
      count: 0,
    });
    const whole = centroidRowsOf({ id: org.recording.id, orgId: org.orgId }, { boxes: runOf(content) });
    await sql`drop index run_centroids_run_segment`.execute(db);
    await db.deleteFrom('run_centroids').where('run_pk', '=', runPk).execute();
    await sql`alter table run_centroids drop column segment`.execute(db);
    await sql`create index run_centroids_run on run_centroids (run_pk)`.execute(db);
    for (const row of whole)
      await db
        .insertInto('run_centroids')
        .values({ ...row, run_pk: runPk })
        .execute();
    await sql`drop index run_segments_track_counts`.execute(db);
    await sql`alter table run_segments drop column track_count`.execute(db);
    await sql`drop table run_track_segments`.execute(db);
    await m014.up(db, columnTypes(dialect));

    const bytes = (b: Uint8Array | null) => (b === null ? null : Buffer.from(b).toString('hex'));
    const comparable = (rows: typeof written) =>
      rows.map((r) => ({ ...r, points: bytes(r.points), frames: bytes(r.frames) }));
    expect(comparable(await centroidRows())).toEqual(comparable(written));
    expect(await counts()).toEqual(countsBefore);
    expect(await index()).toEqual(indexBefore);
    expect(await db.selectFrom('recording_label_cells').selectAll().orderBy('label').execute()).toEqual(cellsBefore);
    expect(await hits()).toEqual([expect.objectContaining({ firstFrame: 333, matches: match })]);

    // Patches go on from the migrated index and rows; a restore of revision 1 takes the boxes out of the region.
    expect((await patch(3, [car('t5', 0)])).status).toBe(200);
    expect(await hits()).toEqual([
      expect.objectContaining({ firstFrame: 0, matches: [{ runId, label: 'car', count: 22, firstFrame: 0 }] }),
    ]);
    const restored = await postJson(`${url}/revisions/1/restore`, {}, bearer(org.token));
    expect(restored.status).toBe(200);
    expect(await hits()).toEqual([]);
    expect((await centroidRows()).map((r) => [r.label, r.segment])).toEqual([
      ['car', 0],
      ['car', 1],
      ['car', 2],
    ]);
  });
});
