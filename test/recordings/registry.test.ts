import { describe, expect } from 'vitest';
import { extendEach, serverTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { bearer, getJson, postJson } from '../support/server.js';
import { postRun, runAt } from './helpers.js';

const tests = serverTests();
// For the listing: `keys` are 12 recordings over 6 start times and 2 devices, two with a run, registered before the
// file's first listing test.
const listing = extendEach(
  serverTests({ recording: { mediaKey: 'seed/1600000000_seed.mp4', startTimestamp: 1_600_000_000 } }),
  (test) =>
    test.extend('keys', { scope: 'file', auto: true }, async ({ server, org }) => {
      const keys: string[] = [];
      for (let i = 0; i < 12; i++) {
        const mediaKey = `list/${1_700_000_000 + (i % 6) * 100}_n${i}.mp4`;
        keys.push(mediaKey);
        const res = await postJson(
          `${server.url}/recordings`,
          { mediaKey, deviceKey: i % 2 ? 'odd' : 'even' },
          bearer(org.token),
        );
        expect(res.status).toBe(201);
      }
      await postRun(server.url, org.token, runAt(keys[3]!, 'r1', [{ cx: 10, cy: 10, label: 'car' }]));
      await postRun(server.url, org.token, runAt(keys[4]!, 'r1', [{ cx: 10, cy: 10, label: 'person' }]));
      return keys;
    }),
);

describe.each(DIALECTS)('recordings registry on %s', (dialect) => {
  const it = tests[dialect].extend(
    'post',
    ({ server, org }) =>
      (body: unknown, token = org.token) =>
        postJson(`${server.url}/recordings`, body, bearer(token)),
  );

  it('registers a recording, parses the start from the key, and is idempotent on the same body', async ({ post }) => {
    const body = {
      mediaKey: 'alice/1700000123_6-967003_cam1_200-200-400-400_24_769.mp4',
      deviceKey: 'cam1',
      width: 1920,
      height: 1080,
      fps: 25,
    };
    const first = await post(body);
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({
      mediaKey: body.mediaKey,
      startTimestamp: 1_700_000_123,
      deviceKey: 'cam1',
      width: 1920,
      provider: null,
    });
    expect(first.body.data.id).toMatch(/^[0-9a-z]{26}$/);
    expect(typeof first.body.data.analysisId).toBe('string');
    const again = await post(body);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    // The same key with an explicit, equal start and its own analysisId is still the same recording.
    const same = await post({ ...body, startTimestamp: 1_700_000_123, analysisId: first.body.data.analysisId });
    expect(same.status).toBe(200);
  });

  it('answers 409 for a conflicting body and changes nothing', async ({ server, org, post }) => {
    const body = { mediaKey: 'alice/1700000200_cam2.mp4', deviceKey: 'cam2', fps: 25 };
    expect((await post(body)).status).toBe(201);
    const conflict = await post({ ...body, fps: 30, startTimestamp: 1_700_000_999 });
    expect(conflict.status).toBe(409);
    expect(conflict.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(conflict.body).toMatchObject({ code: 'recording_conflict', fields: ['startTimestamp', 'fps'] });
    const stored = await getJson(`${server.url}/recordings/${encodeURIComponent(body.mediaKey)}`, bearer(org.token));
    expect(stored.body.data).toMatchObject({ fps: 25, startTimestamp: 1_700_000_200 });
  });

  it('a repeat that leaves out the start is no conflict, even when the stored start is not the one in the key', async ({
    post,
  }) => {
    const mediaKey = 'alice/1709000009_z.mp4';
    expect((await post({ mediaKey, startTimestamp: 1_600_000_000 })).status).toBe(201);
    const again = await post({ mediaKey, deviceKey: undefined });
    expect([again.status, again.body.data?.startTimestamp]).toEqual([200, 1_600_000_000]);
    expect((await post({ mediaKey, startTimestamp: 1_709_000_009 })).status).toBe(409);
  });

  it('stores a fractional durationMs as sent, and refuses starts and counts no column can hold', async ({
    server,
    org,
    post,
  }) => {
    const created = await post({
      mediaKey: 'alice/1700000500_frac.mp4',
      fps: 29.97,
      frameCount: 600,
      durationMs: 20020.02,
    });
    expect(created.status).toBe(201);
    const stored = await getJson(
      `${server.url}/recordings/${encodeURIComponent('alice/1700000500_frac.mp4')}`,
      bearer(org.token),
    );
    expect(stored.body.data).toMatchObject({ durationMs: 20020.02, fps: 29.97, frameCount: 600 });
    for (const body of [
      { mediaKey: 'alice/x1.mp4', startTimestamp: 253_402_300_800 },
      { mediaKey: 'alice/1700000500_y.mp4', frameCount: 1e19 },
    ]) {
      const res = await post(body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, 'invalid_field']);
    }
  });

  it('refuses a lone surrogate in the key and text fields (it would be stored as another value)', async ({ post }) => {
    for (const body of [
      { mediaKey: 'x/1700000000_\ud800cam.mp4' },
      { mediaKey: 'x/1700000000_ok.mp4', deviceKey: 'cam\udc00' },
    ]) {
      const res = await post(body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, 'invalid_field']);
    }
  });

  it('answers 409 when the analysisId belongs to another recording', async ({ server, org, post }) => {
    const a = await post({ mediaKey: 'alice/1700000300_a.mp4', analysisId: 'analysis-taken-1' });
    expect(a.status).toBe(201);
    const b = await post({ mediaKey: 'alice/1700000300_b.mp4', analysisId: 'analysis-taken-1' });
    expect(b.status).toBe(409);
    expect(b.body.code).toBe('recording_conflict');
    expect(
      (await getJson(`${server.url}/recordings/${encodeURIComponent('alice/1700000300_b.mp4')}`, bearer(org.token)))
        .status,
    ).toBe(404);
  });

  it('resolves concurrent registrations of one key to a single recording', async ({ post }) => {
    const body = { mediaKey: 'race/1700000400_x.mp4', deviceKey: 'race' };
    const results = await Promise.all(Array.from({ length: 8 }, () => post(body)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
  });

  it('resolves concurrent registrations of one key with its analysisId to a single recording, never a 409', async ({
    post,
  }) => {
    // The analysisId check used to find the twin registered a moment before and call it another recording's.
    for (let round = 0; round < 6; round++) {
      const body = {
        mediaKey: `race/1700000500_${round}.mp4`,
        analysisId: `race-analysis-${round}`,
        deviceKey: 'race',
      };
      const results = await Promise.all(Array.from({ length: 8 }, () => post(body)));
      expect(results.map((r) => r.status).sort(), JSON.stringify(results.find((r) => r.status === 409)?.body)).toEqual([
        200, 200, 200, 200, 200, 200, 200, 201,
      ]);
      expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    }
  });

  it('validates the body', async ({ server, org, post }) => {
    expect((await post({})).body).toMatchObject({ status: 400, code: 'media_key_missing' });
    expect((await post([])).body).toMatchObject({ status: 400, code: 'invalid_body' });
    expect((await post({ mediaKey: 'no-time-here.mp4' })).body).toMatchObject({
      status: 400,
      code: 'invalid_field',
      field: 'startTimestamp',
    });
    expect((await post({ mediaKey: 'k/1700000000_a.mp4', width: -1 })).body).toMatchObject({
      status: 400,
      code: 'invalid_field',
      field: 'width',
    });
    expect((await post({ mediaKey: 'k/1700000000_a.mp4', frameCount: 1.5 })).body).toMatchObject({
      status: 400,
      code: 'invalid_field',
      field: 'frameCount',
    });
    expect((await post({ mediaKey: 'k/1700000000_a.mp4', startTimestamp: '1700000000' })).body).toMatchObject({
      status: 400,
      field: 'startTimestamp',
    });
    const res = await fetch(`${server.url}/recordings`, {
      method: 'POST',
      headers: { ...bearer(org.token), 'content-type': 'application/json' },
      body: '{',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('malformed_json');
    const text = await fetch(`${server.url}/recordings`, {
      method: 'POST',
      headers: { ...bearer(org.token), 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(text.status).toBe(415);
  });

  it('lets owners, admins and application tokens write; editors and viewers get 403; no token 401', async ({
    server,
    org,
    post,
  }) => {
    const body = (n: string) => ({ mediaKey: `roles/1700000500_${n}.mp4` });
    expect((await post(body('owner'), org.sessions.owner)).status).toBe(201);
    expect((await post(body('admin'), org.sessions.admin)).status).toBe(201);
    expect((await post(body('token'), org.token)).status).toBe(201);
    expect((await post(body('editor'), org.sessions.editor)).body).toMatchObject({ status: 403, code: 'forbidden' });
    expect((await post(body('viewer'), org.sessions.viewer)).body).toMatchObject({ status: 403, code: 'forbidden' });
    const anon = await postJson(`${server.url}/recordings`, body('anon'));
    expect(anon.status).toBe(401);
    expect(anon.headers.get('www-authenticate')).toBe('Bearer');
    expect((await getJson(`${server.url}/recordings`, bearer(org.sessions.viewer))).status).toBe(200);
    expect((await getJson(`${server.url}/recordings`)).status).toBe(401);
  });

  it('reads one recording by id, by %2F-encoded mediaKey and by a plain path, with its runs', async ({
    server,
    org,
    post,
  }) => {
    const mediaKey = 'bob/sub/1700000600_cam9.mp4';
    const created = await post({ mediaKey, width: 100, height: 100 });
    await postRun(server.url, org.token, runAt(mediaKey, 'run-a', [{ cx: 50, cy: 50, label: 'person' }]));
    await postRun(server.url, org.token, runAt(mediaKey, 'run-b', [{ cx: 20, cy: 20 }]));
    for (const path of [created.body.data.id, encodeURIComponent(mediaKey), mediaKey]) {
      const res = await getJson(`${server.url}/recordings/${path}`, bearer(org.sessions.viewer));
      expect(res.status, path).toBe(200);
      expect(res.body.data).toMatchObject({ id: created.body.data.id, mediaKey });
      expect(res.body.data.runs.map((r: { runId: string }) => r.runId)).toEqual(['run-a', 'run-b']);
      expect(res.body.data.runs[0]).toMatchObject({ mediaKey, tracksStored: 1, boxesStored: 1 });
      expect(res.body.data.runs[0].tracks).toBeUndefined();
    }
    expect(
      (await getJson(`${server.url}/recordings/${encodeURIComponent('bob/nope.mp4')}`, bearer(org.token))).body,
    ).toMatchObject({ status: 404, code: 'recording_not_found' });
  });

  it('hides other organisations: 404 exactly as if absent', async ({ server, other, post }) => {
    const mediaKey = 'secret/1700000700_x.mp4';
    const created = await post({ mediaKey });
    const byOther = await getJson(`${server.url}/recordings/${encodeURIComponent(mediaKey)}`, bearer(other.token));
    const absent = await getJson(
      `${server.url}/recordings/${encodeURIComponent('secret/1700000700_absent.mp4')}`,
      bearer(other.token),
    );
    expect(byOther.status).toBe(404);
    expect({ ...byOther.body, detail: '' }).toEqual({ ...absent.body, detail: '' });
    expect((await getJson(`${server.url}/recordings/${created.body.data.id}`, bearer(other.token))).status).toBe(404);
    expect(
      (await getJson(`${server.url}/recordings/${created.body.data.id}`, bearer(other.token), 'DELETE')).status,
    ).toBe(404);
    const list = await getJson(`${server.url}/recordings?limit=500`, bearer(other.token));
    expect(list.body.data.recordings.map((r: { mediaKey: string }) => r.mediaKey)).not.toContain(mediaKey);
    // The other organisation may register the same key as its own recording.
    expect((await post({ mediaKey }, other.token)).status).toBe(201);
  });

  it('deletes a recording with its runs and centroids', async ({ server, org, post }) => {
    const mediaKey = 'del/1700000800_x.mp4';
    await post({ mediaKey });
    await postRun(server.url, org.token, runAt(mediaKey, 'run-del', [{ cx: 91, cy: 91, label: 'deleteme' }]));
    const found = await postJson(
      `${server.url}/recordings/search`,
      { region: { x: 0.9, y: 0.9, w: 0.02, h: 0.02 }, labels: ['deleteme'] },
      bearer(org.token),
    );
    expect(found.body.data.recordings.map((r: { mediaKey: string }) => r.mediaKey)).toEqual([mediaKey]);
    expect(
      (await getJson(`${server.url}/recordings/${encodeURIComponent(mediaKey)}`, bearer(org.sessions.editor), 'DELETE'))
        .status,
    ).toBe(403);
    const res = await getJson(`${server.url}/recordings/${mediaKey}`, bearer(org.token), 'DELETE');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ mediaKey, deleted: true, runsDeleted: 1 });
    expect((await getJson(`${server.url}/recordings/${encodeURIComponent(mediaKey)}`, bearer(org.token))).status).toBe(
      404,
    );
    expect((await getJson(`${server.url}/detections/run-del`, bearer(org.token))).status).toBe(404);
    const after = await postJson(
      `${server.url}/recordings/search`,
      { region: { x: 0.9, y: 0.9, w: 0.02, h: 0.02 }, labels: ['deleteme'] },
      bearer(org.token),
    );
    expect(after.body.data.recordings).toEqual([]);
    for (const table of ['run_centroids', 'recording_label_cells'] as const) {
      const left = await server.store.db
        .selectFrom(table)
        .select('recording_id')
        .where('org_id', '=', org.orgId)
        .where('label', '=', 'deleteme')
        .execute();
      expect(left, table).toEqual([]);
    }
    expect(
      (await getJson(`${server.url}/recordings/${encodeURIComponent(mediaKey)}`, bearer(org.token), 'DELETE')).status,
    ).toBe(404);
  });
});

describe.each(DIALECTS)('listing recordings on %s', (dialect) => {
  const it = listing[dialect].extend('list', ({ server, org }) => async (query: string) => {
    const res = await getJson(`${server.url}/recordings?${query}`, bearer(org.sessions.viewer));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as {
      recordings: Array<{ mediaKey: string; startTimestamp: number; id: string; runCount: number }>;
      nextCursor: string | null;
    };
  });

  it('pages newest first without duplicates or gaps', async ({ list }) => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list(`limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.recordings.map((r) => r.mediaKey));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(13);
    expect(new Set(seen).size).toBe(13);
    const all = (await list('limit=100')).recordings;
    expect(all.map((r) => r.mediaKey)).toEqual(seen);
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1]!, all[i]!];
      expect(a.startTimestamp > b.startTimestamp || (a.startTimestamp === b.startTimestamp && a.id > b.id)).toBe(true);
    }
  });

  it('filters by device, start range, detections and label', async ({ keys, list }) => {
    expect((await list('device=odd&limit=100')).recordings.map((r) => r.mediaKey).sort()).toEqual(
      keys.filter((_, i) => i % 2).sort(),
    );
    const range = (await list('from=1700000100&to=1700000200')).recordings;
    expect(range.map((r) => r.mediaKey).sort()).toEqual(keys.filter((_, i) => [1, 2].includes(i % 6)).sort());
    const withRuns = (await list('hasDetections=true')).recordings;
    expect(withRuns.map((r) => r.mediaKey).sort()).toEqual([keys[3], keys[4]].sort());
    expect(withRuns.every((r) => r.runCount === 1)).toBe(true);
    expect((await list('hasDetections=false&limit=100')).recordings).toHaveLength(11);
    expect((await list('label=car')).recordings.map((r) => r.mediaKey)).toEqual([keys[3]]);
    expect((await list('label=car,person')).recordings.map((r) => r.mediaKey).sort()).toEqual(
      [keys[3], keys[4]].sort(),
    );
    expect((await list('from=2023-11-14T22:13:20Z&to=1700000000')).recordings).toHaveLength(2);
  });

  it('takes up to 100 distinct labels, a repeated one counted once', async ({ server, org }) => {
    const labels = [...Array.from({ length: 100 }, (_, i) => `l${i}`), 'l0', 'l1'].join(',');
    expect((await getJson(`${server.url}/recordings?label=${labels}`, bearer(org.token))).status).toBe(200);
  });

  it('rejects bad filters with 400', async ({ server, org }) => {
    for (const q of [
      'limit=0',
      'limit=501',
      'limit=abc',
      'from=yesterday',
      'hasDetections=maybe',
      'cursor=garbage',
      // Repeated filters are refused, never dropped; loose dates and a reversed range too, as in the search.
      'device=cam1&device=cam1',
      'device=cam1&device=cam2',
      'from=May%201',
      'to=-5',
      'from=2024-02-30',
      'from=1700000100&to=1700000000',
      // An empty filter (an unset variable) is refused, never dropped.
      'device=',
      'label=',
      'label=,',
      // More labels than the region search takes (3 000 held SQLite for seconds).
      `label=${Array.from({ length: 101 }, (_, i) => `l${i}`).join(',')}`,
    ]) {
      const res = await getJson(`${server.url}/recordings?${q}`, bearer(org.token));
      expect(res.status, q).toBe(400);
      expect(res.body.code, q).toBe('invalid_field');
    }
  });
});
