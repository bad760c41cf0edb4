// The index never changes an answer: paging through a search returns exactly what a brute-force scan over the
// exact centroids returns, for random data and random regions (rectangles, concave polygons, grid-aligned edges).
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { extendEach, serverTests } from '../support/fixtures.js';
import { decodePoints } from '../../src/detections/centroids.js';
import { containsPoint, polygonOf } from '../../src/search/region.js';
import { searchRecordings } from '../../src/search/queries.js';
import { validateSearchBody } from '../../src/search/request.js';
import { DIALECTS } from '../support/store.js';
import { bearer, postJson } from '../support/server.js';
import { postRun, search } from './helpers.js';

const LABELS = ['person', 'car', 'dog'];
// Coordinates on the grid's cell borders (multiples of 12.5) and off them, so cell edges are exercised.
const coord = fc.oneof(
  fc.integer({ min: 0, max: 8 }).map((i) => i * 12.5),
  fc.double({ min: 0, max: 100, noNaN: true }),
);

function seededRandom(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

type Truth = Array<{
  mediaKey: string;
  start: number;
  id: string;
  runId: string;
  label: string;
  points: Float64Array;
  frames: Float64Array;
}>;

// `truth` is every centroid of 40 random recordings' runs, as the brute force reads them; made in the hook that asks.
const tests = extendEach(
  serverTests({ recording: { mediaKey: 'seed/1000000000_none.mp4', startTimestamp: 1_000_000_000 } }),
  (test) =>
    test.extend('truth', { scope: 'file' }, async ({ server, org }): Promise<Truth> => {
      const rnd = seededRandom(7);
      for (let r = 0; r < 40; r++) {
        // Some recordings share a start time, so ties are ordered by id.
        const mediaKey = `prop/${1_700_000_000 + Math.floor(r / 2) * 60}_${r}.mp4`;
        expect((await postJson(`${server.url}/recordings`, { mediaKey }, bearer(org.token))).status).toBe(201);
        const runs = Math.floor(rnd() * 3);
        for (let k = 0; k < runs; k++) {
          const tracks = Array.from({ length: 1 + Math.floor(rnd() * 4) }, (_, t) => {
            // A small object wandering near a random spot; some boxes touch the frame's edges.
            const ox = rnd() * 0.9;
            const oy = rnd() * 0.9;
            const n = 1 + Math.floor(rnd() * 14);
            // Tracks start at different frames, so a match's first frame depends on which centroids are inside.
            const firstFrame = Math.floor(rnd() * 40);
            return {
              id: `t${t}`,
              ...(rnd() < 0.85 ? { label: LABELS[Math.floor(rnd() * LABELS.length)] } : {}),
              boxes: Array.from({ length: n }, (_, f) => ({
                frame: firstFrame + f,
                x: Math.min(0.9, ox + rnd() * 0.05),
                y: Math.min(0.9, oy + rnd() * 0.05),
                w: 0.1 * rnd() + 0.001,
                h: 0.1 * rnd() + 0.001,
              })),
            };
          });
          await postRun(server.url, org.token, {
            mediaKey,
            schemaVersion: '1.0',
            coordinateSpace: 'normalized',
            source: { runId: `run${k}` },
            tracks,
          });
        }
      }
      const rows = await server.store.db
        .selectFrom('run_centroids')
        .innerJoin('runs', 'runs.id', 'run_centroids.run_pk')
        .innerJoin('recordings', 'recordings.id', 'runs.recording_id')
        .select([
          'recordings.media_key',
          'recordings.start_timestamp',
          'recordings.id',
          'runs.run_id',
          'run_centroids.label',
          'run_centroids.points',
          'run_centroids.frames',
        ])
        .where('runs.org_id', '=', org.orgId)
        .execute();
      const truth: Truth = rows.map((r) => ({
        mediaKey: r.media_key,
        start: Number(r.start_timestamp),
        id: r.id,
        runId: r.run_id,
        label: r.label,
        points: decodePoints(r.points),
        frames: decodePoints(r.frames!),
      }));
      // Order of the brute force: newest first, then id.
      truth.sort((a, b) => b.start - a.start || (b.id < a.id ? -1 : 1));
      return truth;
    }),
);

describe.each(DIALECTS)('region search equals a brute-force scan on %s', (dialect) => {
  const it = tests[dialect];
  it.beforeAll(({ truth }) => void truth);

  const regionArb = fc.oneof(
    fc.record({
      x: fc.double({ min: -0.1, max: 1, noNaN: true }),
      y: fc.double({ min: -0.1, max: 1, noNaN: true }),
      w: fc.double({ min: 0.001, max: 0.8, noNaN: true }),
      h: fc.double({ min: 0.001, max: 0.8, noNaN: true }),
    }),
    fc
      .array(fc.record({ x: coord, y: coord }), { minLength: 3, maxLength: 12 })
      .map((points) => ({ points: points.map((p) => ({ x: p.x * 8, y: p.y * 4.5 })), width: 800, height: 450 })),
  );

  it('matches on random regions, labels, time ranges and page sizes', async ({ server, org, truth }) => {
    await fc.assert(
      fc.asyncProperty(
        regionArb,
        fc.subarray(LABELS.concat('object')),
        fc.option(fc.integer({ min: 1_699_999_990, max: 1_700_001_300 })),
        fc.option(fc.integer({ min: 1_700_000_000, max: 1_700_001_300 })),
        fc.integer({ min: 1, max: 9 }),
        // A confirmation budget small enough to cut pages short (searchRecordings called directly), or none: the
        // route over HTTP with the default budget, which this little data never reaches.
        fc.option(fc.integer({ min: 1, max: 400 })),
        async (region, labels, from, to, limit, budget) => {
          if (from !== null && to !== null && from > to) return;
          // The expected answer, computed the slow way from the stored centroids.
          const poly =
            'points' in region
              ? polygonOf(region.points.flatMap((p) => [(p.x / region.width) * 100, (p.y / region.height) * 100]))
              : polygonOf([
                  region.x * 100,
                  region.y * 100,
                  (region.x + region.w) * 100,
                  region.y * 100,
                  (region.x + region.w) * 100,
                  (region.y + region.h) * 100,
                  region.x * 100,
                  (region.y + region.h) * 100,
                ]);
          type Match = { runId: string; label: string; count: number; firstFrame: number };
          const expected = new Map<string, Match[]>();
          for (const t of truth) {
            if (labels.length > 0 && !labels.includes(t.label)) continue;
            if ((from !== null && t.start < from) || (to !== null && t.start > to)) continue;
            let count = 0;
            let firstFrame = Number.POSITIVE_INFINITY;
            for (let i = 0; i < t.points.length; i += 2)
              if (containsPoint(poly, t.points[i]!, t.points[i + 1]!)) {
                count++;
                firstFrame = Math.min(firstFrame, t.frames[i / 2]!);
              }
            if (count === 0) continue;
            const list = expected.get(t.mediaKey) ?? [];
            list.push({ runId: t.runId, label: t.label, count, firstFrame });
            expected.set(t.mediaKey, list);
          }
          for (const list of expected.values())
            list.sort((a, b) => (`${a.runId}\u0000${a.label}` < `${b.runId}\u0000${b.label}` ? -1 : 1));
          const got: Array<[string, number, unknown]> = [];
          let cursor: string | null = null;
          let pages = 0;
          do {
            const body = {
              region,
              labels,
              ...(from !== null ? { from } : {}),
              ...(to !== null ? { to } : {}),
              limit,
              cursor,
            };
            let data: {
              recordings: Array<{ mediaKey: string; firstFrame: number | null; matches: unknown }>;
              nextCursor: string | null;
            };
            if (budget === null) {
              const res = await search(server.url, org.token, body);
              expect(res.status, JSON.stringify(res.body)).toBe(200);
              data = res.body.data;
            } else {
              data = await searchRecordings(server.store.db, org.orgId, validateSearchBody(body), budget);
            }
            expect(data.recordings.length).toBeLessThanOrEqual(limit);
            for (const r of data.recordings) got.push([r.mediaKey, r.firstFrame!, r.matches]);
            cursor = data.nextCursor;
            if (cursor && budget === null) expect(data.recordings).toHaveLength(limit);
            // Every page moves on, short or not: at most one page per candidate recording and one more.
            expect(++pages).toBeLessThanOrEqual(42);
          } while (cursor);
          expect(got).toEqual(
            [...expected].map(([key, list]) => [key, Math.min(...list.map((m) => m.firstFrame)), list]),
          );
        },
      ),
      { numRuns: 40 },
    );
  });
});
