// Run revisions (spec §9) over real HTTP on both dialects: numbers, list, read, restore, cap, retention, delete.
import { describe, expect } from 'vitest';
import { insertRecording } from '../../src/recordings/queries.js';
import { sweepExpired } from '../../src/retention/sweeper.js';
import { extendEach, serverTests } from '../support/fixtures.js';
import { bearer, getJson, postJson } from '../support/server.js';
import { DIALECTS } from '../support/store.js';

type Box = { frame: number; x: number; y: number; w: number; h: number; confidence?: number };
type Track = { id: string; label?: string; boxes: Box[] };

const track = (id: string, label: string, x: number, frames = [0, 1, 2]): Track => ({
  id,
  label,
  boxes: frames.map((frame) => ({ frame, x, y: 0.2, w: 0.1, h: 0.1, confidence: 0.5 })),
});

// RUN_REVISIONS_KEPT=4: the cap is reached within a test.
const tests = extendEach(serverTests({ env: { RUN_REVISIONS_KEPT: '4' } }), (test) =>
  test.extend('api', ({ server, org }) => {
    const q = (k: string) => encodeURIComponent(k);
    const run = (runId: string, tracks: Track[], mediaKey = org.recording.mediaKey, name = 'first') => ({
      mediaKey,
      name,
      schemaVersion: '1.0',
      source: { kind: 'model', name: 'yolo', runId },
      coordinateSpace: 'normalized',
      tracks,
    });
    return {
      run,
      post: (body: unknown, token = org.token) => postJson(`${server.url}/detections`, body, bearer(token)),
      patch: (runId: string, body: unknown, token = org.token, query = '') =>
        postJson(`${server.url}/detections/${q(runId)}${query}`, body, bearer(token), 'PATCH'),
      get: (path: string, token = org.token) => getJson(`${server.url}${path}`, bearer(token)),
      restore: (runId: string, n: number | string, token = org.token) =>
        postJson(`${server.url}/detections/${q(runId)}/revisions/${n}/restore`, {}, bearer(token)),
      revisions: async (runId: string, token = org.token) =>
        (await getJson(`${server.url}/detections/${q(runId)}/revisions`, bearer(token))).body,
      read: async (runId: string, revision?: number) =>
        (
          await getJson(
            `${server.url}/detections/${q(runId)}${revision === undefined ? '' : `?revision=${revision}`}`,
            bearer(org.token),
          )
        ).body.data,
    };
  }),
);

describe.each(DIALECTS)('run revisions on %s', (dialect) => {
  const it = tests[dialect];

  it('numbers every change from 1, lists them newest first with who made them, and reads each one back', async ({
    api,
    org,
  }) => {
    const v1 = [track('a', 'car', 0.1), track('b', 'person', 0.5)];
    expect((await api.post(api.run('rev-numbers', v1))).status).toBe(201);
    const first = await api.read('rev-numbers');
    expect(first.revision).toBe(1);
    expect(first).not.toHaveProperty('editedBy');
    expect(first).not.toHaveProperty('editedAt');

    // A replace by a person (a session user) makes revision 2, marked with the username.
    const v2 = [track('a', 'car', 0.2), track('c', 'dog', 0.7)];
    expect((await api.post(api.run('rev-numbers', v2, undefined, 'second'), org.sessions.editor)).status).toBe(200);
    const second = await api.read('rev-numbers');
    expect(second).toMatchObject({ revision: 2, name: 'second', tracksStored: 2, boxesStored: 6 });
    expect(second.editedBy).toMatch(/^editor-/);
    expect(Date.parse(second.editedAt)).toBeGreaterThan(Date.now() - 60_000);

    // A patch by the application token: revision 3, no person.
    const v3 = [track('a', 'car', 0.2), track('c', 'cat', 0.7)];
    const patched = await api.patch('rev-numbers', { baseRevision: 2, tracks: { upsert: [v3[1]] } });
    expect(patched.status).toBe(200);
    expect(patched.body.revision).toBe(3);
    const third = await api.read('rev-numbers');
    expect(third.revision).toBe(3);
    expect(third).not.toHaveProperty('editedBy');

    const list = await api.revisions('rev-numbers');
    expect(list.data.runId).toBe('rev-numbers');
    expect(list.data.mediaKey).toBe(org.recording.mediaKey);
    expect(list.data.revisions.map((r: { revision: number }) => r.revision)).toEqual([3, 2, 1]);
    expect(list.data.revisions[0]).toMatchObject({ current: true, tracksStored: 2, boxesStored: 6 });
    expect(list.data.revisions[1]).toMatchObject({ current: false, source: { kind: 'model', runId: 'rev-numbers' } });
    expect(list.data.revisions[1].editedBy).toBe(second.editedBy);
    expect(list.data.revisions[2]).not.toHaveProperty('editedBy');

    // Each revision reads back as it was current, summary and tracks.
    const old1 = await api.read('rev-numbers', 1);
    expect(old1).toMatchObject({ revision: 1, name: 'first', tracksStored: 2 });
    expect(old1.tracks).toEqual(first.tracks);
    expect(old1.createdAt).toBe(first.createdAt);
    const old2 = await api.read('rev-numbers', 2);
    expect({ ...old2, tracks: undefined }).toEqual({ ...second, tracks: undefined });
    expect(old2.tracks).toEqual(second.tracks);
    expect(await api.read('rev-numbers', 3)).toEqual(third);
  });

  it('404 revision_not_found for a revision the run never had or that is no number', async ({ api }) => {
    await api.post(api.run('rev-missing', [track('a', 'car', 0.1)]));
    for (const n of ['2', '0', '-1', 'abc', '1.5']) {
      const res = await api.get(`/detections/rev-missing?revision=${n}`);
      expect(res.status, n).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.code, n).toBe('revision_not_found');
      expect((await api.restore('rev-missing', n)).body.code, n).toBe('revision_not_found');
    }
    expect((await api.get('/detections/no-such-run/revisions')).body.code).toBe('run_not_found');
  });

  it('restores an earlier revision under a new number, with its header, and refuses the current one', async ({
    api,
    org,
  }) => {
    await api.post(api.run('rev-restore', [track('a', 'car', 0.1), track('b', 'person', 0.5)]));
    const original = await api.read('rev-restore');
    await api.post(api.run('rev-restore', [track('z', 'bus', 0.3)], undefined, 'replaced'));
    await api.patch('rev-restore', { baseRevision: 2, tracks: { upsert: [track('y', 'van', 0.6)] } });
    const before = await api.read('rev-restore');

    const res = await api.restore('rev-restore', 1, org.sessions.editor);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      runId: 'rev-restore',
      mediaKey: org.recording.mediaKey,
      revision: 4,
      restoredFrom: 1,
      tracksStored: 2,
      boxesStored: 6,
    });
    const now = await api.read('rev-restore');
    expect(now).toMatchObject({ revision: 4, name: 'first', tracksStored: 2 });
    expect(now.editedBy).toMatch(/^editor-/);
    expect(now.tracks).toEqual(original.tracks);
    // What the restore replaced is a revision too.
    expect((await api.read('rev-restore', 3)).tracks).toEqual(before.tracks);

    const again = await api.restore('rev-restore', 4);
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('nothing_to_change');
    // Write roles only.
    const viewer = await api.restore('rev-restore', 2, org.sessions.viewer);
    expect(viewer.status).toBe(403);
    expect(viewer.body.code).toBe('forbidden');
    expect((await api.read('rev-restore')).revision).toBe(4);
  });

  it('keeps RUN_REVISIONS_KEPT revisions, the current one included, the oldest going first', async ({ api }) => {
    const contents: Track[][] = [];
    for (let i = 0; i < 6; i++) {
      const tracks = [track('a', 'car', 0.1), track(`t${i}`, 'dog', 0.05 * (i + 1))];
      contents.push(tracks);
      expect((await api.post(api.run('rev-cap', tracks))).status).toBe(i === 0 ? 201 : 200);
    }
    const list = await api.revisions('rev-cap');
    expect(list.data.revisions.map((r: { revision: number }) => r.revision)).toEqual([6, 5, 4, 3]);
    expect((await api.get('/detections/rev-cap?revision=2')).body.code).toBe('revision_not_found');
    const oldest = await api.read('rev-cap', 3);
    expect(oldest.tracks.map((t: Track) => t.id)).toEqual(['a', 't2']);
    // Deltas too: patches on top of the cap keep every kept revision readable.
    for (let i = 0; i < 3; i++) {
      const res = await api.patch('rev-cap', {
        baseRevision: 6 + i,
        tracks: { upsert: [track(`p${i}`, 'cat', 0.1 * (i + 1))] },
      });
      expect(res.status).toBe(200);
    }
    const after = await api.revisions('rev-cap');
    expect(after.data.revisions.map((r: { revision: number }) => r.revision)).toEqual([9, 8, 7, 6]);
    expect((await api.read('rev-cap', 6)).tracks.map((t: Track) => t.id)).toEqual(['a', 't5']);
    expect((await api.read('rev-cap', 7)).tracks.map((t: Track) => t.id)).toEqual(['a', 't5', 'p0']);
  });

  it('deleting a run deletes its revisions', async ({ api, server, org }) => {
    await api.post(api.run('rev-delete', [track('a', 'car', 0.1)]));
    await api.post(api.run('rev-delete', [track('b', 'car', 0.2)]));
    const row = await server.store.db
      .selectFrom('runs')
      .select('id')
      .where('run_id', '=', 'rev-delete')
      .executeTakeFirstOrThrow();
    const count = async () =>
      (await server.store.db.selectFrom('run_revisions').select('revision').where('run_pk', '=', row.id).execute())
        .length;
    expect(await count()).toBe(1);
    const gone = await getJson(`${server.url}/detections/rev-delete`, bearer(org.token), 'DELETE');
    expect(gone.status).toBe(200);
    expect(await count()).toBe(0);
    expect((await api.get('/detections/rev-delete/revisions')).body.code).toBe('run_not_found');
    // A new run of the same runId starts again at 1.
    await api.post(api.run('rev-delete', [track('c', 'car', 0.3)]));
    expect((await api.revisions('rev-delete')).data.revisions.map((r: { revision: number }) => r.revision)).toEqual([
      1,
    ]);
  });

  it('revisions expire with the recording (retention sweep)', async ({ api, server, org }) => {
    const old = await insertRecording(server.store.db, org.orgId, {
      mediaKey: 'old/1500000000_cam.mp4',
      startTimestamp: 1_500_000_000,
    });
    await api.post(api.run('rev-expire', [track('a', 'car', 0.1)], old.mediaKey));
    await api.post(api.run('rev-expire', [track('b', 'car', 0.2)], old.mediaKey));
    const patched = await api.patch(
      'rev-expire',
      { baseRevision: 2, tracks: { delete: ['b'], upsert: [track('c', 'car', 0.3)] } },
      undefined,
      `?mediaKey=${encodeURIComponent(old.mediaKey)}`,
    );
    expect(patched.status).toBe(200);
    const revisionsOf = async () =>
      (
        await server.store.db
          .selectFrom('run_revisions')
          .innerJoin('runs', 'runs.id', 'run_revisions.run_pk')
          .select('run_revisions.revision')
          .where('runs.recording_id', '=', old.id)
          .execute()
      ).length;
    const all = async () => (await server.store.db.selectFrom('run_revisions').select('run_pk').execute()).length;
    expect(await revisionsOf()).toBe(2);
    const before = await all();
    // A time at which this recording (2017) is past its 30 days and the file's other one (2023) is not.
    await sweepExpired(server.store, { now: 1_600_000_000_000 });
    expect(await revisionsOf()).toBe(0);
    expect(await all()).toBe(before - 2);
    expect((await api.get(`/detections/rev-expire/revisions`)).body.code).toBe('run_not_found');
  });

  it('another organisation sees none of it: 404 on the list, a revision and a restore', async ({ api, other }) => {
    await api.post(api.run('rev-scoped', [track('a', 'car', 0.1)]));
    await api.post(api.run('rev-scoped', [track('b', 'car', 0.2)]));
    expect((await api.get('/detections/rev-scoped/revisions', other.token)).body.code).toBe('run_not_found');
    expect((await api.get('/detections/rev-scoped?revision=1', other.token)).body.code).toBe('run_not_found');
    const restore = await api.restore('rev-scoped', 1, other.token);
    expect([restore.status, restore.body.code]).toEqual([404, 'run_not_found']);
    expect((await api.read('rev-scoped')).revision).toBe(2);
  });
});
