// U+0000 in a value that reaches the database: PostgreSQL text cannot hold it. Every route answers 4xx (never a 500),
// and a lookup with it does not fail the other lookups batched with it.
import { describe, expect } from 'vitest';
import { serverTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { bearer, getJson, postJson } from '../support/server.js';

const tests = serverTests();

describe.each(DIALECTS)('U+0000 in inputs on %s', (dialect) => {
  const it = tests[dialect];

  const run = (mediaKey: string, runId: string) => ({
    mediaKey,
    schemaVersion: '1.0',
    coordinateSpace: 'normalized',
    source: { runId },
    tracks: [{ id: 't', boxes: [{ frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] }],
  });

  it('answers 4xx to every route, never 500', async ({ server, org }) => {
    const cursor = Buffer.from(JSON.stringify([1700000000, 'a\u0000b'])).toString('base64url');
    const answers = await Promise.all([
      getJson(`${server.url}/recordings/a%00b`, bearer(org.token)),
      getJson(`${server.url}/recordings/a%00b`, bearer(org.token), 'DELETE'),
      getJson(`${server.url}/recordings?device=a%00b`, bearer(org.token)),
      getJson(`${server.url}/recordings?label=a%00b`, bearer(org.token)),
      getJson(`${server.url}/recordings?cursor=${cursor}`, bearer(org.token)),
      postJson(
        `${server.url}/recordings/search`,
        { region: { x: 0, y: 0, w: 1, h: 1 }, labels: ['a\u0000b'] },
        bearer(org.token),
      ),
      postJson(`${server.url}/recordings/search`, { region: { x: 0, y: 0, w: 1, h: 1 }, to: 1e300 }, bearer(org.token)),
      getJson(`${server.url}/detections?mediaKey=a%00b`, bearer(org.token)),
      getJson(`${server.url}/detections/r%00x`, bearer(org.token)),
      postJson(`${server.url}/detections`, run('a\u0000b', 'nul-1'), bearer(org.token)),
      postJson(`${server.url}/login`, { username: 'a\u0000b', password: 'x' }),
    ]);
    for (const [i, a] of answers.entries()) {
      expect(a.status, `${i}: ${JSON.stringify(a.body)}`).toBeGreaterThanOrEqual(200);
      expect(a.status, `${i}: ${JSON.stringify(a.body)}`).toBeLessThan(500);
    }
  });

  it('a run lookup with U+0000 finds nothing, alike on both dialects: 404', async ({ server, org }) => {
    for (const [method, path, code] of [
      ['GET', '/detections/sp%00', 'run_not_found'],
      ['DELETE', '/detections/sp%00', 'run_not_found'],
      ['GET', '/detections/sp?mediaKey=a%00b', 'run_not_found'],
      ['GET', '/detections?mediaKey=a%00b', 'recording_not_found'],
    ]) {
      const res = await getJson(`${server.url}${path}`, bearer(org.token), method);
      expect([method, path, res.status, res.body.code]).toEqual([method, path, 404, code]);
    }
  });

  it('every other lookup with U+0000 finds nothing too, with the same answer on both dialects', async ({
    server,
    org,
    other: _other,
  }) => {
    await postJson(
      `${server.url}/detections`,
      {
        ...run(org.recording.mediaKey, 'nul-labelled'),
        tracks: [{ id: 't', label: 'person', boxes: [{ frame: 0, x: 0.4, y: 0.4, w: 0.2, h: 0.2 }] }],
      },
      bearer(org.token),
    );
    const owner = bearer(org.sessions.owner);
    const whole = { region: { x: 0, y: 0, w: 1, h: 1 } };
    const cursor = Buffer.from(JSON.stringify([1700000000, 'a\u0000b'])).toString('base64url');
    const answers = {
      recording: await getJson(`${server.url}/recordings/a%00b`, bearer(org.token)),
      recordingDelete: await getJson(`${server.url}/recordings/a%00b`, bearer(org.token), 'DELETE'),
      assets: await getJson(`${server.url}/recordings/a%00b/assets`, bearer(org.token)),
      device: await getJson(`${server.url}/recordings?device=a%00b`, bearer(org.token)),
      label: await getJson(`${server.url}/recordings?label=a%00b`, bearer(org.token)),
      labels: await getJson(`${server.url}/recordings?label=person,%00`, bearer(org.token)),
      cursor: await getJson(`${server.url}/recordings?cursor=${cursor}`, bearer(org.token)),
      searchLabel: await postJson(
        `${server.url}/recordings/search`,
        { ...whole, labels: ['a\u0000b'] },
        bearer(org.token),
      ),
      searchLabels: await postJson(
        `${server.url}/recordings/search`,
        { ...whole, labels: ['person', '\u0000'] },
        bearer(org.token),
      ),
      provider: await postJson(`${server.url}/api/storage/admin/providers/a%00`, { enabled: false }, owner, 'PATCH'),
      account: await postJson(`${server.url}/api/storage/admin/accounts/a%00`, { enabled: false }, owner, 'PATCH'),
      rotate: await postJson(`${server.url}/api/storage/admin/accounts/a%00/rotate`, {}, owner),
      login: await postJson(`${server.url}/login`, { username: 'a\u0000b', password: 'correct horse battery' }),
    };
    const seen = Object.fromEntries(
      Object.entries(answers).map(([k, a]) => [
        k,
        [a.status, a.body.code ?? a.body.data?.recordings?.map((r: { mediaKey: string }) => r.mediaKey)],
      ]),
    );
    expect(seen).toEqual({
      recording: [404, 'recording_not_found'],
      recordingDelete: [404, 'recording_not_found'],
      assets: [404, 'recording_not_found'],
      device: [200, []],
      label: [200, []],
      labels: [200, [org.recording.mediaKey]],
      cursor: [400, 'invalid_field'],
      searchLabel: [200, []],
      searchLabels: [200, [org.recording.mediaKey]],
      provider: [404, 'provider_not_found'],
      account: [404, 'account_not_found'],
      rotate: [404, 'account_not_found'],
      login: [401, 'invalid_credentials'],
    });
  });

  it('a lookup with U+0000 does not fail the lookups that share its query', async ({ server, org }) => {
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        postJson(
          `${server.url}/detections`,
          run(i % 3 === 0 ? 'nul\u0000key' : org.recording.mediaKey, `batched-${i}`),
          bearer(org.token),
        ),
      ),
    );
    results.forEach((r, i) => {
      expect(r.status, `${i}: ${JSON.stringify(r.body)}`).toBe(i % 3 === 0 ? 404 : 201);
    });
  });
});
