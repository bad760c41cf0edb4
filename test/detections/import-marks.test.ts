// Over real HTTP, on both dialects: untracked rows as one-box tracks, the `interpolated` mark stored and returned
// (import and POST /detections), and the import's rejection list in file order, streamed when long.
import { strToU8, zipSync } from 'fflate';
import { describe, expect } from 'vitest';
import { serverTests } from '../support/fixtures.js';
import { bearer, getJson, postJson } from '../support/server.js';
import { DIALECTS } from '../support/store.js';

const tests = serverTests();

const zipOf = (files: Record<string, string>) =>
  zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)])), {
    mtime: new Date(2000, 0, 1),
  });

const run = (runId: string, boxes: unknown[]) => ({
  schemaVersion: '1.0',
  source: { kind: 'editor', runId },
  coordinateSpace: 'normalized',
  tracks: [{ id: '1', label: 'car', boxes }],
});

describe.each(DIALECTS)('import marks on %s', (dialect) => {
  const it = tests[dialect]
    .extend(
      'importFile',
      ({ server, org }) =>
        async (format: string, type: string, body: Uint8Array | string, query: Record<string, string> = {}) => {
          const params = new URLSearchParams({ format, mediaKey: org.recording.mediaKey, ...query });
          const res = await fetch(`${server.url}/detections/import?${params}`, {
            method: 'POST',
            headers: bearer(org.token, { 'content-type': type }),
            body: typeof body === 'string' ? body : Buffer.from(body),
          });
          return { status: res.status, body: await res.json() };
        },
    )
    .extend('tracksOf', ({ server, org }) => async (runId: string) => {
      const res = await getJson(`${server.url}/detections/${encodeURIComponent(runId)}`, bearer(org.token));
      expect(res.status).toBe(200);
      return res.body.data.tracks as Array<{ id: string; boxes: Array<Record<string, unknown>> }>;
    })
    .extend(
      'post',
      ({ server, org }) =>
        (body: Record<string, unknown>) =>
          postJson(`${server.url}/detections`, { ...body, mediaKey: org.recording.mediaKey }, bearer(org.token)),
    );

  it('YOLO rows without a track id: one-box tracks with ids the file does not use, counted in a warning', async ({
    importFile,
    tracksOf,
  }) => {
    const zip = zipOf({
      'labels/v_1.txt': '0 0.2 0.3 0.2 0.4\n0 0.5 0.5 0.1 0.1 0.75\n0 0.5 0.5 0.1 0.1 4\n',
      'labels/v_2.txt': '0 0.5 0.5 0.1 0.1 0.5 untracked-1\n',
    });
    const res = await importFile('yolo', 'application/zip', zip, { runId: 'untracked' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.tracksStored).toBe(4);
    expect(res.body.warnings).toEqual([expect.objectContaining({ code: 'UNTRACKED_BOXES', count: 2 })]);
    const tracks = await tracksOf('untracked');
    expect(tracks.map((t) => [t.id, t.boxes.length])).toEqual([
      ['untracked-2', 1],
      ['untracked-3', 1],
      ['4', 1],
      ['untracked-1', 1],
    ]);
    expect(tracks[1]!.boxes[0]!.confidence).toBe(0.75);
  });

  it('supervision rows with an empty tracker_id and COCO annotations without track_id are stored', async ({
    importFile,
  }) => {
    const csv =
      'x_min,y_min,x_max,y_max,class_id,confidence,tracker_id,frame_index\n10,10,20,20,0,0.5,,0\n10,10,20,20,0,0.5,3,0\n';
    const a = await importFile('supervision-csv', 'text/csv', csv, { runId: 'sv-untracked' });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect([a.body.tracksStored, a.body.warnings[0].count]).toEqual([2, 1]);
    const coco = {
      images: [{ id: 1, frame_index: 0, width: 1000, height: 500 }],
      annotations: [
        { image_id: 1, bbox: [100, 50, 200, 200] },
        { image_id: 1, bbox: [10, 10, 20, 20] },
      ],
    };
    const b = await importFile('coco', 'application/json', JSON.stringify(coco), { runId: 'coco-untracked' });
    expect(b.status, JSON.stringify(b.body)).toBe(201);
    expect([b.body.tracksStored, b.body.warnings[0].code]).toEqual([2, 'UNTRACKED_BOXES']);
  });

  it('interpolation on import stores the mark; GET returns it; the export keeps it without being asked', async ({
    server,
    org,
    importFile,
    tracksOf,
  }) => {
    const mot = '1,7,100,50,200,200,0.9,-1,-1,-1\n4,7,130,50,200,200,0.8,-1,-1,-1\n';
    const res = await importFile('mot', 'text/plain', mot, { runId: 'filled', interpolate: 'true' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const boxes = (await tracksOf('filled'))[0]!.boxes;
    expect(boxes.map((b) => [b.frame, b.interpolated ?? false, b.confidence])).toEqual([
      [0, false, 0.9],
      [1, true, undefined],
      [2, true, undefined],
      [3, false, 0.8],
    ]);
    const cvat = await fetch(`${server.url}/detections/filled/export?format=cvat-video`, {
      headers: bearer(org.token),
    });
    const xml = await cvat.text();
    expect(xml.match(/<box frame="\d+" keyframe="\d"/g)).toEqual([
      '<box frame="0" keyframe="1"',
      '<box frame="1" keyframe="0"',
      '<box frame="2" keyframe="0"',
      '<box frame="3" keyframe="1"',
      '<box frame="4" keyframe="1"',
    ]);
    const json = await fetch(`${server.url}/detections/filled/export?format=sightline`, { headers: bearer(org.token) });
    const exported = JSON.parse(await json.text());
    expect(exported.tracks[0].boxes.filter((b: { interpolated?: true }) => b.interpolated).length).toBe(2);
  });

  it('POST /detections takes interpolated: true on a box and returns it; false is not stored', async ({
    post,
    tracksOf,
  }) => {
    const res = await post(
      run('marked', [
        { frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.2 },
        { frame: 2, x: 0.1, y: 0.1, w: 0.2, h: 0.2, interpolated: true, label: 'van' },
        { frame: 1, x: 0.1, y: 0.1, w: 0.2, h: 0.2, interpolated: true },
        { frame: 3, x: 0.1, y: 0.1, w: 0.2, h: 0.2, interpolated: false },
      ]),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const boxes = (await tracksOf('marked'))[0]!.boxes;
    expect(boxes.map((b) => [b.frame, b.interpolated, b.label])).toEqual([
      [0, undefined, undefined],
      [1, true, undefined],
      [2, true, 'van'],
      [3, undefined, undefined],
    ]);
    // A later box of the same frame replaces the earlier one, mark and all.
    const again = await post(
      run('marked', [
        { frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.2, interpolated: true },
        { frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.2 },
      ]),
    );
    expect(again.status).toBe(200);
    expect((await tracksOf('marked'))[0]!.boxes).toEqual([{ frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.2 }]);
  });

  it('interpolated that is not a boolean: 400 invalid_field, nothing stored', async ({ post, server, org }) => {
    for (const value of ['yes', 1, {}]) {
      const res = await post(run('bad-mark', [{ frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.2, interpolated: value }]));
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_field');
      expect(res.body.detail).toMatch(/interpolated/);
    }
    const get = await getJson(`${server.url}/detections/bad-mark`, bearer(org.token));
    expect(get.status).toBe(404);
  });

  it('the rejection list: every row with its position, in file order, streamed when long', async ({ importFile }) => {
    // Bad rows first and last, a box the validator refuses (negative width) in between, 12 000 unreadable rows.
    const rows = ['1,7,100,50,200,200,0.9,-1,-1,-1', 'x', '2,7,100,50,-5,200,0.9,-1,-1,-1'];
    for (let i = 0; i < 12_000; i++) rows.push(`${i + 3},7,100`);
    rows.push('9999,7,100,50,200,200,0.9,-1,-1,-1');
    const res = await importFile('mot', 'text/plain', `${rows.join('\n')}\n`, { runId: 'long-rejections' });
    expect(res.status).toBe(207);
    expect(res.body.boxesStored).toBe(2);
    const rejected = res.body.rejected as Array<Record<string, unknown>>;
    expect(rejected).toHaveLength(12_002);
    expect(rejected.slice(0, 3)).toEqual([
      { trackId: null, frame: null, reason: 'row_malformed', detail: expect.stringMatching(/1 columns/), line: 2 },
      { trackId: '7', frame: 1, reason: 'box_non_positive_dimensions', line: 3 },
      { trackId: null, frame: null, reason: 'row_malformed', detail: expect.stringMatching(/3 columns/), line: 4 },
    ]);
    expect(rejected.at(-1)).toMatchObject({ line: 12_003 });
    const lines = rejected.map((r) => r.line as number);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
  });
});
