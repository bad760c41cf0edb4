import { describe, expect } from 'vitest';
import { serverTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { bearer, getJson, postJson } from '../support/server.js';

const tests = serverTests();

describe.each(DIALECTS)('idempotency on %s', (dialect) => {
  const it = tests[dialect];

  it('the same POST 10 times at once leaves one run: one 201, the rest 200', async ({ server, org }) => {
    const body = {
      mediaKey: org.recording.mediaKey,
      schemaVersion: '1.0',
      source: { runId: 'same' },
      coordinateSpace: 'normalized',
      tracks: Array.from({ length: 20 }, (_, i) => ({
        id: i,
        label: 'p',
        boxes: Array.from({ length: 30 }, (_, f) => ({ frame: f, x: 0.1, y: 0.1, w: 0.1, h: 0.1 })),
      })),
    };
    const results = await Promise.all(
      Array.from({ length: 10 }, () => postJson(`${server.url}/detections`, body, bearer(org.token))),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    for (const r of results) expect(r.body).toMatchObject({ runId: 'same', tracksStored: 20, boxesStored: 600 });
    const list = await getJson(
      `${server.url}/detections?mediaKey=${encodeURIComponent(org.recording.mediaKey)}`,
      bearer(org.token),
    );
    expect(list.body.data.runs.map((r: { runId: string }) => r.runId)).toEqual(['same']);
    const centroids = await server.store.db.selectFrom('run_centroids').select(['count']).execute();
    expect(centroids.reduce((n, c) => n + c.count, 0)).toBe(200);
  });

  it('concurrent different bodies with one runId leave exactly one complete run (last write wins)', async ({
    server,
    org,
  }) => {
    const body = (k: number) => ({
      mediaKey: org.recording.mediaKey,
      schemaVersion: '1.0',
      source: { runId: 'race', version: String(k) },
      coordinateSpace: 'normalized',
      tracks: Array.from({ length: k }, (_, i) => ({
        id: `${k}-${i}`,
        boxes: [{ frame: 0, x: 0.1, y: 0.1, w: 0.1, h: 0.1 }],
      })),
    });
    const results = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((k) => postJson(`${server.url}/detections`, body(k), bearer(org.token))),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const run = (await getJson(`${server.url}/detections/race`, bearer(org.token))).body.data;
    const k = Number(run.source.version);
    expect(run.tracks).toHaveLength(k);
    expect(run.tracksStored).toBe(k);
    expect(run.tracks.every((t: { id: string }) => t.id.startsWith(`${k}-`))).toBe(true);
  });

  it('a run read while it is being replaced is one version: summary and tracks agree, by id and in the list', async ({
    server,
    org,
  }) => {
    const body = (k: number) => ({
      mediaKey: org.recording.mediaKey,
      schemaVersion: '1.0',
      name: `v${k}`,
      source: { runId: 'flip' },
      coordinateSpace: 'normalized',
      tracks: Array.from({ length: k }, (_, i) => ({
        id: `${k}-${i}`,
        label: `l${k}`,
        boxes: Array.from({ length: 10 - k }, (_, f) => ({ frame: f, x: 0.1, y: 0.1, w: 0.1, h: 0.1 })),
      })),
    });
    expect((await postJson(`${server.url}/detections`, body(3), bearer(org.token))).status).toBeLessThan(300);
    const mixed: string[] = [];
    const check = (run: {
      name: string;
      tracksStored: number;
      boxesStored: number;
      tracks: Array<{ id: string; boxes: unknown[] }>;
    }) => {
      const k = Number(run.name.slice(1));
      const boxes = run.tracks.reduce((n, t) => n + t.boxes.length, 0);
      if (
        run.tracksStored !== k ||
        run.tracks.length !== k ||
        boxes !== run.boxesStored ||
        !run.tracks.every((t) => t.id.startsWith(`${k}-`))
      ) {
        mixed.push(
          JSON.stringify({ name: run.name, tracksStored: run.tracksStored, tracks: run.tracks.length, boxes }),
        );
      }
    };
    let writing = true;
    const writers = [3, 7].map(async (k) => {
      while (writing)
        expect((await postJson(`${server.url}/detections`, body(k), bearer(org.token))).status).toBeLessThan(300);
    });
    const q = encodeURIComponent(org.recording.mediaKey);
    // 50 rounds against two writers: each round reads while a replacement is under way (150 took 20 s on a busy
    // machine without finding more).
    for (let i = 0; i < 50; i++) {
      const one = await getJson(`${server.url}/detections/flip?mediaKey=${q}`, bearer(org.token));
      expect(one.status).toBe(200);
      check(one.body.data);
      const list = await getJson(`${server.url}/detections?mediaKey=${q}&include=tracks`, bearer(org.token));
      expect(list.status).toBe(200);
      for (const run of list.body.data.runs) if (run.runId === 'flip') check(run);
    }
    writing = false;
    await Promise.all(writers);
    expect(mixed).toEqual([]);
  });
});
