import { describe, expect } from 'vitest';
import { serverTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { bearer, getJson, postJson } from '../support/server.js';
import { postRun, runAt, search } from './helpers.js';

type Hit = {
  mediaKey: string;
  startTimestamp: number;
  matches: Array<{ runId: string; label: string; count: number }>;
};

// A U: the bar at the bottom (y 60–90) and two arms (x 10–30 and 70–90) up to y 10; the notch between the arms is outside.
const U = [
  { x: 10, y: 10 },
  { x: 30, y: 10 },
  { x: 30, y: 60 },
  { x: 70, y: 60 },
  { x: 70, y: 10 },
  { x: 90, y: 10 },
  { x: 90, y: 90 },
  { x: 10, y: 90 },
];
// The same U on a 1000×500 canvas.
const U_CANVAS = { points: U.map((p) => ({ x: p.x * 10, y: p.y * 5 })), width: 1000, height: 500 };

const tests = serverTests({ recording: { mediaKey: 'seed/1500000000_s.mp4', startTimestamp: 1_500_000_000 } });

describe.each(DIALECTS)('region search on %s', (dialect) => {
  const it = tests[dialect].extend('recording', ({ server, org }) => async (mediaKey: string, token = org.token) => {
    const res = await postJson(`${server.url}/recordings`, { mediaKey }, bearer(token));
    expect(res.status).toBe(201);
    return res.body.data;
  });
  const keysOf = (res: { body: { data: { recordings: Hit[] } } }) => res.body.data.recordings.map((r) => r.mediaKey);

  it('finds centroids inside a concave polygon and not in its notch', async ({ server, org, recording }) => {
    await recording('u/1700100000_notch.mp4');
    await recording('u/1700100001_arm.mp4');
    await recording('u/1700100002_bar.mp4');
    await postRun(server.url, org.token, runAt('u/1700100000_notch.mp4', 'r', [{ cx: 50, cy: 30, label: 'ushape' }]));
    await postRun(
      server.url,
      org.token,
      runAt('u/1700100001_arm.mp4', 'r', [
        { cx: 20, cy: 20, label: 'ushape' },
        { cx: 50, cy: 30, label: 'ushape' },
      ]),
    );
    await postRun(server.url, org.token, runAt('u/1700100002_bar.mp4', 'r', [{ cx: 50, cy: 75, label: 'ushape' }]));
    const res = await search(server.url, org.sessions.viewer, { region: U_CANVAS, labels: ['ushape'] });
    expect(res.status).toBe(200);
    expect(res.body.data.nextCursor).toBeNull();
    expect(res.body.data.recordings).toEqual([
      expect.objectContaining({
        mediaKey: 'u/1700100002_bar.mp4',
        startTimestamp: 1_700_100_002,
        deviceKey: null,
        matches: [{ runId: 'r', label: 'ushape', count: 1, firstFrame: 0 }],
      }),
      expect.objectContaining({
        mediaKey: 'u/1700100001_arm.mp4',
        matches: [{ runId: 'r', label: 'ushape', count: 1, firstFrame: 0 }],
      }),
    ]);
    expect(typeof res.body.data.recordings[0].analysisId).toBe('string');
    // Normalized polygon points (no width/height) give the same answer.
    const normalized = await search(server.url, org.token, {
      region: { points: U.map((p) => ({ x: p.x / 100, y: p.y / 100 })) },
      labels: ['ushape'],
    });
    expect(keysOf(normalized)).toEqual(['u/1700100002_bar.mp4', 'u/1700100001_arm.mp4']);
  });

  it('counts points on an edge or a vertex as inside', async ({ server, org, recording }) => {
    await recording('edge/1700200000_a.mp4');
    // Centres exactly on the U's edges and corners (and on grid-cell borders: 25, 50, 75).
    await postRun(
      server.url,
      org.token,
      runAt('edge/1700200000_a.mp4', 'edges', [
        { cx: 30, cy: 40, label: 'edge' },
        { cx: 50, cy: 60, label: 'edge' },
        { cx: 90, cy: 90, label: 'edge' },
        { cx: 10, cy: 50, label: 'edge' },
        { cx: 50, cy: 59.9, label: 'edge' },
      ]),
    );
    const res = await search(server.url, org.token, { region: U_CANVAS, labels: ['edge'] });
    expect(res.body.data.recordings).toEqual([
      expect.objectContaining({
        mediaKey: 'edge/1700200000_a.mp4',
        matches: [{ runId: 'edges', label: 'edge', count: 4, firstFrame: 0 }],
      }),
    ]);
    const rect = await search(server.url, org.token, {
      region: { x: 0.5, y: 0.6, w: 0.25, h: 0.25 },
      labels: ['edge'],
    });
    expect(rect.body.data.recordings[0].matches).toEqual([{ runId: 'edges', label: 'edge', count: 1, firstFrame: 0 }]);
    const corner = await search(server.url, org.token, {
      region: { x: 0.9, y: 0.9, w: 0.05, h: 0.05 },
      labels: ['edge'],
    });
    expect(corner.body.data.recordings[0].matches).toEqual([
      { runId: 'edges', label: 'edge', count: 1, firstFrame: 0 },
    ]);
  });

  it('filters by labels and start time', async ({ server, org, recording }) => {
    await recording('f/1700300000_a.mp4');
    await recording('f/1700300100_b.mp4');
    await recording('f/1700300200_c.mp4');
    await postRun(server.url, org.token, runAt('f/1700300000_a.mp4', 'r1', [{ cx: 5, cy: 95, label: 'cat' }]));
    await postRun(
      server.url,
      org.token,
      runAt('f/1700300100_b.mp4', 'r1', [
        { cx: 5, cy: 95, label: 'dog' },
        { cx: 6, cy: 94, label: 'cat' },
      ]),
    );
    await postRun(server.url, org.token, runAt('f/1700300100_b.mp4', 'r2', [{ cx: 5, cy: 95, label: 'dog' }]));
    await postRun(server.url, org.token, runAt('f/1700300200_c.mp4', 'r1', [{ cx: 5, cy: 95, label: 'bird' }]));
    const region = { x: 0, y: 0.9, w: 0.1, h: 0.1 };
    const fKeys = async (body: Record<string, unknown>) =>
      keysOf(await search(server.url, org.token, { region, ...body })).filter((k: string) => k.startsWith('f/'));
    expect(await fKeys({})).toEqual(['f/1700300200_c.mp4', 'f/1700300100_b.mp4', 'f/1700300000_a.mp4']);
    expect(await fKeys({ labels: ['cat'] })).toEqual(['f/1700300100_b.mp4', 'f/1700300000_a.mp4']);
    expect(await fKeys({ labels: ['bird', 'cat'] })).toEqual([
      'f/1700300200_c.mp4',
      'f/1700300100_b.mp4',
      'f/1700300000_a.mp4',
    ]);
    expect(await fKeys({ labels: ['horse'] })).toEqual([]);
    expect(await fKeys({ from: 1_700_300_100 })).toEqual(['f/1700300200_c.mp4', 'f/1700300100_b.mp4']);
    expect(await fKeys({ from: 1_700_300_050, to: 1_700_300_100 })).toEqual(['f/1700300100_b.mp4']);
    expect(await fKeys({ to: '2023-11-18T09:33:20Z' })).toEqual(['f/1700300000_a.mp4']);
    const b = (
      await search(server.url, org.token, { region, labels: ['dog', 'cat'], from: 1_700_300_100, to: 1_700_300_100 })
    ).body.data.recordings;
    expect(b).toHaveLength(1);
    expect(b[0].matches).toEqual([
      { runId: 'r1', label: 'cat', count: 1, firstFrame: 0 },
      { runId: 'r1', label: 'dog', count: 1, firstFrame: 0 },
      { runId: 'r2', label: 'dog', count: 1, firstFrame: 0 },
    ]);
  });

  it('keeps other organisations invisible', async ({ server, org, other, recording }) => {
    await recording('x/1700400000_mine.mp4', other.token);
    await postRun(server.url, other.token, runAt('x/1700400000_mine.mp4', 'r', [{ cx: 50, cy: 50, label: 'secret' }]));
    expect(
      keysOf(await search(server.url, org.token, { region: { x: 0, y: 0, w: 1, h: 1 }, labels: ['secret'] })),
    ).toEqual([]);
    expect(
      keysOf(await search(server.url, other.token, { region: { x: 0, y: 0, w: 1, h: 1 }, labels: ['secret'] })),
    ).toEqual(['x/1700400000_mine.mp4']);
    const all = await search(server.url, org.token, { region: { x: 0, y: 0, w: 1, h: 1 }, limit: 500 });
    expect(keysOf(all)).not.toContain('x/1700400000_mine.mp4');
  });

  it('replacing a run with boxes elsewhere removes the old matches; deleting it removes them', async ({
    server,
    org,
    recording,
  }) => {
    await recording('rep/1700500000_a.mp4');
    const left = { region: { x: 0, y: 0, w: 0.3, h: 0.3 }, labels: ['moving'] };
    const right = { region: { x: 0.7, y: 0.7, w: 0.3, h: 0.3 }, labels: ['moving'] };
    await postRun(server.url, org.token, runAt('rep/1700500000_a.mp4', 'mv', [{ cx: 10, cy: 10, label: 'moving' }]));
    expect(keysOf(await search(server.url, org.token, left))).toEqual(['rep/1700500000_a.mp4']);
    const replaced = await postRun(
      server.url,
      org.token,
      runAt('rep/1700500000_a.mp4', 'mv', [{ cx: 90, cy: 90, label: 'moving' }]),
    );
    expect(replaced.status).toBe(200);
    expect(keysOf(await search(server.url, org.token, left))).toEqual([]);
    expect(keysOf(await search(server.url, org.token, right))).toEqual(['rep/1700500000_a.mp4']);
    expect((await getJson(`${server.url}/detections/mv`, bearer(org.token), 'DELETE')).status).toBe(200);
    expect(keysOf(await search(server.url, org.token, right))).toEqual([]);
    expect(keysOf(await search(server.url, org.token, { region: right.region }))).not.toContain('rep/1700500000_a.mp4');
  });

  it('pages with a cursor without duplicates or gaps while new runs arrive', async ({ server, org, recording }) => {
    const keys: string[] = [];
    for (let i = 0; i < 30; i++) {
      const key = `page/${1_700_600_000 + Math.floor(i / 3)}_${String(i).padStart(2, '0')}.mp4`;
      keys.push(key);
      await recording(key);
      if (i % 5 !== 4) await postRun(server.url, org.token, runAt(key, 'first', [{ cx: 40, cy: 40, label: 'pager' }]));
    }
    const expected = new Set(keys.filter((_, i) => i % 5 !== 4));
    const seen: string[] = [];
    let cursor: string | null = null;
    let page = 0;
    do {
      const res = await search(server.url, org.token, {
        region: { x: 0.35, y: 0.35, w: 0.1, h: 0.1 },
        labels: ['pager'],
        limit: 4,
        cursor,
      });
      expect(res.status).toBe(200);
      seen.push(...keysOf(res));
      cursor = res.body.data.nextCursor;
      // New runs arrive between pages: more matches on already-seen recordings, and on one not seen yet.
      if (page === 1) {
        await postRun(server.url, org.token, runAt(seen[0]!, 'late', [{ cx: 41, cy: 41, label: 'pager' }]));
        await postRun(server.url, org.token, runAt(keys[4]!, 'late', [{ cx: 41, cy: 41, label: 'pager' }]));
        expected.add(keys[4]!);
      }
      page++;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(new Set(seen)).toEqual(expected);
    expect(seen).toEqual([...keys].reverse().filter((k) => expected.has(k)));
  });

  it('validates the request', async ({ server, org }) => {
    const bad = [
      [{}, 'region'],
      [
        {
          region: {
            points: [
              { x: 0, y: 0 },
              { x: 1, y: 1 },
            ],
          },
        },
        'region.points',
      ],
      [
        {
          region: {
            points: [
              { x: 0, y: 0 },
              { x: 1, y: 1 },
              { x: 'a', y: 1 },
            ],
          },
        },
        'region.points[2]',
      ],
      [{ region: { points: U, width: 100 } }, 'region'],
      [{ region: { x: 0, y: 0, w: 0, h: 1 } }, 'region'],
      [{ region: { x: 0, y: 0, w: 1, h: 1 }, labels: 'cat' }, 'labels'],
      [{ region: { x: 0, y: 0, w: 1, h: 1 }, limit: 0 }, 'limit'],
      [{ region: { x: 0, y: 0, w: 1, h: 1 }, from: 10, to: 5 }, 'from'],
      [{ region: { x: 0, y: 0, w: 1, h: 1 }, cursor: 'nope' }, 'cursor'],
      // JSON says what a number is: a limit sent as text is refused, as every other numeric field is.
      [{ region: { x: 0, y: 0, w: 1, h: 1 }, limit: '5' }, 'limit'],
      // Coordinates that overflow once scaled would match nothing silently.
      [{ region: { x: 0.4, y: 0.4, w: 1e308, h: 1e308 } }, 'region'],
      [
        {
          region: {
            points: [
              { x: 0, y: 0 },
              { x: 1e308, y: 0 },
              { x: 0, y: 1e308 },
            ],
          },
        },
        'region',
      ],
      [
        {
          region: {
            points: [
              { x: 0, y: 0 },
              { x: 1, y: 0 },
              { x: 0, y: 1 },
            ],
            width: 1e-320,
            height: 1e-320,
          },
        },
        'region',
      ],
      [{ region: { x: 0, y: 0, w: 1, h: 1 }, from: '-5' }, 'from'],
      [{ region: { x: 0, y: 0, w: 1, h: 1 }, to: 'May 1' }, 'to'],
    ] as const;
    for (const [body, field] of bad) {
      const res = await search(server.url, org.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body, JSON.stringify(body)).toMatchObject({ code: 'invalid_field', field });
    }
    expect((await search(server.url, org.token, [])).body.code).toBe('invalid_body');
    expect((await postJson(`${server.url}/recordings/search`, { region: { x: 0, y: 0, w: 1, h: 1 } })).status).toBe(
      401,
    );
    const outside = await search(server.url, org.token, { region: { x: 2, y: 2, w: 1, h: 1 } });
    expect(outside.body.data).toEqual({ recordings: [], nextCursor: null });
  });
});
