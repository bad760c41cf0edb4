import { gunzipSync } from 'node:zlib';
import { describe, expect } from 'vitest';
import { extendEach, serverTests } from '../support/fixtures.js';
import { insertRecording } from '../../src/recordings/queries.js';
import { DIALECTS } from '../support/store.js';
import { bearer, getJson, postJson } from '../support/server.js';

const track = (id: string, frames: number[]) => ({
  id,
  label: 'car',
  boxes: frames.map((frame) => ({ frame, x: 0.1, y: 0.2, w: 0.3, h: 0.4, confidence: 0.5 })),
});

// `otherKey` is a second recording of `org`.
const tests = extendEach(serverTests(), (test) =>
  test.extend(
    'otherKey',
    { scope: 'file' },
    async ({ server, org }) =>
      (
        await insertRecording(server.store.db, org.orgId, {
          mediaKey: 'other/1700000100_b.mp4',
          startTimestamp: 1_700_000_100,
        })
      ).mediaKey,
  ),
);

describe.each(DIALECTS)('reading and deleting runs on %s', (dialect) => {
  const it = tests[dialect]
    .extend(
      'runBody',
      ({ org }) =>
        (runId: string, mediaKey = org.recording.mediaKey, tracks = [track('a', [0, 1])]) => ({
          mediaKey,
          schemaVersion: '1.0',
          source: { kind: 'model', name: 'yolo', runId },
          coordinateSpace: 'normalized',
          tracks,
        }),
    )
    .extend(
      'post',
      ({ server, org }) =>
        (body: unknown) =>
          postJson(`${server.url}/detections`, body, bearer(org.token)),
    )
    .extend(
      'call',
      ({ server, org }) =>
        (path: string, method = 'GET', token = org.token) =>
          getJson(`${server.url}${path}`, bearer(token), method),
    );
  const q = (k: string) => encodeURIComponent(k);

  it('fetches and deletes a run whose runId has the longest length allowed (128 bytes)', async ({
    runBody,
    post,
    call,
  }) => {
    const runId = 'r'.repeat(64) + 'é'.repeat(32); // 128 bytes, 192 characters percent-encoded in the path
    expect((await post(runBody(runId))).status).toBe(201);
    expect((await call(`/detections/${q(runId)}`)).body.data.runId).toBe(runId);
    expect((await call(`/detections/${q(runId)}`, 'DELETE')).status).toBe(200);
    const tooLong = await call(`/detections/${'r'.repeat(2000)}`);
    expect([tooLong.status, tooLong.body.code]).toEqual([400, 'bad_request']);
  });

  it('lists an empty recording as an empty list', async ({ otherKey, call }) => {
    const res = await call(`/detections?mediaKey=${q(otherKey)}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { mediaKey: otherKey, runs: [] } });
  });

  it('lists runs oldest first as summaries without tracks, or full runs with include=tracks', async ({
    org,
    runBody,
    post,
    call,
  }) => {
    for (const id of ['zeta', 'alpha', 'mid']) expect((await post(runBody(id))).status).toBe(201);
    const res = await call(`/detections?mediaKey=${q(org.recording.mediaKey)}`);
    expect(res.status).toBe(200);
    const runs = res.body.data.runs;
    expect(runs.map((r: { runId: string }) => r.runId)).toEqual(['zeta', 'alpha', 'mid']);
    expect(runs[0]).not.toHaveProperty('tracks');
    expect(runs[0]).toMatchObject({
      mediaKey: org.recording.mediaKey,
      analysisId: org.recording.analysisId,
      tracksStored: 1,
      boxesStored: 2,
      recordingTimestamp: 1_700_000_000,
    });
    const full = await call(`/detections?mediaKey=${q(org.recording.mediaKey)}&include=tracks`);
    expect(full.body.data.runs[1].tracks).toEqual([track('a', [0, 1])]);
  });

  it('a replaced run keeps its place in the list (createdAt stays)', async ({ org, runBody, post, call }) => {
    expect((await post(runBody('zeta', org.recording.mediaKey, [track('b', [7])]))).status).toBe(200);
    const runs = (await call(`/detections?mediaKey=${q(org.recording.mediaKey)}`)).body.data.runs;
    expect(runs[0].runId).toBe('zeta');
  });

  it('400 media_key_missing and 404 recording_not_found for the list', async ({ call }) => {
    for (const path of ['/detections', '/detections?mediaKey=']) {
      const res = await call(path);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('media_key_missing');
    }
    const res = await call('/detections?mediaKey=unknown%2Fkey.mp4');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('recording_not_found');
  });

  it('400 invalid_field naming the parameter for a query parameter sent twice', async ({ org, call }) => {
    const key = q(org.recording.mediaKey);
    for (const path of [
      `/detections?mediaKey=${key}&mediaKey=${key}`,
      '/detections/alpha?mediaKey=a&mediaKey=b',
      `/detections?mediaKey=${key}&include=tracks&include=tracks`,
    ]) {
      const res = await call(path);
      expect([path, res.status, res.body.code, res.body.field]).toEqual([
        path,
        400,
        'invalid_field',
        path.includes('include') ? 'include' : 'mediaKey',
      ]);
    }
  });

  it('fetches one run with the full stored form', async ({ call }) => {
    const res = await call('/detections/alpha');
    expect(res.status).toBe(200);
    const run = res.body.data;
    expect(Object.keys(run)).toEqual([
      'runId',
      'mediaKey',
      'analysisId',
      'task',
      'schemaVersion',
      'source',
      'coordinateSpace',
      'originalCoordinateSpace',
      'originalBoxForm',
      'media',
      'categories',
      'recordingTimestamp',
      'createdAt',
      'updatedAt',
      'tracksStored',
      'boxesStored',
      'revision',
      'tracks',
    ]);
    expect(run).toMatchObject({
      runId: 'alpha',
      task: 'detection',
      coordinateSpace: 'normalized',
      originalBoxForm: 'xywh',
      source: { kind: 'model', name: 'yolo', runId: 'alpha' },
    });
    expect(new Date(run.createdAt).toISOString()).toBe(run.createdAt);
  });

  it('404 run_not_found, 400 run_id_missing for GET and DELETE without an id', async ({ call }) => {
    expect((await call('/detections/nope')).body.code).toBe('run_not_found');
    expect((await call('/detections/nope', 'DELETE')).body.code).toBe('run_not_found');
    for (const [path, method] of [
      ['/detections/', 'GET'],
      ['/detections', 'DELETE'],
      ['/detections/', 'DELETE'],
    ] as const) {
      const res = await call(path, method);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('run_id_missing');
    }
  });

  it('409 ambiguous_run_id with the candidate mediaKeys; ?mediaKey= narrows', async ({
    org,
    otherKey,
    runBody,
    post,
    call,
  }) => {
    expect((await post(runBody('shared'))).status).toBe(201);
    expect((await post(runBody('shared', otherKey))).status).toBe(201);
    const res = await call('/detections/shared');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('ambiguous_run_id');
    expect([...res.body.mediaKeys].sort()).toEqual([org.recording.mediaKey, otherKey].sort());
    expect((await call('/detections/shared', 'DELETE')).status).toBe(409);
    const one = await call(`/detections/shared?mediaKey=${q(otherKey)}`);
    expect(one.status).toBe(200);
    expect(one.body.data.mediaKey).toBe(otherKey);
    const del = await call(`/detections/shared?mediaKey=${q(otherKey)}`, 'DELETE');
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ data: { runId: 'shared', mediaKey: otherKey, deleted: true } });
    expect((await call('/detections/shared')).status).toBe(200);
  });

  it('deletes a run with its centroids, and a second delete is 404', async ({ server, org, runBody, post, call }) => {
    expect((await post(runBody('doomed'))).status).toBe(201);
    const pk = await server.store.db
      .selectFrom('runs')
      .select('id')
      .where('run_id', '=', 'doomed')
      .executeTakeFirstOrThrow();
    const before = await server.store.db
      .selectFrom('run_centroids')
      .select('count')
      .where('run_pk', '=', pk.id)
      .execute();
    expect(before.reduce((n, r) => n + r.count, 0)).toBe(2);
    const res = await call('/detections/doomed', 'DELETE');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ runId: 'doomed', mediaKey: org.recording.mediaKey, deleted: true });
    expect(
      await server.store.db.selectFrom('run_centroids').select('count').where('run_pk', '=', pk.id).execute(),
    ).toEqual([]);
    expect((await call('/detections/doomed', 'DELETE')).status).toBe(404);
  });

  it('deletes when the client labels the empty DELETE as JSON (many clients send Content-Type on every request)', async ({
    server,
    org,
    runBody,
    post,
  }) => {
    expect((await post(runBody('labelled'))).status).toBe(201);
    const res = await fetch(`${server.url}/detections/labelled`, {
      method: 'DELETE',
      headers: { ...bearer(org.token), 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({ runId: 'labelled', mediaKey: org.recording.mediaKey, deleted: true });
  });

  it('a viewer may read but not delete', async ({ org, call }) => {
    expect((await call('/detections/alpha', 'GET', org.sessions.viewer)).status).toBe(200);
    const res = await call('/detections/alpha', 'DELETE', org.sessions.viewer);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
  });

  it('compresses large responses when asked', async ({ server, org, runBody, post }) => {
    const tracks = Array.from({ length: 50 }, (_, i) =>
      track(
        `t${i}`,
        Array.from({ length: 40 }, (_, f) => f),
      ),
    );
    expect((await post(runBody('big', org.recording.mediaKey, tracks))).status).toBe(201);
    const res = await fetch(`${server.url}/detections/big`, {
      headers: bearer(org.token, { 'accept-encoding': 'gzip' }),
    });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toBe('accept-encoding');
    // The plain answer varies by Accept-Encoding too: a shared cache must not serve it for br, or br for it.
    for (const encoding of ['identity', 'zstd']) {
      const plain = await fetch(`${server.url}/detections/big`, {
        headers: bearer(org.token, { 'accept-encoding': encoding }),
      });
      expect([encoding, plain.headers.get('content-encoding'), plain.headers.get('vary')]).toEqual([
        encoding,
        null,
        'accept-encoding',
      ]);
      await plain.arrayBuffer();
    }
    const body = await res.json();
    expect(body.data.boxesStored).toBe(2000);
    // The raw bytes really are gzip: read them without fetch's automatic decoding.
    const raw = await import('node:http').then(
      ({ default: http }) =>
        new Promise<Buffer>((resolve) => {
          http.get(
            `${server.url}/detections/big`,
            { headers: bearer(org.token, { 'accept-encoding': 'gzip' }) },
            (r) => {
              const chunks: Buffer[] = [];
              r.on('data', (c) => chunks.push(c));
              r.on('end', () => resolve(Buffer.concat(chunks)));
            },
          );
        }),
    );
    expect(JSON.parse(gunzipSync(raw).toString()).data.tracks).toHaveLength(50);
  });

  it('streams a large run (≥ 20 000 boxes) as the same JSON, plain and gzip', async ({
    server,
    org,
    runBody,
    post,
    call,
  }) => {
    const tracks = Array.from({ length: 450 }, (_, t) => ({
      id: `s${t}`,
      label: t % 2 ? 'car' : 'person',
      boxes: Array.from({ length: 50 }, (_, f) => ({
        frame: f,
        x: (t % 90) / 100,
        y: 0.25,
        w: 0.01 + f / 10_000,
        h: 0.1,
        confidence: 1 / (f + 3),
        timestampMs: f * 40,
      })),
    }));
    expect((await post(runBody('streamed', org.recording.mediaKey, tracks))).status).toBe(201);
    const res = await fetch(`${server.url}/detections/streamed`, { headers: bearer(org.token) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const run = (await res.json()).data;
    expect(run).toMatchObject({
      runId: 'streamed',
      tracksStored: 450,
      boxesStored: 22_500,
      coordinateSpace: 'normalized',
    });
    expect(run.tracks.map((t: { id: string }) => t.id)).toEqual(tracks.map((t) => t.id));
    expect(run.tracks[449]).toEqual(tracks[449]);
    expect(run.tracks[250].boxes[49]).toEqual(tracks[250]!.boxes[49]);
    const zipped = await fetch(`${server.url}/detections/streamed`, {
      headers: bearer(org.token, { 'accept-encoding': 'gzip' }),
    });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect((await zipped.json()).data).toEqual(run);
    // The list with include=tracks streams too, run after run: the same runs as fetched one by one, in list order.
    const summaries = (await call(`/detections?mediaKey=${q(org.recording.mediaKey)}`)).body.data.runs as Array<{
      runId: string;
    }>;
    const one = await Promise.all(summaries.map(async (s) => (await call(`/detections/${q(s.runId)}`)).body.data));
    for (const headers of [bearer(org.token), bearer(org.token, { 'accept-encoding': 'br' })]) {
      const listed = await fetch(`${server.url}/detections?mediaKey=${q(org.recording.mediaKey)}&include=tracks`, {
        headers,
      });
      expect(listed.status).toBe(200);
      expect(await listed.json()).toEqual({ data: { mediaKey: org.recording.mediaKey, runs: one } });
    }
  });
});
