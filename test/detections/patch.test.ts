// PATCH /detections/{runId} (spec §9) over real HTTP on both dialects.
import { describe, expect } from 'vitest';
import { extendEach, serverTests } from '../support/fixtures.js';
import { streamBody } from '../support/raw-http.js';
import { bearer, getJson, postJson } from '../support/server.js';
import { DIALECTS } from '../support/store.js';

type Box = Record<string, number | boolean>;
type Track = { id: string | number; label?: string; boxes: Box[] } & Record<string, unknown>;

const track = (id: string, label: string, x: number, frames = [0, 1, 2]): Track => ({
  id,
  label,
  boxes: frames.map((frame) => ({ frame, x, y: 0.2, w: 0.1, h: 0.1, confidence: 0.5 })),
});

const tests = extendEach(serverTests(), (test) =>
  test.extend('api', ({ server, org }) => {
    const q = (k: string) => encodeURIComponent(k);
    return {
      post: (runId: string, tracks: Track[], media: Record<string, number> = { fps: 10, frameCount: 100 }) =>
        postJson(
          `${server.url}/detections`,
          {
            mediaKey: org.recording.mediaKey,
            schemaVersion: '1.0',
            source: { kind: 'model', name: 'yolo', runId },
            coordinateSpace: 'normalized',
            media,
            tracks,
          },
          bearer(org.token),
        ),
      patch: (runId: string, body: unknown, token = org.token, query = '') =>
        postJson(`${server.url}/detections/${q(runId)}${query}`, body, bearer(token), 'PATCH'),
      read: async (runId: string, token = org.token) =>
        (await getJson(`${server.url}/detections/${q(runId)}`, bearer(token))).body,
      search: async (region: { x: number; y: number; w: number; h: number }, labels?: string[]) =>
        (
          await postJson(
            `${server.url}/recordings/search`,
            { region, ...(labels ? { labels } : {}) },
            bearer(org.token),
          )
        ).body.data.recordings.map((r: { mediaKey: string }) => r.mediaKey),
    };
  }),
);

describe.each(DIALECTS)('PATCH /detections/{runId} on %s', (dialect) => {
  const it = tests[dialect];

  it('replaces an upserted track in place, adds a new one at the end, deletes, relabels; the rest stays', async ({
    api,
  }) => {
    await api.post('p-basic', [track('a', 'car', 0.1), track('b', 'person', 0.3), track('c', 'dog', 0.5)]);
    const before = (await api.read('p-basic')).data;

    const moved = track('b', 'person', 0.35, [0, 1, 2, 3]);
    const res = await api.patch('p-basic', {
      baseRevision: 1,
      tracks: { upsert: [moved, track('d', 'cat', 0.7)], delete: ['c'] },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      runId: 'p-basic',
      mediaKey: before.mediaKey,
      revision: 2,
      tracksStored: 3,
      boxesStored: 10,
      rejected: [],
      warnings: [],
    });
    const after = (await api.read('p-basic')).data;
    expect(after.revision).toBe(2);
    expect(after).toMatchObject({ tracksStored: 3, boxesStored: 10, source: before.source });
    expect(after.tracks.map((t: Track) => t.id)).toEqual(['a', 'b', 'd']);
    expect(after.tracks[0]).toEqual(before.tracks[0]);
    expect(after.tracks[1]).toEqual(moved);
    expect(after.createdAt).toBe(before.createdAt);

    // Relabel: the same boxes under a new label; a numeric id names the same track as its text.
    const relabelled = { ...after.tracks[0], id: 7, label: 'truck' };
    await api.post('p-num', [{ ...track('7', 'car', 0.1) }]);
    const r = await api.patch('p-num', { baseRevision: 1, tracks: { upsert: [relabelled] } });
    expect(r.status).toBe(200);
    const num = (await api.read('p-num')).data;
    expect(num.tracks).toEqual([{ ...after.tracks[0], id: '7', label: 'truck' }]);
  });

  it('rejects boxes as POST does (207 with the list) and counts warnings; all rejected → 400, nothing changed', async ({
    api,
  }) => {
    await api.post('p-reject', [track('a', 'car', 0.1)]);
    const res = await api.patch('p-reject', {
      baseRevision: 1,
      tracks: {
        upsert: [
          {
            id: 'b',
            label: 'car',
            boxes: [
              { frame: 0, x: 0.1, y: 0.1, w: 0.1, h: 0.1 },
              { frame: 1, x: 0.1, y: 0.1, w: 0, h: 0.1 },
              { frame: 2, x1: 1.005, y1: 0.5, x2: 1.3, y2: 0.6 },
              { frame: 150, x: 0.995, y: 0.1, w: 0.01, h: 0.1, timestampMs: 15000 },
              { frame: 150, x: 0.2, y: 0.1, w: 0.1, h: 0.1, timestampMs: 99 },
            ],
          },
        ],
      },
    });
    expect(res.status).toBe(207);
    expect(res.body.rejected).toEqual([
      { trackId: 'b', frame: 1, reason: 'box_non_positive_dimensions' },
      { trackId: 'b', frame: 2, reason: 'box_out_of_frame' },
    ]);
    expect(res.body.warnings.map((w: { code: string; count: number }) => [w.code, w.count])).toEqual([
      ['TIMESTAMP_FRAME_MISMATCH', 1],
      ['FRAME_OUT_OF_RANGE', 1],
      ['DUPLICATE_FRAME', 1],
    ]);
    expect(res.body.revision).toBe(2);
    const stored = (await api.read('p-reject')).data.tracks[1];
    expect(stored.boxes).toEqual([
      { frame: 0, x: 0.1, y: 0.1, w: 0.1, h: 0.1 },
      { frame: 150, x: 0.2, y: 0.1, w: 0.1, h: 0.1, timestampMs: 99 },
    ]);

    const all = await api.patch('p-reject', {
      baseRevision: 2,
      tracks: { upsert: [{ id: 'a', boxes: [{ frame: -1, x: 0, y: 0, w: 1, h: 1 }] }] },
    });
    expect(all.status).toBe(400);
    expect(all.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(all.body).toMatchObject({
      code: 'all_boxes_rejected',
      runId: 'p-reject',
      rejected: [{ trackId: 'a', frame: -1, reason: 'box_invalid_frame' }],
    });
    expect((await api.read('p-reject')).data.revision).toBe(2);
  });

  it('400 for a patch that would change nothing, a bad body, an unknown track to delete, or an empty run', async ({
    api,
  }) => {
    await api.post('p-400', [track('a', 'car', 0.1)]);
    const cases: Array<[unknown, string]> = [
      [{ baseRevision: 1, tracks: {} }, 'nothing_to_change'],
      [{ baseRevision: 1, tracks: { upsert: [], delete: [] } }, 'nothing_to_change'],
      [{ baseRevision: 1, tracks: { upsert: [track('a', 'car', 0.1)] } }, 'nothing_to_change'],
      [{ baseRevision: 1, tracks: { delete: ['zz'] } }, 'track_not_found'],
      [{ baseRevision: 1, tracks: { delete: ['a'] } }, 'tracks_missing'],
      [{ baseRevision: 1, tracks: { delete: ['a'], upsert: [track('a', 'car', 0.2)] } }, 'duplicate_track_id'],
      [{ baseRevision: 1, tracks: { upsert: [track('b', 'x', 0.2), track('b', 'x', 0.3)] } }, 'duplicate_track_id'],
      [{ baseRevision: 1, tracks: { upsert: [{ id: 'b', boxes: [] }] } }, 'track_without_boxes'],
      [{ baseRevision: 1, tracks: { upsert: 'a' } }, 'invalid_field'],
      [{ baseRevision: '1', tracks: { delete: ['a'] } }, 'invalid_field'],
      [{ tracks: { delete: ['a'] } }, 'invalid_field'],
      [[], 'invalid_body'],
    ];
    for (const [body, code] of cases) {
      const res = await api.patch('p-400', body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, code]);
    }
    expect((await api.read('p-400')).data.revision).toBe(1);
  });

  it('409 revision_conflict with currentRevision for a stale base, and nothing changes', async ({ api }) => {
    await api.post('p-stale', [track('a', 'car', 0.1)]);
    expect((await api.patch('p-stale', { baseRevision: 1, tracks: { upsert: [track('b', 'x', 0.2)] } })).status).toBe(
      200,
    );
    const stale = await api.patch('p-stale', { baseRevision: 1, tracks: { upsert: [track('c', 'x', 0.3)] } });
    expect(stale.status).toBe(409);
    expect(stale.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(stale.body).toMatchObject({ code: 'revision_conflict', currentRevision: 2 });
    const run = (await api.read('p-stale')).data;
    expect(run.revision).toBe(2);
    expect(run.tracks.map((t: Track) => t.id)).toEqual(['a', 'b']);
  });

  it('two patches against the same revision at once: one 200, the other 409, never both applied', async ({ api }) => {
    for (let round = 0; round < 5; round++) {
      const runId = `p-race-${round}`;
      await api.post(runId, [track('a', 'car', 0.1)]);
      const [one, two] = await Promise.all([
        api.patch(runId, { baseRevision: 1, tracks: { upsert: [track('a', 'car', 0.2)] } }),
        api.patch(runId, { baseRevision: 1, tracks: { upsert: [track('a', 'car', 0.3)] } }),
      ]);
      expect([one.status, two.status].sort()).toEqual([200, 409]);
      const loser = one.status === 409 ? one : two;
      expect(loser.body).toMatchObject({ code: 'revision_conflict', currentRevision: 2 });
      const winner = one.status === 200 ? 0.2 : 0.3;
      const run = (await api.read(runId)).data;
      expect(run.revision).toBe(2);
      expect(run.tracks[0].boxes[0].x).toBe(winner);
    }
  });

  it('the search index follows patches and restores', async ({ api, org, server }) => {
    const region = { x: 0.8, y: 0.8, w: 0.15, h: 0.15 };
    await api.post('p-index', [track('a', 'car', 0.1)]);
    expect(await api.search(region)).not.toContain(org.recording.mediaKey);
    const into = { id: 'b', label: 'car', boxes: [{ frame: 0, x: 0.82, y: 0.82, w: 0.05, h: 0.05 }] };
    expect((await api.patch('p-index', { baseRevision: 1, tracks: { upsert: [into] } })).status).toBe(200);
    expect(await api.search(region)).toContain(org.recording.mediaKey);
    const restored = await postJson(`${server.url}/detections/p-index/revisions/1/restore`, {}, bearer(org.token));
    expect(restored.status).toBe(200);
    expect(await api.search(region)).not.toContain(org.recording.mediaKey);
    // And a delete by patch takes a track's centroids out.
    expect((await api.patch('p-index', { baseRevision: 3, tracks: { upsert: [into] } })).status).toBe(200);
    expect(await api.search(region)).toContain(org.recording.mediaKey);
    // A relabel moves the track's centroids to its new label.
    expect(await api.search(region, ['truck'])).not.toContain(org.recording.mediaKey);
    const relabel = { ...into, label: 'truck' };
    expect((await api.patch('p-index', { baseRevision: 4, tracks: { upsert: [relabel] } })).status).toBe(200);
    expect(await api.search(region, ['truck'])).toContain(org.recording.mediaKey);
    expect(await api.search(region, ['car'])).not.toContain(org.recording.mediaKey);
    expect((await api.patch('p-index', { baseRevision: 5, tracks: { delete: ['b'] } })).status).toBe(200);
    expect(await api.search(region)).not.toContain(org.recording.mediaKey);
  });

  it('write roles only; a person is named, an application is not; another organisation gets 404', async ({
    api,
    org,
    other,
  }) => {
    await api.post('p-roles', [track('a', 'car', 0.1)]);
    const body = (n: number, x: number) => ({ baseRevision: n, tracks: { upsert: [track('a', 'car', x)] } });
    const viewer = await api.patch('p-roles', body(1, 0.2), org.sessions.viewer);
    expect([viewer.status, viewer.body.code]).toEqual([403, 'forbidden']);
    const foreign = await api.patch('p-roles', body(1, 0.2), other.token);
    expect([foreign.status, foreign.body.code]).toEqual([404, 'run_not_found']);
    const none = await api.patch('p-roles', body(1, 0.2), 'nope');
    expect([none.status, none.body.code]).toEqual([401, 'unauthorized']);
    let n = 1;
    for (const role of ['owner', 'admin', 'editor'] as const) {
      const res = await api.patch('p-roles', body(n, 0.1 + n / 10), org.sessions[role]);
      expect(res.status, role).toBe(200);
      n++;
      const run = (await api.read('p-roles')).data;
      expect(run.editedBy).toBe(`${role}-${org.name.slice(4)}`);
    }
    expect((await api.patch('p-roles', body(n, 0.9))).status).toBe(200);
    const run = (await api.read('p-roles')).data;
    expect(run.revision).toBe(5);
    expect(run).not.toHaveProperty('editedBy');
    expect((await api.read('p-roles', other.token)).code).toBe('run_not_found');
  });

  it('404 run_not_found for an unknown run, 415 for a body that is not JSON', async ({ api, org, server }) => {
    const missing = await api.patch('p-none', { baseRevision: 1, tracks: { delete: ['a'] } });
    expect([missing.status, missing.body.code]).toEqual([404, 'run_not_found']);
    const res = await fetch(`${server.url}/detections/p-none`, {
      method: 'PATCH',
      headers: bearer(org.token, { 'content-type': 'text/plain' }),
      body: '{}',
    });
    expect(res.status).toBe(415);
    expect((await res.json()).code).toBe('unsupported_media_type');
  });

  it('413 payload_too_large for a patch over 32 MiB, before parsing', async ({ server, org }) => {
    for (const chunked of [false, true]) {
      const res = await streamBody(`${server.url}/detections/anything`, {
        method: 'PATCH',
        headers: bearer(org.token, { 'content-type': 'application/json' }),
        total: 33 * 1024 * 1024,
        chunked,
      });
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body).code).toBe('payload_too_large');
    }
  });
});
