// POST /detections/import and GET /detections/{runId}/export over real HTTP, on both dialects.
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { describe, expect } from 'vitest';
import { formatNames, formats } from '../../src/formats/registry.js';
import { serverTests } from '../support/fixtures.js';
import { bearer, getJson } from '../support/server.js';
import { DIALECTS } from '../support/store.js';
import { fixture } from '../formats/helpers.js';

const tests = serverTests();

/** The run every round trip starts from: two tracks, labels with class numbers, a gap at frame 2. */
const seed = {
  schemaVersion: '1.0',
  source: { kind: 'model', name: 'tracker', runId: 'seed' },
  coordinateSpace: 'normalized',
  media: { width: 1000, height: 500 },
  tracks: [
    {
      id: '1',
      label: 'car',
      classId: 3,
      boxes: [
        { frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.4, confidence: 0.9 },
        { frame: 1, x: 0.12, y: 0.1, w: 0.2, h: 0.4, confidence: 0.8 },
        { frame: 3, x: 0.16, y: 0.1, w: 0.2, h: 0.4, confidence: 0.7 },
      ],
    },
    { id: '2', label: 'person', classId: 1, boxes: [{ frame: 1, x: 0.5, y: 0.2, w: 0.1, h: 0.3, confidence: 0.6 }] },
  ],
};

type Track = { id: string; boxes: Array<Record<string, number>> } & Record<string, unknown>;
/** Boxes to 9 significant digits: pixel formats give a stored value back within 1e-9. */
const rounded = (tracks: Track[]) =>
  tracks.map((t) => ({
    ...t,
    boxes: t.boxes.map((b) =>
      Object.fromEntries(Object.entries(b).map(([k, v]) => [k, typeof v === 'number' ? Number(v.toPrecision(9)) : v])),
    ),
  }));

describe.each(DIALECTS)('import and export on %s', (dialect) => {
  const it = tests[dialect]
    .extend(
      'importFile',
      ({ server, org }) =>
        async (
          format: string,
          body: Uint8Array | string,
          query: Record<string, string> = {},
          options: { token?: string; type?: string } = {},
        ) => {
          const params = new URLSearchParams({ format, mediaKey: org.recording.mediaKey, ...query });
          const type =
            options.type ?? formats[format as keyof typeof formats]?.contentType ?? 'application/octet-stream';
          const res = await fetch(`${server.url}/detections/import?${params}`, {
            method: 'POST',
            headers: bearer(options.token ?? org.token, { 'content-type': type }),
            body: typeof body === 'string' ? body : Buffer.from(body),
          });
          const text = await res.text();
          return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
        },
    )
    .extend(
      'exportFile',
      ({ server, org }) =>
        async (runId: string, format: string, query: Record<string, string> = {}, token = org.token) => {
          const params = new URLSearchParams({ format, ...query });
          const res = await fetch(`${server.url}/detections/${encodeURIComponent(runId)}/export?${params}`, {
            headers: bearer(token),
          });
          return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
        },
    )
    .extend(
      'tracksOf',
      ({ server, org }) =>
        async (runId: string) =>
          (await getJson(`${server.url}/detections/${encodeURIComponent(runId)}`, bearer(org.token))).body.data
            .tracks as Track[],
    )
    .extend(
      'runIds',
      ({ server, org }) =>
        async () =>
          (
            await getJson(
              `${server.url}/detections?mediaKey=${encodeURIComponent(org.recording.mediaKey)}`,
              bearer(org.token),
            )
          ).body.data.runs.map((r: { runId: string }) => r.runId) as string[],
    );

  it('imports the run JSON: 201, the file runId, the file source', async ({ importFile, tracksOf }) => {
    const res = await importFile('sightline', JSON.stringify(seed));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ runId: 'seed', tracksStored: 2, boxesStored: 4, rejected: [], warnings: [] });
    expect((await tracksOf('seed'))[0]!.boxes[2]).toEqual({
      frame: 3,
      x: 0.16,
      y: 0.1,
      w: 0.2,
      h: 0.4,
      confidence: 0.7,
    });
  });

  for (const format of formatNames) {
    it(`${format}: import (201), export, re-import give the same run`, async ({ importFile, exportFile, tracksOf }) => {
      await importFile('sightline', JSON.stringify(seed), { runId: `seed-${format}` });
      const file = await exportFile(`seed-${format}`, format);
      expect(file.status).toBe(200);
      const first = await importFile(format, file.bytes, { runId: `${format}-a` });
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      expect(first.body.boxesStored).toBe(4);
      const again = await exportFile(`${format}-a`, format);
      expect(again.status).toBe(200);
      const second = await importFile(format, again.bytes, { runId: `${format}-b` });
      expect(second.status, JSON.stringify(second.body)).toBe(201);
      const a = rounded(await tracksOf(`${format}-a`));
      expect(rounded(await tracksOf(`${format}-b`))).toEqual(a);
      // Track identity, frames and geometry survive every format.
      expect(a.map((t) => [t.id, t.boxes.map((b) => b.frame)])).toEqual([
        ['1', [0, 1, 3]],
        ['2', [1]],
      ]);
      expect(a[0]!.boxes[0]).toMatchObject({ x: 0.1, y: 0.1, w: 0.2, h: 0.4 });
    });
  }

  it('a gzip-compressed file is imported as the same file sent plain', async ({
    server,
    org,
    importFile,
    exportFile,
    tracksOf,
  }) => {
    await importFile('sightline', JSON.stringify(seed), { runId: 'seed-gz' });
    const { bytes } = await exportFile('seed-gz', 'mot');
    await importFile('mot', bytes, { runId: 'plain-mot', width: '1000', height: '500' });
    const params = new URLSearchParams({ format: 'mot', mediaKey: org.recording.mediaKey, runId: 'gzip-mot' });
    const res = await fetch(`${server.url}/detections/import?${params}&width=1000&height=500`, {
      method: 'POST',
      headers: bearer(org.token, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }),
      body: gzipSync(bytes),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await tracksOf('gzip-mot')).toEqual(await tracksOf('plain-mot'));
  });

  it('coco export: one image for every frame of the recording when the run has no frame count of its own', async ({
    importFile,
    exportFile,
    org,
  }) => {
    await importFile('mot', '1,1,100,50,80,120,0.9,-1,-1,-1\n3,1,104,50,80,120,0.8,-1,-1,-1\n', {
      runId: 'few-frames',
    });
    const coco = JSON.parse((await exportFile('few-frames', 'coco')).bytes.toString());
    expect(org.recording.frameCount).toBe(1000);
    expect(coco.images.length).toBe(1000);
    expect(coco.images[999]).toMatchObject({ id: 1000, frame_index: 999 });
  });

  it('rows that cannot be read: 207, each with its line, the rest stored', async ({ importFile, tracksOf }) => {
    const res = await importFile('mot', fixture('mot-malformed.txt'), {
      flavor: 'gt',
      runId: 'malformed',
      width: '1920',
      height: '1080',
    });
    expect(res.status).toBe(207);
    const rejected = res.body.rejected as Array<{ line: number; reason: string }>;
    const lines = rejected.map((r) => r.line);
    expect(lines).toEqual([...lines].sort((x, y) => x - y));
    expect(rejected.every((r) => typeof r.line === 'number')).toBe(true);
    expect(rejected.filter((r) => r.reason === 'row_malformed').length).toBeGreaterThan(0);
    expect(rejected.some((r) => r.reason === 'box_non_positive_dimensions' && r.line === 5)).toBe(true);
    // Nothing lost: every row of the file is stored, rejected, or overwritten by a later duplicate.
    const rows = fixture('mot-malformed.txt').toString().trim().split('\n').length;
    const duplicates = (res.body.warnings as Array<{ code: string; count: number }>).find(
      (w) => w.code === 'DUPLICATE_FRAME',
    );
    expect(res.body.boxesStored + rejected.length + (duplicates?.count ?? 0)).toBe(rows);
    const stored = await tracksOf('malformed');
    expect(stored.reduce((n, t) => n + t.boxes.length, 0)).toBe(res.body.boxesStored);
  });

  it('a file that cannot be read: 400 invalid_file with a position, nothing stored', async ({ importFile, runIds }) => {
    const before = await runIds();
    const res = await importFile('cvat-video', fixture('cvat-truncated.xml'), { runId: 'truncated' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('invalid_file');
    expect(res.body.line).toBeGreaterThan(1);
    const empty = await importFile('mot', '', { runId: 'empty' }, { type: 'text/plain' });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ code: 'invalid_file', line: 1 });
    expect(await runIds()).toEqual(before);
  });

  it('a file declared over 32 MiB: 413 from the header, before the body is sent', async ({ server, org }) => {
    const params = new URLSearchParams({ format: 'mot', mediaKey: org.recording.mediaKey });
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${server.url}/detections/import?${params}`, {
        method: 'POST',
        headers: bearer(org.token, { 'content-type': 'text/plain', 'content-length': String(40 * 1024 * 1024) }),
      });
      req.on('response', (res) => {
        res.resume();
        req.destroy();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(status).toBe(413);
  });

  it('a zip with an entry named ../x_1.txt: 400 invalid_file', async ({ importFile }) => {
    const zip = zipSync({ '../x_1.txt': new TextEncoder().encode('0 0.5 0.5 0.1 0.1 1\n') });
    const res = await importFile('yolo', zip, { runId: 'escape' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_file');
    expect(res.body.entry).toBeDefined();
  });

  it('an unknown format name: 400 invalid_field naming the formats', async ({ importFile, exportFile }) => {
    const res = await importFile('mot2', '1,1,1,1,1,1,1,-1,-1,-1\n', {}, { type: 'text/plain' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_field', field: 'format' });
    expect(res.body.detail).toMatch(/supervision-csv/);
    expect((await exportFile('seed', 'mot2')).status).toBe(400);
  });

  it('a content type the format is not taken as: 415', async ({ importFile }) => {
    const res = await importFile('mot', '1,1,1,1,1,1,1,-1,-1,-1\n', {}, { type: 'application/json' });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ code: 'unsupported_media_type', accepted: ['text/plain', 'text/csv'] });
    const latin = await importFile('mot', '1,1,1,1,1,1,1,-1,-1,-1\n', {}, { type: 'text/plain; charset=iso-8859-1' });
    expect(latin.status).toBe(415);
    const yolo = await importFile('yolo', 'x', {}, { type: 'text/plain' });
    expect(yolo.status).toBe(415);
  });

  it('a viewer may not import (403) and may export', async ({ importFile, exportFile, org }) => {
    await importFile('sightline', JSON.stringify(seed));
    const res = await importFile(
      'sightline',
      JSON.stringify(seed),
      { runId: 'by-viewer' },
      { token: org.sessions.viewer },
    );
    expect(res.status).toBe(403);
    expect((await exportFile('seed', 'mot', {}, org.sessions.viewer)).status).toBe(200);
    expect((await importFile('sightline', JSON.stringify(seed), {}, { token: 'nope' })).status).toBe(401);
  });

  it("another organisation's run: 404 on export, and no import into its recording", async ({
    importFile,
    exportFile,
    other,
  }) => {
    await importFile('sightline', JSON.stringify(seed));
    const res = await exportFile('seed', 'mot', {}, other.token);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.bytes.toString()).code).toBe('run_not_found');
    const into = await importFile('sightline', JSON.stringify(seed), { mediaKey: other.recording.mediaKey });
    expect(into.status).toBe(404);
    expect(into.body.code).toBe('recording_not_found');
  });

  it('the same file again without runId: the same run, 200', async ({ importFile }) => {
    const file = '1,7,100,50,200,200,0.9,-1,-1,-1\n2,7,110,50,200,200,0.8,-1,-1,-1\n';
    const first = await importFile('mot', file);
    expect(first.status).toBe(201);
    expect(first.body.runId).toMatch(/^mot-[0-9a-f]{32}$/);
    const second = await importFile('mot', file);
    expect(second.status).toBe(200);
    expect(second.body.runId).toBe(first.body.runId);
  });

  it('export: content type, attachment file name, the rows', async ({ importFile, exportFile }) => {
    await importFile('sightline', JSON.stringify(seed), { name: 'lobby cam' });
    const res = await exportFile('seed', 'mot');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="lobby_cam.txt"');
    expect(res.bytes.toString().split('\n')[0]).toBe('1,1,100,50,200,200,0.9,-1,-1,-1');
    const zip = await exportFile('seed', 'yolo');
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.headers.get('content-disposition')).toBe('attachment; filename="lobby_cam.zip"');
    expect(zip.bytes.subarray(0, 2).toString()).toBe('PK');
  });

  it('interpolation on export fills the missing frames, marked and without confidence', async ({
    importFile,
    exportFile,
  }) => {
    await importFile('sightline', JSON.stringify(seed));
    const res = await exportFile('seed', 'sightline', { interpolate: 'true' });
    const run = JSON.parse(res.bytes.toString());
    const boxes = run.tracks[0].boxes;
    expect(boxes.map((b: { frame: number }) => b.frame)).toEqual([0, 1, 2, 3]);
    expect(boxes[2]).toEqual({ frame: 2, x: 0.14, y: 0.1, w: 0.2, h: 0.4, interpolated: true });
    const cvat = (await exportFile('seed', 'cvat-video', { interpolate: 'true' })).bytes.toString();
    expect(cvat).toMatch(/<box frame="2" keyframe="0"/);
  });

  it('interpolation on import stores the filled frames', async ({ importFile, tracksOf }) => {
    const res = await importFile('sightline', JSON.stringify(seed), { runId: 'filled', interpolate: 'true' });
    expect(res.status).toBe(201);
    expect(res.body.boxesStored).toBe(5);
    expect((await tracksOf('filled'))[0]!.boxes.map((b) => b.frame)).toEqual([0, 1, 2, 3]);
  });

  it('a pixel file with no frame size anywhere: 400 media_required', async ({ server, org, importFile }) => {
    const { insertRecording } = await import('../../src/recordings/queries.js');
    const bare = await insertRecording(server.store.db, org.orgId, {
      mediaKey: `bare-${dialect}.mp4`,
      startTimestamp: 1_700_000_000,
    });
    const file = '1,7,100,50,200,200,0.9,-1,-1,-1\n';
    const res = await importFile('mot', file, { mediaKey: bare.mediaKey });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('media_required');
    const sized = await importFile('mot', file, { mediaKey: bare.mediaKey, width: '1000', height: '500' });
    expect(sized.status).toBe(201);
  });
});
