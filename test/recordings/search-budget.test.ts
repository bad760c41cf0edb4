// A search's confirmation budget over HTTP: a thin region crossing every grid cell, over recordings whose
// centroids fill the frame but miss it, comes back in short pages with a nextCursor instead of confirming
// every recording in one request, and paging on still finds the one recording it matches.
import { describe, expect } from 'vitest';
import { extendEach, serverTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { bearer, postJson } from '../support/server.js';
import { postRun, search } from './helpers.js';
import { searchRecordings, type Work } from '../../src/search/queries.js';
import { validateSearchBody } from '../../src/search/request.js';

const RECORDINGS = 25;
const TRACKS = 5000;
const BOXES = 10;
// The snake runs along y = 6.25 + 12.5·row (normalized: /100) and back 1e-6 lower: every cell, almost no area.
const LINES = Array.from({ length: 8 }, (_, row) => 0.0625 + 0.125 * row);

function sliver() {
  const out: Array<{ x: number; y: number }> = [];
  const back: Array<{ x: number; y: number }> = [];
  LINES.forEach((y, row) => {
    for (const x of row % 2 === 0 ? [0.005, 0.995] : [0.995, 0.005]) {
      out.push({ x, y });
      back.push({ x, y: y + 1e-6 });
    }
  });
  return { points: out.concat(back.reverse()) };
}

function seededRandom(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** 50 000 centroids spread over the frame, each at least 0.01 away from the sliver's lines. */
function missingRun(mediaKey: string, rnd: () => number) {
  return {
    mediaKey,
    schemaVersion: '1.0',
    coordinateSpace: 'normalized',
    source: { kind: 'model', name: 'test', runId: 'dense' },
    tracks: Array.from({ length: TRACKS }, (_, t) => ({
      id: t,
      label: 'car',
      boxes: Array.from({ length: BOXES }, (_, frame) => {
        const row = Math.floor(rnd() * 8);
        const cy = 0.125 * row + (rnd() < 0.5 ? 0.005 + rnd() * 0.045 : 0.075 + rnd() * 0.045);
        const cx = 0.01 + rnd() * 0.98;
        return { frame, x: cx - 0.002, y: cy - 0.002, w: 0.004, h: 0.004 };
      }),
    })),
  };
}

// `onSliver` is the mediaKey of the one recording (of RECORDINGS + 1) with a centroid on the sliver.
const sliverCorpus = extendEach(serverTests(), (test) =>
  test.extend('onSliver', { scope: 'file' }, async ({ server, org }) => {
    const onSliver = 'budget/1600000000_hit.mp4';
    const rnd = seededRandom(11);
    // The oldest recording is the only one with a centroid on the sliver: the search must page through every
    // other one to reach it.
    expect((await postJson(`${server.url}/recordings`, { mediaKey: onSliver }, bearer(org.token))).status).toBe(201);
    await postRun(server.url, org.token, {
      mediaKey: onSliver,
      schemaVersion: '1.0',
      coordinateSpace: 'normalized',
      source: { runId: 'hit' },
      tracks: [{ id: 'on', label: 'car', boxes: [{ frame: 0, x: 0.49, y: LINES[3]! - 0.01, w: 0.02, h: 0.02 }] }],
    });
    for (let i = 1; i <= RECORDINGS; i++) {
      const mediaKey = `budget/${1_600_000_000 + i}_miss.mp4`;
      expect((await postJson(`${server.url}/recordings`, { mediaKey }, bearer(org.token))).status).toBe(201);
      await postRun(server.url, org.token, missingRun(mediaKey, rnd));
    }
    return onSliver;
  }),
);

// `mixed` is how many recordings (80) there are, each with a run near the sliver's lines.
const mixedCorpus = extendEach(serverTests(), (test) =>
  test.extend('mixed', { scope: 'file' }, async ({ server, org }) => {
    // The newest 20 recordings are cheap (1 centroid each), the 60 older ones dense (100 each), all near the sliver's
    // lines but off them: sizing a chunk by the cost of the first ones would confirm far more than the budget.
    for (let i = 0; i < 80; i++) {
      const mediaKey = `mixed/${1_650_000_000 - i}_r.mp4`;
      expect((await postJson(`${server.url}/recordings`, { mediaKey }, bearer(org.token))).status).toBe(201);
      const tracks = i < 20 ? 1 : 10;
      const boxes = i < 20 ? 1 : 10;
      await postRun(server.url, org.token, {
        mediaKey,
        schemaVersion: '1.0',
        coordinateSpace: 'normalized',
        source: { runId: 'r' },
        tracks: Array.from({ length: tracks }, (_, t) => ({
          id: t,
          boxes: Array.from({ length: boxes }, (_, f) => ({
            frame: f,
            x: 0.05 + 0.08 * f,
            y: LINES[t % 8]! + 0.01,
            w: 0.01,
            h: 0.01,
          })),
        })),
      });
    }
    return 80;
  }),
);

describe.each(DIALECTS)('the confirmation budget of a region search on %s', (dialect) => {
  const it = sliverCorpus[dialect];
  // The corpus is made when this hook asks for it, in its 40 s: 50 requests one after another are about a second alone, past 20 s
  // on PostgreSQL on a machine shared six ways.
  it.beforeAll(({ onSliver }) => void onSliver, 40_000);

  it('answers short pages with a nextCursor, and the pages together hold exactly the match', async ({
    server,
    org,
    onSliver,
  }) => {
    const pages: Array<{ keys: string[]; nextCursor: string | null }> = [];
    let cursor: string | null = null;
    do {
      const res = await search(server.url, org.token, { region: sliver(), limit: 1, cursor });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      cursor = res.body.data.nextCursor;
      pages.push({ keys: res.body.data.recordings.map((r: { mediaKey: string }) => r.mediaKey), nextCursor: cursor });
      expect(pages.length).toBeLessThanOrEqual(RECORDINGS + 1);
    } while (cursor);
    // 25 recordings of 50 000 centroids are more than one request may confirm (about ten of them each).
    expect(pages.length).toBeGreaterThan(1);
    expect(pages[0]).toEqual({ keys: [], nextCursor: expect.any(String) });
    expect(pages.flatMap((p) => p.keys)).toEqual([onSliver]);
  });

  it('leaves a search that fits the budget whole: a full page and its cursor', async ({ server, org }) => {
    const res = await search(server.url, org.token, { region: { x: 0, y: 0, w: 1, h: 1 }, limit: 3 });
    expect(res.status).toBe(200);
    expect(res.body.data.recordings.map((r: { mediaKey: string }) => r.mediaKey)).toEqual(
      [25, 24, 23].map((i) => `budget/${1_600_000_000 + i}_miss.mp4`),
    );
    expect(res.body.data.nextCursor).toEqual(expect.any(String));
  });
});

describe.each(DIALECTS)('the budget bounds the work of every page on %s', (dialect) => {
  const it = mixedCorpus[dialect];
  // The corpus is made when this hook asks for it: 160 requests one after another (see above).
  it.beforeAll(({ mixed }) => void mixed, 40_000);

  it('no page confirms more than the budget, and the pages together find nothing, each recording once', async ({
    server,
    org,
  }) => {
    const budget = 1000;
    let cursor: string | undefined;
    let pages = 0;
    do {
      const stats: Work = { units: 0 };
      const page = await searchRecordings(
        server.store.db,
        org.orgId,
        validateSearchBody({ region: sliver(), limit: 50, cursor }),
        budget,
        stats,
      );
      expect(page.recordings).toEqual([]);
      expect(stats.units).toBeGreaterThan(0);
      expect(stats.units).toBeLessThanOrEqual(budget);
      cursor = page.nextCursor ?? undefined;
      expect(++pages).toBeLessThanOrEqual(80);
    } while (cursor);
    // 20 + 60 × 100 centroids (each worth up to 1 + 32/32 units against the 32-edge sliver) take several pages.
    expect(pages).toBeGreaterThanOrEqual(6);
  });
});
