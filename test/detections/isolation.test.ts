import { describe, expect } from 'vitest';
import { extendEach, serverTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { bearer, getJson, postJson } from '../support/server.js';

// Org A is `org`, org B `other`; B has a run (made before the file's first test) for A's credentials to miss.
const tests = extendEach(serverTests(), (test) =>
  test.extend('bRun', { scope: 'file', auto: true }, async ({ server, other: b }) => {
    const res = await postJson(
      `${server.url}/detections`,
      {
        mediaKey: b.recording.mediaKey,
        schemaVersion: '1.0',
        source: { runId: 'b-run' },
        coordinateSpace: 'normalized',
        tracks: [{ id: 1, boxes: [{ frame: 0, x: 0, y: 0, w: 0.5, h: 0.5 }] }],
      },
      bearer(b.token),
    );
    expect(res.status).toBe(201);
    return 'b-run';
  }),
);

describe.each(DIALECTS)('organisation isolation on %s', (dialect) => {
  const asA = [
    ['access token', 'token'],
    ['owner session', 'owner'],
    ['editor session', 'editor'],
    ['viewer session', 'viewer'],
  ] as const;

  describe.each(asA)("org A's %s against org B", (_label, who) => {
    const it = tests[dialect].extend('token', ({ org: a }) => (who === 'token' ? a.token : a.sessions[who]));

    it('POST /detections by mediaKey → 404', async ({ server, other: b, token }) => {
      const res = await postJson(
        `${server.url}/detections`,
        {
          mediaKey: b.recording.mediaKey,
          schemaVersion: '1.0',
          source: { runId: 'x' },
          coordinateSpace: 'normalized',
          tracks: [{ id: 1, boxes: [{ frame: 0, x: 0, y: 0, w: 0.5, h: 0.5 }] }],
        },
        bearer(token),
      );
      expect(res.status).toBe(who === 'viewer' ? 403 : 404);
      if (who !== 'viewer') expect(res.body.code).toBe('recording_not_found');
    });

    it('POST /detections by analysisId → 404', async ({ server, other: b, token }) => {
      const res = await postJson(
        `${server.url}/detections`,
        {
          analysisId: b.recording.analysisId,
          schemaVersion: '1.0',
          source: { runId: 'x' },
          coordinateSpace: 'normalized',
          tracks: [{ id: 1, boxes: [{ frame: 0, x: 0, y: 0, w: 0.5, h: 0.5 }] }],
        },
        bearer(token),
      );
      expect(res.status).toBe(who === 'viewer' ? 403 : 404);
    });

    it('GET /detections?mediaKey= → 404', async ({ server, other: b, token }) => {
      const res = await getJson(
        `${server.url}/detections?mediaKey=${encodeURIComponent(b.recording.mediaKey)}`,
        bearer(token),
      );
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('recording_not_found');
    });

    it('GET /detections/{runId} → 404, with or without mediaKey', async ({ server, other: b, token }) => {
      for (const path of [
        '/detections/b-run',
        `/detections/b-run?mediaKey=${encodeURIComponent(b.recording.mediaKey)}`,
      ]) {
        const res = await getJson(`${server.url}${path}`, bearer(token));
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('run_not_found');
      }
    });

    it('DELETE /detections/{runId} → 404 and the run survives', async ({ server, other: b, token }) => {
      const res = await getJson(`${server.url}/detections/b-run`, bearer(token), 'DELETE');
      expect(res.status).toBe(who === 'viewer' ? 403 : 404);
      expect((await getJson(`${server.url}/detections/b-run`, bearer(b.token))).status).toBe(200);
    });
  });
});
