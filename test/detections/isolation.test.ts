import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/store.js';
import {
  bearer,
  getJson,
  postJson,
  seedOrg,
  startTestServer,
  type SeededOrg,
  type TestServer,
} from '../support/server.js';

describe.each(DIALECTS)('organisation isolation on %s', (dialect) => {
  let server: TestServer;
  let a: SeededOrg;
  let b: SeededOrg;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    a = await seedOrg(server.store);
    b = await seedOrg(server.store);
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
  });
  afterAll(async () => {
    await server.close();
  });

  const credentials = () => ({
    token: a.token,
    owner: a.sessions.owner,
    editor: a.sessions.editor,
    viewer: a.sessions.viewer,
  });
  const asA = [
    ['access token', 'token'],
    ['owner session', 'owner'],
    ['editor session', 'editor'],
    ['viewer session', 'viewer'],
  ] as const;

  describe.each(asA)("org A's %s against org B", (_label, who) => {
    const token = () => credentials()[who];

    it('POST /detections by mediaKey → 404', async () => {
      const res = await postJson(
        `${server.url}/detections`,
        {
          mediaKey: b.recording.mediaKey,
          schemaVersion: '1.0',
          source: { runId: 'x' },
          coordinateSpace: 'normalized',
          tracks: [{ id: 1, boxes: [{ frame: 0, x: 0, y: 0, w: 0.5, h: 0.5 }] }],
        },
        bearer(token()),
      );
      expect(res.status).toBe(who === 'viewer' ? 403 : 404);
      if (who !== 'viewer') expect(res.body.code).toBe('recording_not_found');
    });

    it('POST /detections by analysisId → 404', async () => {
      const res = await postJson(
        `${server.url}/detections`,
        {
          analysisId: b.recording.analysisId,
          schemaVersion: '1.0',
          source: { runId: 'x' },
          coordinateSpace: 'normalized',
          tracks: [{ id: 1, boxes: [{ frame: 0, x: 0, y: 0, w: 0.5, h: 0.5 }] }],
        },
        bearer(token()),
      );
      expect(res.status).toBe(who === 'viewer' ? 403 : 404);
    });

    it('GET /detections?mediaKey= → 404', async () => {
      const res = await getJson(
        `${server.url}/detections?mediaKey=${encodeURIComponent(b.recording.mediaKey)}`,
        bearer(token()),
      );
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('recording_not_found');
    });

    it('GET /detections/{runId} → 404, with or without mediaKey', async () => {
      for (const path of [
        '/detections/b-run',
        `/detections/b-run?mediaKey=${encodeURIComponent(b.recording.mediaKey)}`,
      ]) {
        const res = await getJson(`${server.url}${path}`, bearer(token()));
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('run_not_found');
      }
    });

    it('DELETE /detections/{runId} → 404 and the run survives', async () => {
      const res = await getJson(`${server.url}/detections/b-run`, bearer(token()), 'DELETE');
      expect(res.status).toBe(who === 'viewer' ? 403 : 404);
      expect((await getJson(`${server.url}/detections/b-run`, bearer(b.token))).status).toBe(200);
    });
  });
});
