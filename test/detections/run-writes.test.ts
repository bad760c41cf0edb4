// Whatever sequence of posts, replacements and deletes a recording sees, its search aggregate (recording_label_cells)
// equals what its runs' centroid rows say, and each run's centroid rows are its own. SQLite writes through prepared
// statements and PostgreSQL through Kysely: both must keep this.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { serverTests } from '../support/fixtures.js';
import { decodePoints } from '../../src/detections/centroids.js';
import { upsertRun } from '../../src/detections/queries.js';
import { validateRun, type ValidatedRun } from '../../src/detections/validate-run.js';
import { resolveTarget } from '../../src/recordings/queries.js';
import { cellOf } from '../../src/search/grid.js';
import { DIALECTS } from '../support/store.js';
import { bearer, getJson, postJson } from '../support/server.js';

const LABELS = ['person', 'car', 'dog'];
const RUN_IDS = ['a', 'b'];

// Mostly a few fixed spots, so that a re-posted run often keeps every cell (the aggregate is merged in place),
// and sometimes anywhere (a cell is lost and the aggregate recomputed).
const coordinate = fc.oneof(
  { arbitrary: fc.constantFrom(0.1, 0.5), weight: 4 },
  { arbitrary: fc.double({ min: 0, max: 0.9, noNaN: true }), weight: 1 },
);
const box = fc.record({ x: coordinate, y: coordinate });
// Mostly one label, for the same reason.
const label = fc.oneof(
  { arbitrary: fc.constant('car'), weight: 3 },
  { arbitrary: fc.option(fc.constantFrom(...LABELS), { nil: undefined }), weight: 1 },
);
const track = fc.record({ label, boxes: fc.array(box, { minLength: 1, maxLength: 12 }) });
const operation = fc.oneof(
  fc.record({
    kind: fc.constant('post' as const),
    runId: fc.constantFrom(...RUN_IDS),
    tracks: fc.array(track, { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ kind: fc.constant('delete' as const), runId: fc.constantFrom(...RUN_IDS) }),
);

/** Generated tracks as a run body has them: one box per frame, 0.05 wide and high. */
function tracksOf(tracks: Array<{ label?: string; boxes: Array<{ x: number; y: number }> }>) {
  return tracks.map((t, i) => ({
    id: `t${i}`,
    ...(t.label ? { label: t.label } : {}),
    boxes: t.boxes.map((b, f) => ({ frame: f, x: b.x, y: b.y, w: 0.05, h: 0.05 })),
  }));
}

/** The aggregate rows recomputed from first principles: every label's cells OR-ed from its decoded points. */
function expectedAggregate(centroids: Array<{ label: string; points: Uint8Array }>) {
  const byLabel = new Map<string, { cells: Set<number>; count: number }>();
  for (const c of centroids) {
    const points = decodePoints(c.points);
    for (const label of ['', c.label]) {
      const entry = byLabel.get(label) ?? { cells: new Set<number>(), count: 0 };
      for (let i = 0; i < points.length; i += 2) entry.cells.add(cellOf(points[i]!, points[i + 1]!));
      entry.count += points.length / 2;
      byLabel.set(label, entry);
    }
  }
  return [...byLabel]
    .map(([label, e]) => ({ label, cells: [...e.cells].sort((a, b) => a - b), count: e.count }))
    .sort((a, b) => (a.label < b.label ? -1 : 1));
}

function cellsOfMask(lo: number, hi: number): number[] {
  const cells: number[] = [];
  for (let c = 0; c < 64; c++) if (((c < 32 ? lo : hi) >>> (c % 32)) & 1) cells.push(c);
  return cells;
}

const tests = serverTests();

describe.each(DIALECTS)('run writes on %s', (dialect) => {
  const it = tests[dialect]
    /** The recording's runs are `live` (runId → tracks), their centroid rows their own, and its aggregate theirs. */
    .extend('expectConsistent', ({ server }) => async (mediaKey: string, live: Map<string, number>) => {
      const recording = await server.store.db
        .selectFrom('recordings')
        .select('id')
        .where('media_key', '=', mediaKey)
        .executeTakeFirstOrThrow();
      const runs = await server.store.db
        .selectFrom('runs')
        .select(['id', 'run_id', 'tracks_stored'])
        .where('recording_id', '=', recording.id)
        .execute();
      expect(new Map(runs.map((r) => [r.run_id, r.tracks_stored]))).toEqual(live);
      const centroids = await server.store.db
        .selectFrom('run_centroids')
        .select(['run_pk', 'label', 'points', 'count'])
        .where('recording_id', '=', recording.id)
        .execute();
      for (const c of centroids) {
        expect(runs.some((r) => r.id === c.run_pk)).toBe(true);
        expect(Number(c.count)).toBe(c.points.byteLength / 16);
      }
      const stored = await server.store.db
        .selectFrom('recording_label_cells')
        .select(['label', 'cells_lo', 'cells_hi', 'centroid_count'])
        .where('recording_id', '=', recording.id)
        .execute();
      const actual = stored
        .map((s) => ({
          label: s.label,
          cells: cellsOfMask(Number(s.cells_lo), Number(s.cells_hi)),
          count: Number(s.centroid_count),
        }))
        .sort((a, b) => (a.label < b.label ? -1 : 1));
      expect(actual).toEqual(expectedAggregate(centroids));
    })

    /** Deletes the run and checks the answer against `live` (200 when it was there, else 404). */
    .extend(
      'deleteAndExpect',
      ({ server, org }) =>
        async (mediaKey: string, runId: string, live: Map<string, number>) => {
          const res = await getJson(
            `${server.url}/detections/${runId}?mediaKey=${encodeURIComponent(mediaKey)}`,
            bearer(org.token),
            'DELETE',
          );
          expect(res.status).toBe(live.delete(runId) ? 200 : 404);
        },
    );

  it('re-posting one run leaves its counts as they were', async ({ server, org }) => {
    const mediaKey = 'writes/1600000000_repost.mp4';
    expect((await postJson(`${server.url}/recordings`, { mediaKey }, bearer(org.token))).status).toBe(201);
    const body = {
      mediaKey,
      schemaVersion: '1.0',
      coordinateSpace: 'normalized',
      source: { runId: 'again' },
      tracks: [{ id: 't', label: 'car', boxes: [{ frame: 0, x: 0.1, y: 0.1, w: 0.05, h: 0.05 }] }],
    };
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await postJson(`${server.url}/detections`, body, bearer(org.token))).status);
    expect(statuses).toEqual([201, 200, 200]);
    const rows = await server.store.db
      .selectFrom('recording_label_cells')
      .innerJoin('recordings', 'recordings.id', 'recording_label_cells.recording_id')
      .select(['label', 'centroid_count'])
      .where('recordings.media_key', '=', mediaKey)
      .orderBy('label')
      .execute();
    expect(rows.map((r) => [r.label, Number(r.centroid_count)])).toEqual([
      ['', 1],
      ['car', 1],
    ]);
  });

  it("keep the recording aggregate equal to its runs' centroids through any posts, replacements and deletes", async ({
    server,
    org,
    expectConsistent,
    deleteAndExpect,
  }) => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 6 }), async (operations) => {
        const mediaKey = `writes/${1_700_000_000 + n++}_cam.mp4`;
        expect((await postJson(`${server.url}/recordings`, { mediaKey }, bearer(org.token))).status).toBe(201);
        const live = new Map<string, number>();
        for (const op of operations) {
          if (op.kind === 'delete') {
            await deleteAndExpect(mediaKey, op.runId, live);
            continue;
          }
          const tracks = tracksOf(op.tracks);
          const res = await postJson(
            `${server.url}/detections`,
            { mediaKey, schemaVersion: '1.0', coordinateSpace: 'normalized', source: { runId: op.runId }, tracks },
            bearer(org.token),
          );
          expect(res.status).toBe(live.has(op.runId) ? 200 : 201);
          live.set(op.runId, tracks.length);
        }
        await expectConsistent(mediaKey, live);
      }),
      { numRuns: dialect === 'pg' ? 40 : 80 },
    );
  });

  it('keep it too when runs are written at once and stored together (batched, same runIds collapsed)', async ({
    server,
    org,
    expectConsistent,
    deleteAndExpect,
  }) => {
    let n = 0;
    const wave = fc.array(
      fc.record({
        runId: fc.constantFrom(...RUN_IDS, 'c', 'd'),
        tracks: fc.array(track, { minLength: 1, maxLength: 3 }),
      }),
      { minLength: 1, maxLength: 8 },
    );
    const step = fc.oneof(
      { arbitrary: wave.map((posts) => ({ kind: 'posts' as const, posts })), weight: 3 },
      { arbitrary: fc.record({ kind: fc.constant('delete' as const), runId: fc.constantFrom(...RUN_IDS) }), weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 4 }), async (steps) => {
        const mediaKey = `writes/${1_750_000_000 + n++}_wave.mp4`;
        expect((await postJson(`${server.url}/recordings`, { mediaKey }, bearer(org.token))).status).toBe(201);
        const live = new Map<string, number>();
        for (const s of steps) {
          if (s.kind === 'delete') {
            await deleteAndExpect(mediaKey, s.runId, live);
            continue;
          }
          const bodies = s.posts.map((p, k) => ({
            mediaKey,
            schemaVersion: '1.0',
            coordinateSpace: 'normalized',
            source: { runId: p.runId, version: String(k) },
            tracks: tracksOf(p.tracks),
          }));
          // Called in one turn, so that the writes queue behind each other and are stored in batches.
          const recording = (await resolveTarget(server.store.db, org.orgId, { mediaKey }))!;
          const validated = bodies.map((b) => validateRun(b) as ValidatedRun);
          const results = (
            await Promise.all(validated.map((v) => upsertRun(server.store, org.orgId, recording, v)))
          ).map((r) => ({ status: r.created ? 201 : 200 }));
          for (const runId of new Set(s.posts.map((p) => p.runId))) {
            const statuses = results.filter((_, k) => s.posts[k]!.runId === runId).map((r) => r.status);
            // One of the posts created a run that did not exist; every other one replaced it.
            expect(statuses.filter((x) => x === 201)).toHaveLength(live.has(runId) ? 0 : 1);
            expect(statuses.every((x) => x === 200 || x === 201)).toBe(true);
            // The stored run is one of the bodies posted, whole.
            const run = (
              await getJson(
                `${server.url}/detections/${runId}?mediaKey=${encodeURIComponent(mediaKey)}`,
                bearer(org.token),
              )
            ).body.data;
            const posted = bodies[Number(run.source.version)]!;
            expect(posted.source.runId).toBe(runId);
            expect(run.tracks.map((t: { id: string; boxes: unknown[] }) => [t.id, t.boxes.length])).toEqual(
              posted.tracks.map((t) => [t.id, t.boxes.length]),
            );
            live.set(runId, posted.tracks.length);
          }
        }
        await expectConsistent(mediaKey, live);
      }),
      { numRuns: dialect === 'pg' ? 25 : 50 },
    );
  });
});
