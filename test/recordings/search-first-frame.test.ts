// Region-search hits carry the first frame that matched (per run-label and per recording), and that frame follows
// the run's content through patches and restores; migration 012 rebuilds the frames of centroids stored before it.
import { sql } from 'kysely';
import { describe, expect } from 'vitest';
import { columnTypes } from '../../src/db/column-types.js';
import * as m012 from '../../src/db/migrations/012_centroid_frames.js';
import { serverTests } from '../support/fixtures.js';
import { bearer, postJson } from '../support/server.js';
import { DIALECTS } from '../support/store.js';
import { search } from './helpers.js';

/** A box of a normalized run centred at (cx, cy) in the 100×100 space. */
const at = (frame: number, cx: number, cy: number) => ({
  frame,
  x: cx / 100 - 0.01,
  y: cy / 100 - 0.01,
  w: 0.02,
  h: 0.02,
});
// The bottom-right corner of the frame: x and y from 80 to 95.
const REGION = { x: 0.8, y: 0.8, w: 0.15, h: 0.15 };
const IN = 90;
const OUT = 20;

const tests = serverTests();

describe.each(DIALECTS)('first matching frame of region-search hits on %s', (dialect) => {
  const it = tests[dialect];

  it('is the smallest frame of the centroids inside, per match and per recording', async ({ server, org }) => {
    const tracks = [
      // Outside until frame 7: the match starts there, not at the track's first box.
      { id: 'a', label: 'car', boxes: [at(5, OUT, OUT), at(6, OUT, OUT), at(7, IN, IN), at(8, IN, IN)] },
      { id: 'b', label: 'person', boxes: [at(12, IN, IN), at(13, OUT, OUT)] },
      // 19 boxes, all inside: the centroids are every other box (frames 100, 102, … 118), the first is 100.
      { id: 'c', label: 'dog', boxes: Array.from({ length: 19 }, (_, i) => at(100 + i, IN, IN)) },
      // Centroids outside only: no match.
      { id: 'd', label: 'bird', boxes: [at(0, OUT, OUT)] },
    ];
    const res = await postJson(
      `${server.url}/detections`,
      {
        mediaKey: org.recording.mediaKey,
        schemaVersion: '1.0',
        coordinateSpace: 'normalized',
        source: { runId: 'ff' },
        tracks,
      },
      bearer(org.token),
    );
    expect(res.status).toBe(201);
    const hits = (await search(server.url, org.token, { region: REGION })).body.data.recordings;
    expect(hits).toEqual([
      expect.objectContaining({
        mediaKey: org.recording.mediaKey,
        firstFrame: 7,
        matches: [
          { runId: 'ff', label: 'car', count: 2, firstFrame: 7 },
          { runId: 'ff', label: 'dog', count: 10, firstFrame: 100 },
          { runId: 'ff', label: 'person', count: 1, firstFrame: 12 },
        ],
      }),
    ]);
    // A label filter leaves the other labels' frames out of the recording's first frame.
    const dogs = (await search(server.url, org.token, { region: REGION, labels: ['dog', 'person'] })).body.data;
    expect(dogs.recordings[0].firstFrame).toBe(12);
  });

  it('follows patches and restores', async ({ server, org }) => {
    const runId = 'ff-patch';
    const post = await postJson(
      `${server.url}/detections`,
      {
        mediaKey: org.recording.mediaKey,
        schemaVersion: '1.0',
        coordinateSpace: 'normalized',
        source: { runId },
        tracks: [{ id: 'a', label: 'truck', boxes: [at(0, OUT, OUT)] }],
      },
      bearer(org.token),
    );
    expect(post.status).toBe(201);
    const patch = async (baseRevision: number, boxes: ReturnType<typeof at>[]) => {
      const res = await postJson(
        `${server.url}/detections/${runId}`,
        { baseRevision, tracks: { upsert: [{ id: 'b', label: 'truck', boxes }] } },
        bearer(org.token),
        'PATCH',
      );
      expect(res.status).toBe(200);
    };
    const truckMatch = async () => {
      const hits = (await search(server.url, org.token, { region: REGION, labels: ['truck'] })).body.data.recordings;
      const hit = hits.find((h: { mediaKey: string }) => h.mediaKey === org.recording.mediaKey);
      return hit && { firstFrame: hit.firstFrame, matches: hit.matches };
    };
    expect(await truckMatch()).toBeUndefined();
    // A box patched into the region is found at its frame.
    await patch(1, [at(40, OUT, OUT), at(42, IN, IN)]);
    expect(await truckMatch()).toEqual({
      firstFrame: 42,
      matches: [{ runId, label: 'truck', count: 1, firstFrame: 42 }],
    });
    // Moved earlier by a second patch: the frame follows.
    await patch(2, [at(30, IN, IN), at(42, IN, IN)]);
    expect(await truckMatch()).toEqual({
      firstFrame: 30,
      matches: [{ runId, label: 'truck', count: 2, firstFrame: 30 }],
    });
    // Restoring revision 2 brings its frame back; restoring revision 1 takes the match away.
    const restore = async (n: number) =>
      expect(
        (await postJson(`${server.url}/detections/${runId}/revisions/${n}/restore`, {}, bearer(org.token))).status,
      ).toBe(200);
    await restore(2);
    expect(await truckMatch()).toEqual({
      firstFrame: 42,
      matches: [{ runId, label: 'truck', count: 1, firstFrame: 42 }],
    });
    await restore(1);
    expect(await truckMatch()).toBeUndefined();
  });

  it('migration 012 rebuilds the frames (and equal points) of centroids stored without them', async ({
    server,
    org,
  }) => {
    const runId = 'ff-migrate';
    const tracks = Array.from({ length: 30 }, (_, t) => ({
      id: `t${t}`,
      ...(t % 3 === 0 ? {} : { label: t % 3 === 1 ? 'cat' : 'cow' }),
      boxes: Array.from({ length: 1 + ((t * 7) % 25) }, (_, i) =>
        at(t * 3 + i, (t * 13 + i) % 97, (t * 29 + i * 3) % 97),
      ),
    }));
    const post = await postJson(
      `${server.url}/detections`,
      {
        mediaKey: org.recording.mediaKey,
        schemaVersion: '1.0',
        coordinateSpace: 'normalized',
        source: { runId },
        tracks,
      },
      bearer(org.token),
    );
    expect(post.status).toBe(201);
    const db = server.store.db;
    const rows = () =>
      db
        .selectFrom('run_centroids as rc')
        .innerJoin('runs', 'runs.id', 'rc.run_pk')
        .selectAll('rc')
        .where('runs.org_id', '=', org.orgId)
        .where('runs.run_id', '=', runId)
        .orderBy('rc.run_pk')
        .orderBy('rc.label')
        .execute();
    const written = await rows();
    expect(written.some((r) => r.run_pk && r.frames === null)).toBe(false);
    expect(written.length).toBeGreaterThanOrEqual(3);
    // The store as an instance before 012 left it: no frames column, and no run in segments (013 comes after 012,
    // and the tests above patched runs into segments); then the migration again.
    await db.deleteFrom('runs').where('run_id', '!=', runId).execute();
    await sql`alter table run_centroids drop column frames`.execute(db);
    await m012.up(db, columnTypes(dialect));
    const rebuilt = await rows();
    const bytes = (b: Uint8Array | null) => (b === null ? null : Buffer.from(b).toString('hex'));
    const comparable = (list: typeof written) =>
      list.map((r) => ({ ...r, points: bytes(r.points), frames: bytes(r.frames) }));
    expect(comparable(rebuilt)).toEqual(comparable(written));
  });
});
