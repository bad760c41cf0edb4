// POST, GET and DELETE /evaluations over real HTTP, on both dialects: the figures are the engine's, selectors pick
// runs across recordings, stale follows the runs, and every refusal has its code.
import { describe, expect } from 'vitest';
import { insertRecording, type Recording } from '../../src/recordings/queries.js';
import { extendEach, serverTests } from '../support/fixtures.js';
import { bearer, getJson, postJson, type SeededOrg, type TestServer } from '../support/server.js';
import { DIALECTS } from '../support/store.js';
import { engineFigures, groundTruth, prediction, type RecordingSize } from './helpers.js';

let n = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++n}`;

const tests = extendEach(serverTests(), (test) => test.extend('api', ({ server, org }) => api(server, org)));
const asyncTests = extendEach(serverTests({ env: { EVALUATION_SYNC_MS: '0' } }), (test) =>
  test.extend('api', ({ server, org }) => api(server, org)),
);

function api(server: TestServer, org: SeededOrg) {
  return {
    async recording(size: Partial<RecordingSize> & { deviceKey?: string; startTimestamp?: number } = {}) {
      return insertRecording(server.store.db, org.orgId, {
        mediaKey: `${unique('cam')}/1700000000_cam.mp4`,
        startTimestamp: size.startTimestamp ?? 1_700_000_000,
        deviceKey: size.deviceKey ?? null,
        frameCount: size.frameCount === undefined ? 60 : size.frameCount,
        width: size.width === undefined ? 1280 : size.width,
        height: size.height === undefined ? 720 : size.height,
      });
    },
    async postRun(recording: Recording, body: object, token = org.token) {
      const res = await postJson(`${server.url}/detections`, { ...body, mediaKey: recording.mediaKey }, bearer(token));
      expect([200, 201], JSON.stringify(res.body)).toContain(res.status);
      return res;
    },
    evaluate(body: unknown, token = org.token) {
      return postJson(`${server.url}/evaluations`, body, bearer(token));
    },
    get(path: string, token = org.token) {
      return getJson(`${server.url}${path}`, bearer(token));
    },
    remove(id: string, token = org.token) {
      return getJson(`${server.url}/evaluations/${encodeURIComponent(id)}`, bearer(token), 'DELETE');
    },
  };
}

const sizeOf = (r: Recording): RecordingSize => ({ frameCount: r.frameCount, width: r.width, height: r.height });

describe.each(DIALECTS)('/evaluations on %s', (dialect) => {
  const it = tests[dialect];

  it('scores runs of one recording by runId: 201, the engine figures, the defaults', async ({ api }) => {
    const rec = await api.recording();
    const gt = groundTruth('gt', 'annotators');
    const pred = prediction(gt, 'model-a', 'yolo');
    await api.postRun(rec, gt);
    await api.postRun(rec, pred);
    const res = await api.evaluate({ mediaKey: rec.mediaKey, groundTruth: 'gt', predictions: ['model-a'] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get('location')).toBe(`/evaluations/${res.body.data.id}`);
    const data = res.body.data;
    expect(data).toMatchObject({
      status: 'complete',
      stale: false,
      parameters: { metrics: ['hota', 'clear', 'identity', 'coco'], iouThreshold: 0.5, classAgnostic: false },
    });
    expect(typeof data.completedAt).toBe('string');
    const expected = engineFigures([{ name: rec.mediaKey, gt, pred, size: sizeOf(rec) }]);
    const [result] = data.results;
    expect(result.prediction).toBe('model-a');
    expect(result.combined).toEqual(expected.combined);
    expect(result.classes).toEqual(expected.classes);
    expect(result.classAveraged).toEqual(expected.classAveraged);
    expect(result.detAveraged).toEqual(expected.detAveraged);
    expect(result.sequences).toEqual([
      {
        mediaKey: rec.mediaKey,
        groundTruthRunId: 'gt',
        predictionRunId: 'model-a',
        combined: expected.sequences[0]!.combined,
        classes: expected.sequences[0]!.classes,
      },
    ]);
    // Not a trivial case: the prediction misses a track, switches an identity and has a false positive.
    expect(result.combined.MOTA).toBeGreaterThan(0.3);
    expect(result.combined.MOTA).toBeLessThan(1);
    expect(result.combined.IDSW).toBeGreaterThan(0);
    expect(result.combined.CLR_FP).toBeGreaterThan(0);
    expect(Object.keys(result.classes).sort()).toEqual(['car', 'person']);

    // GET answers the same, and the per-frame counts only when asked.
    const again = await api.get(`/evaluations/${data.id}`);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(data);
    const withFrames = await api.get(`/evaluations/${data.id}?include=frames`);
    const frames = withFrames.body.data.results[0].sequences[0].frames as Array<Record<string, number>>;
    expect(frames).toHaveLength(60);
    expect(frames[3]).toEqual({ frame: 3, ...frames[3] });
    const sum = (k: string) => frames.reduce((s, f) => s + f[k]!, 0);
    expect([sum('tp'), sum('fp'), sum('fn'), sum('idsw')]).toEqual([
      result.combined.CLR_TP,
      result.combined.CLR_FP,
      result.combined.CLR_FN,
      result.combined.IDSW,
    ]);
  });

  it('takes metrics, iouThreshold and classAgnostic; analysisId stands for mediaKey', async ({ api }) => {
    const rec = await api.recording({ width: null, height: null, frameCount: null });
    const gt = groundTruth('gt', 'annotators', { seed: 3 });
    const pred = prediction(gt, 'p', 'yolo', { seed: 5 });
    await api.postRun(rec, gt);
    await api.postRun(rec, pred);
    const res = await api.evaluate({
      analysisId: rec.analysisId,
      groundTruth: 'gt',
      predictions: ['p'],
      metrics: ['clear', 'coco'],
      iouThreshold: 0.3,
      classAgnostic: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const expected = engineFigures([{ name: rec.mediaKey, gt, pred, size: sizeOf(rec) }], ['clear', 'coco', 'count'], {
      iouThreshold: 0.3,
      classAgnostic: true,
    });
    const [result] = res.body.data.results;
    expect(res.body.data.parameters).toEqual({ metrics: ['clear', 'coco'], iouThreshold: 0.3, classAgnostic: true });
    expect(result.combined).toEqual(expected.combined);
    expect(Object.keys(result.classes)).toEqual(['all']);
    expect(result.combined.HOTA).toBeUndefined();
    // No pixel size: the COCO area ranges are -1, the rest computed; no frameCount: the last frame decides.
    expect(result.combined.APs).toBe(-1);
    expect(result.combined.AP).toBeGreaterThan(0);
    expect(result.combined.CLR_Frames).toBe(expected.combined.CLR_Frames);
  });

  it('a prediction without labels is scored class-agnostically against several classes, and says so', async ({
    api,
  }) => {
    const rec = await api.recording();
    const gt = groundTruth('gt', 'annotators', { seed: 9 });
    const pred = prediction(gt, 'bare', 'tracker', { labels: false });
    await api.postRun(rec, gt);
    await api.postRun(rec, pred);
    const res = await api.evaluate({ mediaKey: rec.mediaKey, groundTruth: 'gt', predictions: ['bare'] });
    expect(res.status).toBe(201);
    const expected = engineFigures([{ name: rec.mediaKey, gt, pred, size: sizeOf(rec) }], undefined, {
      classAgnostic: true,
    });
    expect(res.body.data.parameters.classAgnostic).toBe(true);
    expect(res.body.data.results[0].combined).toEqual(expected.combined);
  });

  it('selectors pick the newest run per recording across recordings; a recording without one scores empty', async ({
    api,
  }) => {
    const device = unique('dev');
    const recs = [
      await api.recording({ deviceKey: device, startTimestamp: 1_600_000_000 }),
      await api.recording({ deviceKey: device, startTimestamp: 1_600_000_100, frameCount: 50 }),
      await api.recording({ deviceKey: device, startTimestamp: 1_600_000_200 }),
    ];
    const gtName = unique('truth');
    const gts = recs.map((_r, i) => groundTruth(`gt-${i}`, gtName, { seed: 20 + i }));
    for (const [i, r] of recs.entries()) await api.postRun(r, gts[i]!);
    // Two versions of the model on the first two recordings; the newer post of 2.0 wins on the first.
    const older = prediction(gts[0]!, 'y-old', 'yolo', { seed: 1 }, '2.0');
    const newer = prediction(gts[0]!, 'y-new', 'yolo', { seed: 2 }, '2.0');
    const v1 = prediction(gts[0]!, 'y-v1', 'yolo', { seed: 3 }, '1.0');
    await api.postRun(recs[0]!, older);
    await api.postRun(recs[0]!, newer);
    await api.postRun(recs[0]!, v1);
    const second = prediction(gts[1]!, 'y-2', 'yolo', { seed: 4 }, '2.0');
    await api.postRun(recs[1]!, second);

    const expected = engineFigures([
      { name: recs[0]!.mediaKey, gt: gts[0]!, pred: newer, size: sizeOf(recs[0]!) },
      { name: recs[1]!.mediaKey, gt: gts[1]!, pred: second, size: sizeOf(recs[1]!) },
      { name: recs[2]!.mediaKey, gt: gts[2]!, pred: null, size: sizeOf(recs[2]!) },
    ]);
    type Seq = {
      mediaKey: string;
      groundTruthRunId: string;
      predictionRunId: string | null;
      combined: Record<string, number>;
    };
    const check = (body: {
      data: { results: Array<{ prediction: unknown; combined: unknown; classes: unknown; sequences: Seq[] }> };
    }) => {
      const [result] = body.data.results;
      expect(result!.prediction).toEqual({ sourceName: 'yolo', sourceVersion: '2.0' });
      expect(result!.sequences.map((s) => [s.mediaKey, s.groundTruthRunId, s.predictionRunId])).toEqual([
        [recs[0]!.mediaKey, 'gt-0', 'y-new'],
        [recs[1]!.mediaKey, 'gt-1', 'y-2'],
        [recs[2]!.mediaKey, 'gt-2', null],
      ]);
      expect(result!.combined).toEqual(expected.combined);
      expect(result!.classes).toEqual(expected.classes);
      expect(result!.sequences[2]!.combined.CLR_TP).toBe(0);
      expect(result!.sequences[2]!.combined.CLR_FN).toBeGreaterThan(0);
    };
    const selectors = {
      groundTruth: { sourceName: gtName },
      predictions: [{ sourceName: 'yolo', sourceVersion: '2.0' }],
    };
    const byKeys = await api.evaluate({ ...selectors, recordings: { mediaKeys: recs.map((r) => r.mediaKey) } });
    expect(byKeys.status, JSON.stringify(byKeys.body)).toBe(201);
    check(byKeys.body);
    const byDevice = await api.evaluate({
      ...selectors,
      recordings: { device, from: 1_600_000_000, to: '2020-09-13T12:30:00Z' },
    });
    expect(byDevice.status, JSON.stringify(byDevice.body)).toBe(201);
    check(byDevice.body);
    // Left out: every recording of the organisation with a ground-truth run of that name (these three only).
    const all = await api.evaluate(selectors);
    expect(all.status).toBe(201);
    check(all.body);
    // Without a version, the newest yolo run of any version: y-v1 on the first recording.
    const anyVersion = await api.evaluate({
      groundTruth: { sourceName: gtName },
      predictions: [{ sourceName: 'yolo' }],
    });
    expect(anyVersion.body.data.results[0].sequences[0].predictionRunId).toBe('y-v1');
    // A named recording without a ground-truth run is 404; a filter skips it.
    const bare = await api.recording({ deviceKey: device, startTimestamp: 1_600_000_300 });
    const named = await api.evaluate({ ...selectors, recordings: { mediaKeys: [recs[0]!.mediaKey, bare.mediaKey] } });
    expect([named.status, named.body.code]).toEqual([404, 'run_not_found']);
    const filtered = await api.evaluate({ ...selectors, recordings: { device } });
    expect(filtered.body.data.results[0].sequences).toHaveLength(3);
    const none = await api.evaluate({
      groundTruth: { sourceName: unique('nobody') },
      predictions: [{ sourceName: 'yolo' }],
    });
    expect([none.status, none.body.code]).toEqual([404, 'run_not_found']);
  });

  it('stale turns true after the ground truth is replaced, and after a prediction is deleted', async ({
    api,
    server,
    org,
  }) => {
    const rec = await api.recording();
    const gt = groundTruth('gt', 'annotators');
    await api.postRun(rec, gt);
    await api.postRun(rec, prediction(gt, 'p1', 'yolo'));
    await api.postRun(rec, prediction(gt, 'p2', 'yolo', { seed: 99 }));
    const first = await api.evaluate({ mediaKey: rec.mediaKey, groundTruth: 'gt', predictions: ['p1'] });
    const second = await api.evaluate({ mediaKey: rec.mediaKey, groundTruth: 'gt', predictions: ['p2'] });
    expect([first.body.data.stale, second.body.data.stale]).toEqual([false, false]);
    const figures = first.body.data.results;

    await api.postRun(rec, groundTruth('gt', 'annotators', { seed: 8 }));
    const replaced = await api.get(`/evaluations/${first.body.data.id}`);
    expect(replaced.body.data.stale).toBe(true);
    // The figures are never recomputed.
    expect(replaced.body.data.results).toEqual(figures);

    const third = await api.evaluate({ mediaKey: rec.mediaKey, groundTruth: 'gt', predictions: ['p2'] });
    expect(third.body.data.stale).toBe(false);
    const del = await getJson(
      `${server.url}/detections/p2?mediaKey=${encodeURIComponent(rec.mediaKey)}`,
      bearer(org.token),
      'DELETE',
    );
    expect(del.status).toBe(200);
    expect((await api.get(`/evaluations/${third.body.data.id}`)).body.data.stale).toBe(true);
  });

  it("another organisation's evaluations, recordings and runs are 404", async ({ api, other, org }) => {
    const rec = await api.recording();
    const gt = groundTruth('gt', 'annotators');
    await api.postRun(rec, gt);
    await api.postRun(rec, prediction(gt, 'p', 'yolo'));
    const mine = await api.evaluate({ mediaKey: rec.mediaKey, groundTruth: 'gt', predictions: ['p'] });
    const id = mine.body.data.id;
    for (const res of [await api.get(`/evaluations/${id}`, other.token), await api.remove(id, other.token)])
      expect([res.status, res.body.code]).toEqual([404, 'evaluation_not_found']);
    const listed = await api.get(`/evaluations?mediaKey=${encodeURIComponent(rec.mediaKey)}`, other.token);
    expect(listed.body.data.evaluations).toEqual([]);
    const theirs = await api.evaluate({ mediaKey: rec.mediaKey, groundTruth: 'gt', predictions: ['p'] }, other.token);
    expect([theirs.status, theirs.body.code]).toEqual([404, 'recording_not_found']);
    const byRun = await api.evaluate({ groundTruth: 'gt', predictions: ['p'] }, other.token);
    expect([byRun.status, byRun.body.code]).toEqual([404, 'run_not_found']);
    const bySelector = await api.evaluate(
      { groundTruth: { sourceName: 'annotators' }, predictions: [{ sourceName: 'yolo' }] },
      other.token,
    );
    expect([bySelector.status, bySelector.body.code]).toEqual([404, 'run_not_found']);
    // Still there for its own organisation.
    expect((await api.get(`/evaluations/${id}`, org.token)).status).toBe(200);
  });

  it('a groundTruth runId on several recordings without mediaKey is 409 ambiguous_run_id', async ({ api }) => {
    const a = await api.recording();
    const b = await api.recording();
    const gt = groundTruth('twice', 'annotators');
    await api.postRun(a, gt);
    await api.postRun(b, gt);
    const res = await api.evaluate({ groundTruth: 'twice', predictions: ['x'] });
    expect([res.status, res.body.code]).toEqual([409, 'ambiguous_run_id']);
    expect(res.body.mediaKeys.sort()).toEqual([a.mediaKey, b.mediaKey].sort());
    // Alone on its recording, a groundTruth runId names it; a missing prediction runId is 404.
    const once = groundTruth(unique('once'), 'annotators');
    await api.postRun(a, once);
    const ok = await api.evaluate({ groundTruth: once.source.runId, predictions: [once.source.runId] });
    expect(ok.status).toBe(201);
    expect(ok.body.data.results[0].combined.HOTA).toBe(1);
    const missing = await api.evaluate({ groundTruth: once.source.runId, predictions: ['nope'] });
    expect([missing.status, missing.body.code]).toEqual([404, 'run_not_found']);
    const noRecording = await api.evaluate({ mediaKey: 'no/such.mp4', groundTruth: 'twice', predictions: ['x'] });
    expect([noRecording.status, noRecording.body.code]).toEqual([404, 'recording_not_found']);
  });

  it.for([
    ['not an object', [1], 'invalid_body', undefined],
    ['no groundTruth', { mediaKey: 'k', predictions: ['p'] }, 'invalid_field', 'groundTruth'],
    ['no prediction', { mediaKey: 'k', groundTruth: 'g', predictions: [] }, 'invalid_field', 'predictions'],
    ['predictions missing', { mediaKey: 'k', groundTruth: 'g' }, 'invalid_field', 'predictions'],
    [
      'more than 20 predictions',
      { mediaKey: 'k', groundTruth: 'g', predictions: Array.from({ length: 21 }, (_, i) => `p${i}`) },
      'invalid_field',
      'predictions',
    ],
    [
      'unknown metric',
      { mediaKey: 'k', groundTruth: 'g', predictions: ['p'], metrics: ['mota'] },
      'invalid_field',
      'metrics',
    ],
    [
      'threshold 0',
      { mediaKey: 'k', groundTruth: 'g', predictions: ['p'], iouThreshold: 0 },
      'invalid_field',
      'iouThreshold',
    ],
    [
      'threshold 1.5',
      { mediaKey: 'k', groundTruth: 'g', predictions: ['p'], iouThreshold: 1.5 },
      'invalid_field',
      'iouThreshold',
    ],
    [
      'threshold text',
      { mediaKey: 'k', groundTruth: 'g', predictions: ['p'], iouThreshold: '0.5' },
      'invalid_field',
      'iouThreshold',
    ],
    [
      'classAgnostic text',
      { mediaKey: 'k', groundTruth: 'g', predictions: ['p'], classAgnostic: 'yes' },
      'invalid_field',
      'classAgnostic',
    ],
    ['unknown field', { mediaKey: 'k', groundTruth: 'g', predictions: ['p'], iou: 0.3 }, 'invalid_field', 'iou'],
    [
      'selector without sourceName',
      { groundTruth: { sourceVersion: '1' }, predictions: [{ sourceName: 'y' }] },
      'invalid_field',
      'groundTruth.sourceName',
    ],
    [
      'runId across recordings',
      { groundTruth: { sourceName: 'g' }, predictions: ['p'] },
      'invalid_field',
      'predictions[0]',
    ],
    [
      'recordings with a runId',
      { groundTruth: 'g', predictions: ['p'], recordings: { mediaKeys: ['k'] } },
      'invalid_field',
      'recordings',
    ],
    [
      'recordings and mediaKey',
      {
        mediaKey: 'k',
        groundTruth: { sourceName: 'g' },
        predictions: [{ sourceName: 'y' }],
        recordings: { device: 'd' },
      },
      'invalid_field',
      'recordings',
    ],
    [
      'empty mediaKeys',
      { groundTruth: { sourceName: 'g' }, predictions: [{ sourceName: 'y' }], recordings: { mediaKeys: [] } },
      'invalid_field',
      'recordings.mediaKeys',
    ],
    [
      'from after to',
      { groundTruth: { sourceName: 'g' }, predictions: [{ sourceName: 'y' }], recordings: { from: 20, to: 10 } },
      'invalid_field',
      'from',
    ],
  ] as Array<[string, unknown, string, string | undefined]>)(
    'refuses a body with %s: 400 %s',
    async ([, body, code, field], { api }) => {
      const res = await api.evaluate(body);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe(code);
      if (field !== undefined) expect(res.body.field).toBe(field);
    },
  );

  it('lists newest first with cursor pagination, filtered by mediaKey; include takes frames only', async ({ api }) => {
    const rec = await api.recording();
    const gt = groundTruth('gt', 'annotators');
    await api.postRun(rec, gt);
    await api.postRun(rec, prediction(gt, 'p', 'yolo'));
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await api.evaluate({ mediaKey: rec.mediaKey, groundTruth: 'gt', predictions: ['p'] })).body.data.id);
    const key = encodeURIComponent(rec.mediaKey);
    const first = await api.get(`/evaluations?mediaKey=${key}&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.data.evaluations.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.data.evaluations[0].results[0].sequences[0].frames).toBeUndefined();
    expect(typeof first.body.data.nextCursor).toBe('string');
    const next = await api.get(`/evaluations?mediaKey=${key}&limit=2&cursor=${first.body.data.nextCursor}`);
    expect(next.body.data).toMatchObject({ nextCursor: null });
    expect(next.body.data.evaluations.map((e: { id: string }) => e.id)).toEqual([ids[0]]);
    const everything = await api.get('/evaluations?limit=500');
    expect(everything.body.data.evaluations.map((e: { id: string }) => e.id)).toEqual(expect.arrayContaining(ids));
    for (const bad of ['cursor=nope', 'limit=0', 'limit=501', 'mediaKey='])
      expect((await api.get(`/evaluations?${bad}`)).body.code).toBe('invalid_field');
    const include = await api.get(`/evaluations/${ids[0]}?include=tracks`);
    expect([include.status, include.body.code, include.body.field]).toEqual([400, 'invalid_field', 'include']);
    expect((await api.get('/evaluations/nope')).body.code).toBe('evaluation_not_found');
  });

  it('any role posts and reads; owner, admin, editor and tokens delete, a viewer is 403', async ({ api, org }) => {
    const rec = await api.recording();
    const gt = groundTruth('gt', 'annotators');
    await api.postRun(rec, gt);
    const made: Record<string, string> = {};
    for (const role of ['viewer', 'editor', 'admin', 'owner'] as const) {
      const res = await api.evaluate(
        { mediaKey: rec.mediaKey, groundTruth: 'gt', predictions: ['gt'] },
        org.sessions[role],
      );
      expect(res.status).toBe(201);
      made[role] = res.body.data.id;
      expect((await api.get(`/evaluations/${made[role]}`, org.sessions.viewer)).status).toBe(200);
    }
    const token = await api.evaluate({ mediaKey: rec.mediaKey, groundTruth: 'gt', predictions: ['gt'] });
    const denied = await api.remove(made.viewer!, org.sessions.viewer);
    expect([denied.status, denied.body.code]).toEqual([403, 'forbidden']);
    for (const [id, who] of [
      [made.viewer!, org.sessions.editor],
      [made.editor!, org.sessions.admin],
      [made.admin!, org.sessions.owner],
      [token.body.data.id, org.token],
    ] as const) {
      const res = await api.remove(id, who);
      expect([res.status, res.body.data]).toEqual([200, { id, deleted: true }]);
      expect((await api.get(`/evaluations/${id}`)).status).toBe(404);
      expect((await api.remove(id, who)).status).toBe(404);
    }
    expect((await api.get(`/evaluations/${made.owner}`)).status).toBe(200);
    const anonymous = await api.evaluate({ mediaKey: rec.mediaKey, groundTruth: 'gt', predictions: ['gt'] }, '');
    expect(anonymous.status).toBe(401);
  });
});

describe.each(DIALECTS)('/evaluations past EVALUATION_SYNC_MS on %s', (dialect) => {
  const it = asyncTests[dialect];

  it('answers 202 running with Location, and the work finishes in the background', async ({ api }) => {
    const rec = await api.recording();
    const gt = groundTruth('gt', 'annotators');
    const pred = prediction(gt, 'p', 'yolo');
    await api.postRun(rec, gt);
    await api.postRun(rec, pred);
    const res = await api.evaluate({ mediaKey: rec.mediaKey, groundTruth: 'gt', predictions: ['p'] });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const id = res.body.data.id;
    expect(res.headers.get('location')).toBe(`/evaluations/${id}`);
    expect(res.body.data).toMatchObject({ status: 'running', completedAt: null, results: [], stale: false });
    const listed = await api.get(`/evaluations?mediaKey=${encodeURIComponent(rec.mediaKey)}`);
    expect(listed.body.data.evaluations[0].id).toBe(id);
    let polled = res.body.data;
    const deadline = Date.now() + 15_000;
    while (polled.status === 'running' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      polled = (await api.get(res.headers.get('location')!)).body.data;
    }
    expect(polled.status, polled.error).toBe('complete');
    const expected = engineFigures([{ name: rec.mediaKey, gt, pred, size: sizeOf(rec) }]);
    expect(polled.results[0].combined).toEqual(expected.combined);
  });
});
