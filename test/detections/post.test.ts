import http from 'node:http';
import net from 'node:net';
import { describe, expect } from 'vitest';
import { serverTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { bearer, getJson, postJson } from '../support/server.js';
import { streamBody } from '../support/raw-http.js';

const box = (frame: number, over: Record<string, unknown> = {}) => ({ frame, x: 0.1, y: 0.1, w: 0.2, h: 0.3, ...over });

const tests = serverTests();

describe.each(DIALECTS)('POST /detections on %s', (dialect) => {
  let n = 0;
  const it = tests[dialect]
    .extend('run', ({ org }) => (over: Record<string, unknown> = {}) => ({
      mediaKey: org.recording.mediaKey,
      schemaVersion: '1.0',
      source: { kind: 'model', name: 'yolo', version: '8', runId: `run-${++n}` },
      coordinateSpace: 'normalized',
      tracks: [{ id: 't1', label: 'person', boxes: [box(0), box(1)] }],
      ...over,
    }))
    .extend(
      'post',
      ({ server, org }) =>
        (body: unknown, token = org.token, extra: Record<string, string> = {}) =>
          postJson(`${server.url}/detections`, body, bearer(token, extra)),
    )
    .extend(
      'get',
      ({ server, org }) =>
        (path: string, token = org.token) =>
          getJson(`${server.url}${path}`, bearer(token)),
    )
    .extend(
      'list',
      ({ get, org }) =>
        async () =>
          (await get(`/detections?mediaKey=${encodeURIComponent(org.recording.mediaKey)}`)).body.data.runs as Array<
            Record<string, unknown>
          >,
    )
    .extend(
      'askAt',
      ({ server }) =>
        (path: string, headers: Record<string, string>, length: number) =>
          new Promise<{ continued: boolean; status: number }>((resolve, reject) => {
            let continued = false;
            const req = http.request(`${server.url}${path}`, {
              method: 'POST',
              headers: {
                ...headers,
                'content-type': 'application/json',
                'content-length': String(length),
                expect: '100-continue',
              },
            });
            req.on('continue', () => {
              continued = true;
              req.end('x'.repeat(length));
            });
            req.on('response', (res) => {
              res.resume();
              req.destroy();
              resolve({ continued, status: res.statusCode! });
            });
            req.on('error', reject);
            req.flushHeaders();
          }),
    );

  it('201 for a new run with every box valid, body is the post result', async ({ run, post }) => {
    const res = await post(run({ source: { runId: 'fresh-1', name: 'yolo' } }));
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({ runId: 'fresh-1', tracksStored: 1, boxesStored: 2, rejected: [], warnings: [] });
  });

  it('200 when the same runId is posted again, a true replace that keeps createdAt', async ({ run, post, get }) => {
    const first = await post(
      run({
        source: { runId: 'replace-me' },
        tracks: [
          { id: 'a', boxes: [box(0)] },
          { id: 'b', boxes: [box(0)] },
        ],
      }),
    );
    expect(first.status).toBe(201);
    const before = (await get('/detections/replace-me')).body.data;
    const second = await post(
      run({ source: { runId: 'replace-me', name: 'v2' }, tracks: [{ id: 'c', boxes: [box(3)] }] }),
    );
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ runId: 'replace-me', tracksStored: 1, boxesStored: 1 });
    const after = (await get('/detections/replace-me')).body.data;
    expect(after.tracks.map((t: { id: string }) => t.id)).toEqual(['c']);
    expect(after.source.name).toBe('v2');
    expect(after.createdAt).toBe(before.createdAt);
    expect(Date.parse(after.updatedAt)).toBeGreaterThanOrEqual(Date.parse(before.updatedAt));
  });

  it('a new runId adds a sibling run', async ({ run, post, list }) => {
    const before = (await list()).length;
    expect((await post(run())).status).toBe(201);
    expect((await post(run())).status).toBe(201);
    expect((await list()).length).toBe(before + 2);
  });

  it('the normalized worked example: 207 with one box_out_of_frame, the run usable', async ({ run, post, get }) => {
    const body = run({
      source: { runId: 'worked-207' },
      tracks: [
        {
          id: 'T',
          boxes: [
            { frame: 0, x1: 0.1, y1: 0.1, x2: 0.3, y2: 0.4 },
            { frame: 1, x1: 1.2, y1: 1.2, x2: 1.5, y2: 1.6 },
          ],
        },
      ],
    });
    const res = await post(body);
    expect(res.status).toBe(207);
    expect(res.body).toEqual({
      runId: 'worked-207',
      tracksStored: 1,
      boxesStored: 1,
      rejected: [{ trackId: 'T', frame: 1, reason: 'box_out_of_frame' }],
      warnings: [],
    });
    const stored = (await get('/detections/worked-207')).body.data;
    expect(stored.tracks[0].boxes).toHaveLength(1);
    // A replace that still rejects boxes is 207 too.
    expect((await post(body)).status).toBe(207);
  });

  it('the same run with only the bad box: 400 all_boxes_rejected and nothing stored', async ({ run, post, get }) => {
    const res = await post(
      run({
        source: { runId: 'worked-400' },
        tracks: [{ id: 'T', boxes: [{ frame: 1, x1: 1.2, y1: 1.2, x2: 1.5, y2: 1.6 }] }],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({
      code: 'all_boxes_rejected',
      status: 400,
      runId: 'worked-400',
      rejected: [{ trackId: 'T', frame: 1, reason: 'box_out_of_frame' }],
      warnings: [],
    });
    expect((await get('/detections/worked-400')).status).toBe(404);
  });

  it('a failed replace leaves the existing run untouched', async ({ run, post, get }) => {
    await post(run({ source: { runId: 'keep-me' } }));
    const res = await post(run({ source: { runId: 'keep-me' }, tracks: [{ id: 'x', boxes: [{ frame: 0 }] }] }));
    expect(res.body.code).toBe('all_boxes_rejected');
    const bad = await post(run({ source: { runId: 'keep-me' }, schemaVersion: '2.0' }));
    expect(bad.body.code).toBe('unsupported_schema_version');
    const stored = (await get('/detections/keep-me')).body.data;
    expect(stored.boxesStored).toBe(2);
  });

  it('the pixel worked example is stored exactly as x 0.1 y 0.1 w 0.2 h 0.4', async ({ run, post, get }) => {
    const res = await post(
      run({
        source: { runId: 'pixel-1' },
        coordinateSpace: 'pixel',
        media: { width: 1000, height: 500 },
        tracks: [
          { id: 'P', boxes: [{ frame: 0, x1: 100, y1: 50, x2: 300, y2: 250, confidence: 0.9, timestampMs: 0 }] },
        ],
      }),
    );
    expect(res.status).toBe(201);
    const stored = (await get('/detections/pixel-1')).body.data;
    expect(stored.tracks[0].boxes[0]).toEqual({
      frame: 0,
      x: 0.1,
      y: 0.1,
      w: 0.2,
      h: 0.4,
      confidence: 0.9,
      timestampMs: 0,
    });
    expect(stored).toMatchObject({
      coordinateSpace: 'normalized',
      originalCoordinateSpace: 'pixel',
      originalBoxForm: 'xyxy',
      recordingTimestamp: 1_700_000_000,
    });
  });

  it('returns the four warnings with counts and stores the offending boxes', async ({ run, post, get }) => {
    const res = await post(
      run({
        schemaVersion: '1.2',
        source: { runId: 'warn-1' },
        media: { fps: 10, frameCount: 2 },
        tracks: [
          { id: 'w', boxes: [box(0, { timestampMs: 0 }), box(1, { timestampMs: 500 }), box(5), box(5, { x: 0.3 })] },
        ],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.warnings.map((w: { code: string; count: number }) => [w.code, w.count])).toEqual([
      ['TIMESTAMP_FRAME_MISMATCH', 1],
      ['FRAME_OUT_OF_RANGE', 1],
      ['DUPLICATE_FRAME', 1],
      ['SCHEMA_VERSION_MINOR_MISMATCH', 1],
    ]);
    expect(res.body.boxesStored).toBe(3);
    const stored = (await get('/detections/warn-1')).body.data;
    expect(stored.tracks[0].boxes.map((b: { frame: number; x: number }) => [b.frame, b.x])).toEqual([
      [0, 0.1],
      [1, 0.1],
      [5, 0.3],
    ]);
  });

  it('generates and returns a runId when source.runId is absent', async ({ run, post, get }) => {
    const res = await post(run({ source: { name: 'anon' } }));
    expect(res.status).toBe(201);
    expect(res.body.runId).toMatch(/^[0-9a-z]{26}$/);
    expect((await get(`/detections/${res.body.runId}`)).status).toBe(200);
  });

  it('resolves the target by analysisId, and mediaKey wins when both are sent', async ({ org, run, post }) => {
    const byId = await post(
      run({ mediaKey: undefined, analysisId: org.recording.analysisId, source: { runId: 'by-analysis' } }),
    );
    expect(byId.status).toBe(201);
    const both = await post(run({ analysisId: 'does-not-exist', source: { runId: 'both-targets' } }));
    expect(both.status).toBe(201);
  });

  it('404 recording_not_found for an unknown target, nothing stored', async ({ run, post, get }) => {
    const res = await post(run({ mediaKey: 'nobody/1700000000_x.mp4', source: { runId: 'orphan' } }));
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('recording_not_found');
    expect((await get('/detections/orphan')).status).toBe(404);
  });

  it.for([
    ['invalid_body', [1, 2]],
    [
      'target_missing',
      { schemaVersion: '1.0', source: {}, coordinateSpace: 'normalized', tracks: [{ id: 1, boxes: [box(0)] }] },
    ],
    [
      'schema_version_missing',
      { mediaKey: 'k', source: {}, coordinateSpace: 'normalized', tracks: [{ id: 1, boxes: [box(0)] }] },
    ],
    ['track_without_boxes', 'track_without_boxes'],
    ['invalid_run_id', 'invalid_run_id'],
  ])('400 %s over HTTP', async ([code, body], { run, post }) => {
    const payload =
      body === 'track_without_boxes'
        ? run({ tracks: [{ id: 'e', boxes: [] }] })
        : body === 'invalid_run_id'
          ? run({ source: { runId: 'a/b' } })
          : body;
    const res = await post(payload);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({
      status: 400,
      code,
      type: expect.any(String),
      title: expect.any(String),
      detail: expect.any(String),
    });
  });

  it('400 malformed_json for bytes that are not UTF-8, instead of storing a runId with U+FFFD', async ({
    server,
    org,
  }) => {
    const text = JSON.stringify({
      mediaKey: org.recording.mediaKey,
      schemaVersion: '1.0',
      coordinateSpace: 'normalized',
      source: { runId: 'bad-XX' },
      tracks: [{ id: 't', boxes: [{ frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] }],
    });
    const bytes = Buffer.from(text);
    bytes[bytes.indexOf('XX')] = 0xff;
    const res = await fetch(`${server.url}/detections`, {
      method: 'POST',
      headers: bearer(org.token, { 'content-type': 'application/json' }),
      body: bytes,
    });
    expect([res.status, (await res.json()).code]).toEqual([400, 'malformed_json']);
    expect((await fetch(`${server.url}/detections/bad-%EF%BF%BDX`, { headers: bearer(org.token) })).status).toBe(404);
  });

  it('refuses what it could not keep as sent: a number past a double where a run keeps numbers as sent', async ({
    server,
    org,
    get,
  }) => {
    const send = async (runId: string, fragment: string) => {
      const text =
        `{"mediaKey":${JSON.stringify(org.recording.mediaKey)},"schemaVersion":"1.0","coordinateSpace":"normalized",${fragment},` +
        `"tracks":[{"id":"t","boxes":[{"frame":0,"x":0.1,"y":0.1,"w":0.2,"h":0.3}]}]}`.replace('RUN', runId);
      const res = await fetch(`${server.url}/detections`, {
        method: 'POST',
        headers: bearer(org.token, { 'content-type': 'application/json' }),
        body: text,
      });
      return [res.status, ((await res.json()) as { code?: string }).code];
    };
    expect(await send('n1', '"source":{"runId":"RUN","scoreThreshold":1e400}')).toEqual([400, 'invalid_source']);
    expect(await send('n2', '"source":{"runId":"RUN"},"media":{"bitrate":-1e400}')).toEqual([400, 'invalid_media']);
    expect(await send('n3', '"source":{"runId":"RUN"},"categories":[{"id":1e400,"name":"person"}]')).toEqual([
      400,
      'invalid_field',
    ]);
    for (const runId of ['n1', 'n2', 'n3']) expect((await get(`/detections/${runId}`)).status).toBe(404);
  });

  it('400 malformed_json for broken JSON', async ({ server, org }) => {
    const res = await fetch(`${server.url}/detections`, {
      method: 'POST',
      headers: bearer(org.token, { 'content-type': 'application/json' }),
      body: '{"mediaKey": ',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('malformed_json');
  });

  it('400 malformed_json for broken JSON inside a box, an empty body and an empty body with a charset', async ({
    server,
    org,
    run,
    get,
  }) => {
    const postText = (body: string, type = 'application/json') =>
      fetch(`${server.url}/detections`, { method: 'POST', headers: bearer(org.token, { 'content-type': type }), body });
    const text = JSON.stringify(run({ source: { runId: 'broken-box' } }));
    for (const body of [
      text.replace('"x":0.1', '"x":01'),
      text.replace('"x":0.1', '"x":.1'),
      text.replace('"h":0.3}', '"h":0.3,}'),
      '',
    ]) {
      const res = await postText(body);
      expect(res.status, body).toBe(400);
      expect((await res.json()).code).toBe('malformed_json');
    }
    expect((await postText('', 'application/json; charset=utf-8')).status).toBe(400);
    expect((await get('/detections/broken-box')).status).toBe(404);
  });

  it('boxes the packing parser declines (labels, an escaped key, __proto__) are stored as the same run', async ({
    server,
    org,
    run,
    get,
  }) => {
    // One run three ways: plain numeric boxes (read packed), boxes with a label and an escaped key (JSON.parse),
    // boxes with a "__proto__" member (JSON.parse; it is an unknown field, ignored).
    const boxes = [
      box(2, { confidence: 0.5, timestampMs: 66 }),
      box(0, { x: -0.005 }),
      box(2, { w: 0.25 }),
      box(1, { x: 0.805 }),
    ];
    const plain = JSON.stringify(run({ source: { runId: 'three-ways' }, tracks: [{ id: 7, boxes }] }));
    const labelled = JSON.stringify(
      run({ source: { runId: 'three-ways' }, tracks: [{ id: 7, boxes: boxes.map((b) => ({ ...b, label: 'car' })) }] }),
    ).replace('"frame":0', '"fr\\u0061me":0');
    const proto = plain.replace('"frame":1,', '"frame":1,"__proto__":{"frame":5},');
    const answers = [];
    const stored = [];
    for (const body of [plain, labelled, proto]) {
      const res = await fetch(`${server.url}/detections`, {
        method: 'POST',
        headers: bearer(org.token, { 'content-type': 'application/json' }),
        body,
      });
      answers.push({ status: res.status, body: await res.json() });
      const data = (await get('/detections/three-ways')).body.data;
      stored.push(
        data.tracks.map((t: { boxes: Array<Record<string, unknown>> }) =>
          t.boxes.map(({ label: _label, ...rest }) => rest),
        ),
      );
    }
    expect(answers[0]).toEqual({ status: 201, body: expect.objectContaining({ boxesStored: 3, tracksStored: 1 }) });
    expect(answers[0]!.body.warnings).toEqual([expect.objectContaining({ code: 'DUPLICATE_FRAME', count: 1 })]);
    expect(answers.slice(1)).toEqual([
      { ...answers[0], status: 200 },
      { ...answers[0], status: 200 },
    ]);
    expect(stored[1]).toEqual(stored[0]);
    expect(stored[2]).toEqual(stored[0]);
    expect(stored[0][0].map((b: { frame: number }) => b.frame)).toEqual([0, 1, 2]);
  });

  it('400 invalid_field, not 500, for meta or categories nested 20 000 deep, and a lone-surrogate runId is refused', async ({
    server,
    org,
    list,
  }) => {
    const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const text = (runId: string, track: string, extra = '') =>
      `{"mediaKey":${JSON.stringify(org.recording.mediaKey)},"schemaVersion":"1.0",` +
      `"source":{"runId":"${runId}"},"coordinateSpace":"normalized"${extra},"tracks":[${track}]}`;
    const send = async (body: string) => {
      const res = await fetch(`${server.url}/detections`, {
        method: 'POST',
        headers: bearer(org.token, { 'content-type': 'application/json' }),
        body,
      });
      return { status: res.status, body: (await res.json()) as { code?: string } };
    };
    const okBox = '{"frame":0,"x":0.1,"y":0.1,"w":0.2,"h":0.2}';
    for (const body of [
      text('deep-1', `{"id":"t","meta":${deep},"boxes":[${okBox}]}`),
      text('deep-2', `{"id":"t","boxes":[{"frame":0,"x":0.1,"y":0.1,"w":0.2,"h":0.2,"meta":${deep}}]}`),
      text('deep-3', `{"id":"t","boxes":[${okBox}]}`, `,"categories":[${'['.repeat(20_000)}${']'.repeat(20_000)}]`),
    ]) {
      const res = await send(body);
      expect([res.status, res.body.code]).toEqual([400, 'invalid_field']);
    }
    const surrogate = await send(text('sur\\ud800-1', `{"id":"t","boxes":[${okBox}]}`));
    expect([surrogate.status, surrogate.body.code]).toEqual([400, 'invalid_run_id']);
    expect(
      (await list()).map((r) => r.runId).filter((id) => String(id).startsWith('deep') || String(id).startsWith('sur')),
    ).toEqual([]);
  });

  it('stores categories nested 1000 levels deep as sent, and gives them back', async ({ run, post, get }) => {
    let categories: unknown = 'leaf';
    for (let i = 0; i < 999; i++) categories = i % 2 === 0 ? [categories] : { a: categories };
    const res = await post(run({ source: { runId: 'deep-categories' }, categories: [categories] }));
    expect(res.status).toBe(201);
    const stored = (await get('/detections/deep-categories')).body.data.categories;
    expect(JSON.stringify(stored)).toBe(JSON.stringify([categories]));
  });

  it('ignores a member no run has even when nested 200 000 deep: it is checked as JSON, never built (201)', async ({
    server,
    org,
    run,
    post,
  }) => {
    const body = `{"x":${'['.repeat(200_000)}${']'.repeat(200_000)},${JSON.stringify(run({ source: { runId: 'deep-ignored' } })).slice(1)}`;
    const res = await fetch(`${server.url}/detections`, {
      method: 'POST',
      headers: bearer(org.token, { 'content-type': 'application/json' }),
      body,
    });
    expect(res.status).toBe(201);
    // Where a run's member nests that deep it is built, and refused before JSON.parse would take seconds.
    const deepCategories = `{"categories":${'['.repeat(200_000)}${']'.repeat(200_000)},${JSON.stringify(run({ source: { runId: 'deep-categories' } })).slice(1)}`;
    const refused = await fetch(`${server.url}/detections`, {
      method: 'POST',
      headers: bearer(org.token, { 'content-type': 'application/json' }),
      body: deepCategories,
    });
    expect([refused.status, (await refused.json()).code]).toEqual([400, 'invalid_body']);
    // An ignored member of ordinary depth is ignored too.
    const shallow = await post({ ...run({ source: { runId: 'shallow-ignored' } }), x: [[[[1]]]] });
    expect(shallow.status).toBe(201);
  });

  it('415 unsupported_media_type for a body that is not JSON', async ({ server, org, run }) => {
    const res = await fetch(`${server.url}/detections`, {
      method: 'POST',
      headers: bearer(org.token, { 'content-type': 'text/plain' }),
      body: JSON.stringify(run()),
    });
    expect(res.status).toBe(415);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await res.json()).code).toBe('unsupported_media_type');
  });

  it.for([true, false])(
    '413 payload_too_large for a 33 MiB body (chunked=%s), before parsing',
    async (chunked, { server, org }) => {
      const res = await streamBody(`${server.url}/detections`, {
        headers: bearer(org.token, { 'content-type': 'application/json' }),
        total: 33 * 1024 * 1024,
        chunked,
      });
      expect(res.status).toBe(413);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(res.body).code).toBe('payload_too_large');
    },
  );

  it('Expect: 100-continue: 413 without asking for a body over 32 MiB; 100 Continue for one within it', async ({
    org,
    askAt,
  }) => {
    const ask = (length: number) => askAt('/detections', bearer(org.token), length);
    expect(await ask(40 * 1024 * 1024)).toEqual({ continued: false, status: 413 });
    expect(await ask(3)).toEqual({ continued: true, status: 400 });
    // Each route's own limit, and its authentication, come before the invitation to upload.
    expect(await askAt('/login', {}, 2 * 1024 * 1024)).toEqual({ continued: false, status: 413 });
    expect(
      await askAt(
        '/api/storage/bulk',
        { 'x-service-storage-accesskey': 'k', 'x-service-storage-secretaccesskey': 's' },
        3,
      ),
    ).toEqual({ continued: false, status: 401 });
    expect(await askAt('/detections', { authorization: 'Bearer nope' }, 3)).toEqual({ continued: false, status: 401 });
  });

  it('lists every rejection of a long list, written as a stream: 207 (also compressed) and the 400 of an all-rejected run', async ({
    server,
    org,
    run,
    post,
    get,
  }) => {
    // 12 000 rejected boxes over three tracks (past the 10 000 from which the list is streamed), and one kept box.
    const bad = (_t: number) =>
      Array.from({ length: 4000 }, (_, i) =>
        i % 2 === 0 ? { frame: -1 - i } : { frame: i, x: 0.5, y: 0.5, w: 0, h: 0.1 },
      );
    const expected = [0, 1, 2].flatMap((t) =>
      bad(t).map((b) => ({
        trackId: `bad-${t}`,
        frame: b.frame,
        reason: b.frame < 0 ? 'box_invalid_frame' : 'box_non_positive_dimensions',
      })),
    );
    const tracks = [0, 1, 2].map((t) => ({ id: `bad-${t}`, boxes: bad(t) }));
    const partly = await post(
      run({ source: { runId: 'many-rejected' }, tracks: [...tracks, { id: 'good', boxes: [box(0)] }] }),
    );
    expect(partly.status).toBe(207);
    expect(partly.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(partly.body).toEqual({
      runId: 'many-rejected',
      tracksStored: 1,
      boxesStored: 1,
      rejected: expected,
      warnings: [],
    });
    const gzipped = await fetch(`${server.url}/detections`, {
      method: 'POST',
      body: JSON.stringify(
        run({ source: { runId: 'many-rejected' }, tracks: [...tracks, { id: 'good', boxes: [box(0)] }] }),
      ),
      headers: bearer(org.token, { 'content-type': 'application/json', 'accept-encoding': 'gzip' }),
    });
    expect(gzipped.status).toBe(207);
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(((await gzipped.json()) as { rejected: unknown[] }).rejected).toEqual(expected);
    const none = await post(run({ source: { runId: 'all-rejected-many' }, tracks }));
    expect(none.status).toBe(400);
    expect(none.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(none.headers.get('cache-control')).toBe('no-store');
    expect(none.body).toMatchObject({
      code: 'all_boxes_rejected',
      status: 400,
      runId: 'all-rejected-many',
      rejected: expected,
      warnings: [],
    });
    expect(
      (await get(`/detections/all-rejected-many?mediaKey=${encodeURIComponent(org.recording.mediaKey)}`)).status,
    ).toBe(404);
    // The long problem is compressed for a client that asks, as the 207 is.
    const problemGzipped = await fetch(`${server.url}/detections`, {
      method: 'POST',
      body: JSON.stringify(run({ source: { runId: 'all-rejected-many' }, tracks })),
      headers: bearer(org.token, { 'content-type': 'application/json', 'accept-encoding': 'gzip' }),
    });
    expect(problemGzipped.status).toBe(400);
    expect(problemGzipped.headers.get('content-encoding')).toBe('gzip');
    expect(problemGzipped.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(((await problemGzipped.json()) as { rejected: unknown[] }).rejected).toEqual(expected);
  });

  it('large bodies whose clients give up (uploading or waiting for their turn) give their slot back', async ({
    server,
    org,
    run,
    post,
  }) => {
    const { port } = new URL(server.url);
    const partial = () =>
      new Promise<net.Socket>((resolve) => {
        const socket = net.connect(Number(port), '127.0.0.1', () => {
          const head = `POST /detections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${org.token}\r\nContent-Type: application/json\r\nContent-Length: ${20 * 1024 * 1024}\r\n\r\n`;
          socket.write(`${head}{"pad":"${'x'.repeat(1024 * 1024)}`, () => resolve(socket));
        });
        socket.on('error', () => {});
      });
    // More than the two slots: two read, the others wait; then every client disappears.
    const sockets = await Promise.all([partial(), partial(), partial(), partial()]);
    await Promise.all(
      sockets.map(
        (s) =>
          new Promise<void>((resolve) => {
            s.once('close', () => resolve());
            s.destroy();
          }),
      ),
    );
    // Three large runs in turn: with a leaked slot they would wait for ever.
    for (let i = 0; i < 3; i++) {
      const res = await post(run({ source: { runId: `large-after-abort-${i}` }, pad: 'p'.repeat(9 * 1024 * 1024) }));
      expect(res.status).toBe(201);
    }
  });

  it('a small chunked run does not wait behind large or stalled chunked uploads', async ({ server, org, run }) => {
    const { port } = new URL(server.url);
    // Two chunked uploads that pass the large-body threshold and then stall: they hold both slots.
    const stalled = await Promise.all(
      [0, 1].map(
        () =>
          new Promise<net.Socket>((resolve) => {
            const socket = net.connect(Number(port), '127.0.0.1', () => {
              const head = `POST /detections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${org.token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
              const piece = `{"pad":"${'x'.repeat(9 * 1024 * 1024)}`;
              socket.write(`${head}${piece.length.toString(16)}\r\n${piece}\r\n`, () => resolve(socket));
            });
            socket.on('error', () => {});
          }),
      ),
    );
    try {
      const body = JSON.stringify(run({ source: { runId: 'small-chunked' } }));
      const res = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          `${server.url}/detections`,
          { method: 'POST', headers: bearer(org.token, { 'content-type': 'application/json' }) },
          (r) => {
            r.resume();
            resolve(r.statusCode!);
          },
        );
        req.on('error', reject);
        req.write(body); // no Content-Length: chunked
        req.end();
      });
      expect(res).toBe(201);
    } finally {
      for (const s of stalled) s.destroy();
    }
  });

  it('401 with WWW-Authenticate for a missing, malformed or unknown token; checked before the body', async ({
    server,
    run,
  }) => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: 'Basic abc' },
      { authorization: 'Bearer sla_nope' },
    ]) {
      const res = await postJson(`${server.url}/detections`, run(), headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(res.body.code).toBe('unauthorized');
    }
    const big = await streamBody(`${server.url}/detections`, {
      headers: { 'content-type': 'application/json' },
      total: 33 * 1024 * 1024,
      chunked: false,
    });
    expect(big.status).toBe(401);
  });

  it('403 forbidden for a viewer; editors, admins, owners and tokens may write', async ({ org, run, post }) => {
    const res = await post(run(), org.sessions.viewer);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
    for (const role of ['editor', 'admin', 'owner'] as const)
      expect((await post(run(), org.sessions[role])).status).toBe(201);
  });

  it('honours a pinned API version and refuses an unknown one', async ({ org, run, post, get }) => {
    const ok = await post(run(), org.token, { accept: 'application/json; version=2026-01-01' });
    expect(ok.status).toBe(201);
    expect(ok.headers.get('api-version')).toBe('2026-01-01');
    const bad = await post(run({ source: { runId: 'never' } }), org.token, {
      accept: 'application/json; version=2030-01-01',
    });
    expect(bad.status).toBe(406);
    expect(bad.body.code).toBe('unsupported_api_version');
    expect((await get('/detections/never')).status).toBe(404);
  });
});
