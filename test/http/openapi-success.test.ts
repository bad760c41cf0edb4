// Every success answer of these routes, made for real, must match what /docs/json documents for its status: the
// routes write their JSON by hand (no serializer), so nothing else keeps the document true.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { describe, expect } from 'vitest';
import { extendEach, storageTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { bearer } from '../support/server.js';
import { STORAGE_ENV, getUrl, writeObject } from '../storage/helpers.js';

/** The operations whose success answers were missing from the document, with the statuses they answer. */
const SUCCESS: Record<string, string[]> = {
  'GET /api/health': ['200'],
  'POST /logout': ['200'],
  'GET /detections': ['200'],
  'GET /detections/{runId}': ['200'],
  'DELETE /detections/{runId}': ['200'],
  'POST /recordings': ['201', '200'],
  'GET /recordings': ['200'],
  'GET /recordings/{key}': ['200'],
  'DELETE /recordings/{key}': ['200'],
  'POST /recordings/events': ['201', '200'],
  'POST /recordings/search': ['200'],
  'GET /api/storage/signed': ['200', '206', '304'],
  'HEAD /api/storage/signed': ['200', '206', '304'],
};

// biome-ignore lint/suspicious/noExplicitAny: walks an arbitrary (OpenAPI) JSON document
type Json = any;

/** JSON pointer segment, as a URI fragment. */
const segment = (s: string) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'));
const pointer = (...parts: string[]) => `openapi.json#/${parts.map(segment).join('/')}`;

/**
 * Objects that list their properties and say nothing of others are closed, in a copy of the document used only
 * here: a member the server sends but the document leaves out fails too. Objects that admit more say so.
 */
function closeObjects(schema: Json): void {
  if (Array.isArray(schema)) {
    schema.forEach(closeObjects);
    return;
  }
  if (typeof schema !== 'object' || schema === null) return;
  if (schema.properties && schema.additionalProperties === undefined) schema.additionalProperties = false;
  for (const key of ['properties', 'patternProperties', '$defs'])
    Object.values(schema[key] ?? {}).forEach(closeObjects);
  for (const key of ['items', 'additionalProperties', 'not', 'if', 'then', 'else']) closeObjects(schema[key]);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) closeObjects(schema[key]);
}

function validatorOf(doc: Json): Ajv2020 {
  const copy = structuredClone(doc);
  for (const ops of Object.values<Json>(copy.paths)) {
    for (const op of Object.values<Json>(ops)) {
      for (const response of Object.values<Json>(op.responses ?? {})) {
        for (const media of Object.values<Json>(response.content ?? {})) closeObjects(media.schema);
      }
    }
  }
  Object.values(copy.components?.schemas ?? {}).forEach(closeObjects);
  // strict: false, as the document holds OpenAPI members beside the schemas; `$ref`s to #/components resolve
  // against the whole document, and `nullable` (OpenAPI 3.0) is a keyword Ajv knows.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i);
  ajv.addFormat('binary', true);
  ajv.addSchema(copy, 'openapi.json');
  return ajv;
}

// fx's 'disk' holds a video and an empty object (written before the file's first test); `doc` is the served document
// and `ajv` its validator.
const tests = extendEach(storageTests({ env: { ...STORAGE_ENV, STORAGE_SIGNING: 'true' } }), (test) =>
  test
    .extend('objects', { scope: 'file', auto: true }, ({ fx }) => {
      writeObject(fx.root, 'alice/1700000000_cam1.mp4', Buffer.alloc(1000, 7));
      writeObject(fx.root, 'alice/empty.bin', '');
      return ['alice/1700000000_cam1.mp4', 'alice/empty.bin'];
    })
    .extend(
      'doc',
      { scope: 'file' },
      async ({ server }): Promise<Json> => (await fetch(`${server.url}/docs/json`)).json(),
    )
    .extend('ajv', { scope: 'file' }, ({ doc }) => validatorOf(doc)),
);

describe.each(DIALECTS)('documented success answers on %s', (dialect) => {
  const checked = new Map<string, Set<string>>();
  const q = encodeURIComponent;

  const it = tests[dialect]
    .extend('documented', ({ doc, ajv }) => {
      function schemaAt(ref: string): ValidateFunction {
        const validate = ajv.getSchema(ref);
        if (!validate) throw new Error(`no schema at ${ref}`);
        return validate;
      }

      /** The answer checked against its operation's documented response: status, headers, media type and body. */
      async function documented(method: string, path: string, res: Response): Promise<Json> {
        const operation = `${method} ${path}`;
        const status = String(res.status);
        const op = doc.paths[path]?.[method.toLowerCase()];
        expect(op, `${operation} is not in the document`).toBeDefined();
        const response = op.responses[status];
        expect(response, `${operation} answered ${status}, which the document does not list`).toBeDefined();
        for (const name of Object.keys(response.headers ?? {})) {
          const value = res.headers.get(name);
          expect(value, `${operation} ${status}: header ${name}`).not.toBeNull();
          const validate = schemaAt(
            pointer('paths', path, method.toLowerCase(), 'responses', status, 'headers', name, 'schema'),
          );
          expect(validate(value), `${operation} ${status}: ${name}: ${value} ${ajv.errorsText(validate.errors)}`).toBe(
            true,
          );
        }
        const bytes = Buffer.from(await res.arrayBuffer());
        if (!checked.has(operation)) checked.set(operation, new Set());
        checked.get(operation)!.add(status);
        if (!response.content) {
          expect(bytes.length, `${operation} ${status} has a body the document does not`).toBe(0);
          return undefined;
        }
        const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
        const media = Object.keys(response.content).find((m) => m === type || m === '*/*');
        expect(media, `${operation} ${status}: Content-Type ${type} is not documented`).toBeDefined();
        if (media !== 'application/json') return bytes;
        const body = JSON.parse(bytes.toString('utf8'));
        const validate = schemaAt(
          pointer('paths', path, method.toLowerCase(), 'responses', status, 'content', media, 'schema'),
        );
        expect(
          validate(body),
          `${operation} ${status}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 2000)}`,
        ).toBe(true);
        return body;
      }

      return documented;
    })
    .extend(
      'call',
      ({ server, org }) =>
        (method: string, url: string, token = org.token, body?: unknown) =>
          fetch(`${server.url}${url}`, {
            method,
            headers: bearer(token, body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          }),
    );

  const recordingKey = 'doc/1700000100_cam1.mp4';
  const bigKey = 'doc/1700000200_cam2.mp4';

  it('GET /api/health', async ({ server, documented }) => {
    const body = await documented('GET', '/api/health', await fetch(`${server.url}/api/health`));
    expect(body.data.database).toBe(dialect);
  });

  it('POST /recordings: 201 registered, 200 the same body again; nulls where nothing was sent', async ({
    org,
    documented,
    call,
  }) => {
    const full = {
      mediaKey: recordingKey,
      deviceKey: 'cam1',
      provider: 'minio',
      width: 1920,
      height: 1080,
      fps: 29.97,
      frameCount: 600,
      durationMs: 20020.02,
    };
    expect(
      (await documented('POST', '/recordings', await call('POST', '/recordings', org.token, full))).data.mediaKey,
    ).toBe(recordingKey);
    await documented('POST', '/recordings', await call('POST', '/recordings', org.token, full));
    const bare = await documented(
      'POST',
      '/recordings',
      await call('POST', '/recordings', org.token, { mediaKey: bigKey }),
    );
    expect(bare.data.deviceKey).toBeNull();
    expect(checked.get('POST /recordings')).toEqual(new Set(['201', '200']));
  });

  it('POST /recordings/events: 201, 200 already registered, 200 ignored', async ({ org, documented, call }) => {
    const event = (key: string) => ({
      source: 'minio-eu',
      payload: { key, fileSize: 1, metadata: { 'event-timestamp': '1700000300', productid: 'p-1' } },
    });
    await documented(
      'POST',
      '/recordings/events',
      await call('POST', '/recordings/events', org.token, event('doc/1700000300_cam3.mp4')),
    );
    await documented(
      'POST',
      '/recordings/events',
      await call('POST', '/recordings/events', org.token, event('doc/1700000300_cam3.mp4')),
    );
    const ignored = await documented(
      'POST',
      '/recordings/events',
      await call('POST', '/recordings/events', org.token, event('doc/1700000300_cam3_thumbnail.jpg')),
    );
    expect(ignored.data.ignored).toBe(true);
    expect(checked.get('POST /recordings/events')).toEqual(new Set(['201', '200']));
  });

  it('GET /detections, GET and DELETE /detections/{runId}: summaries, full runs, streamed runs', async ({
    org,
    documented,
    call,
  }) => {
    // Every optional member of spec §4.7 present: name, pixel media with an extra member, categories, source extras,
    // a numeric track id, track and box label/classId/confidence/color/timestampMs.
    const rich = {
      mediaKey: recordingKey,
      schemaVersion: '1.0',
      name: 'layer a',
      task: 'detection',
      coordinateSpace: 'pixel',
      source: { kind: 'model', name: 'yolo', version: '8', runId: 'doc-rich', inputWidth: 640 },
      media: { width: 1000, height: 500, fps: 25, frameCount: 1000, codec: 'h264' },
      categories: [{ id: 0, name: 'person' }],
      tracks: [
        {
          id: 7,
          label: 'person',
          classId: 0,
          confidence: 0.9,
          color: '#ff0000',
          boxes: [
            {
              frame: 3,
              x1: 100,
              y1: 50,
              x2: 300,
              y2: 250,
              confidence: 0.8,
              timestampMs: 120,
              label: 'person',
              classId: 'p',
            },
            { frame: 1, x1: 100, y1: 50, x2: 300, y2: 250 },
          ],
        },
      ],
    };
    const bare = {
      mediaKey: recordingKey,
      schemaVersion: '1.0',
      coordinateSpace: 'normalized',
      source: {},
      tracks: [{ id: 'a', boxes: [{ frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] }],
    };
    const big = {
      mediaKey: bigKey,
      schemaVersion: '1.0',
      coordinateSpace: 'normalized',
      source: { runId: 'doc-big' },
      tracks: [
        {
          id: 'b',
          label: 'car',
          boxes: Array.from({ length: 20_000 }, (_, frame) => ({
            frame,
            x: 0.25,
            y: 0.5,
            w: 0.125,
            h: 0.25,
            confidence: 0.5,
          })),
        },
      ],
    };
    for (const run of [rich, bare, big]) expect((await call('POST', '/detections', org.token, run)).status).toBe(201);

    const summaries = await documented(
      'GET',
      '/detections',
      await call('GET', `/detections?mediaKey=${q(recordingKey)}`),
    );
    expect(summaries.data.runs).toHaveLength(2);
    expect(summaries.data.runs[0]).not.toHaveProperty('tracks');
    const full = await documented(
      'GET',
      '/detections',
      await call('GET', `/detections?mediaKey=${q(recordingKey)}&include=tracks`),
    );
    expect(full.data.runs[0].tracks[0].id).toBe('7');
    // 20 000 boxes and more are streamed (run-json-stream.ts), by id and in the list.
    const streamedList = await documented(
      'GET',
      '/detections',
      await call('GET', `/detections?mediaKey=${q(bigKey)}&include=tracks`),
    );
    expect(streamedList.data.runs[0].tracks[0].boxes).toHaveLength(20_000);
    const streamed = await documented('GET', '/detections/{runId}', await call('GET', '/detections/doc-big'));
    expect(streamed.data.boxesStored).toBe(20_000);
    const one = await documented(
      'GET',
      '/detections/{runId}',
      await call('GET', `/detections/doc-rich?mediaKey=${q(recordingKey)}`),
    );
    expect(one.data.source.inputWidth).toBe(640);
    const generated = summaries.data.runs.find((r: Json) => r.runId !== 'doc-rich').runId;
    const gone = await documented('DELETE', '/detections/{runId}', await call('DELETE', `/detections/${q(generated)}`));
    expect(gone.data.deleted).toBe(true);
  });

  it('GET /recordings: a page with a cursor, and the last page', async ({ documented, call }) => {
    const first = await documented('GET', '/recordings', await call('GET', '/recordings?limit=2'));
    expect(first.data.nextCursor).toEqual(expect.any(String));
    const rest = await documented(
      'GET',
      '/recordings',
      await call('GET', `/recordings?limit=500&cursor=${q(first.data.nextCursor)}`),
    );
    expect(rest.data.nextCursor).toBeNull();
  });

  it('GET /recordings/{key}: by id, by mediaKey as segments and %2F-encoded', async ({ documented, call }) => {
    const byKey = await documented('GET', '/recordings/{key}', await call('GET', `/recordings/${recordingKey}`));
    expect(byKey.data.runs.length).toBeGreaterThan(0);
    await documented('GET', '/recordings/{key}', await call('GET', `/recordings/${q(recordingKey)}`));
    await documented('GET', '/recordings/{key}', await call('GET', `/recordings/${byKey.data.id}`));
  });

  it('POST /recordings/search: a page with a cursor, and the last page', async ({ org, documented, call }) => {
    const first = await documented(
      'POST',
      '/recordings/search',
      await call('POST', '/recordings/search', org.token, { region: { x: 0, y: 0, w: 1, h: 1 }, limit: 1 }),
    );
    expect(first.data.recordings[0].matches.length).toBeGreaterThan(0);
    expect(first.data.nextCursor).toEqual(expect.any(String));
    const rest = await documented(
      'POST',
      '/recordings/search',
      await call('POST', '/recordings/search', org.token, {
        region: { x: 0, y: 0, w: 1, h: 1 },
        cursor: first.data.nextCursor,
      }),
    );
    expect(rest.data.nextCursor).toBeNull();
  });

  it('DELETE /recordings/{key}', async ({ documented, call }) => {
    const gone = await documented('DELETE', '/recordings/{key}', await call('DELETE', `/recordings/${bigKey}`));
    expect(gone.data).toMatchObject({ deleted: true, runsDeleted: 1 });
  });

  it('POST /logout', async ({ org, documented, call }) => {
    await documented('POST', '/logout', await call('POST', '/logout', org.sessions.viewer));
  });

  it('GET and HEAD /api/storage/signed: 200, 206, 304, and an empty object', async ({ server, fx, documented }) => {
    const urlFor = async (filename: string) => {
      const res = await getUrl(
        server,
        fx.headers({ 'x-service-storage-filename': filename, 'x-service-storage-provider': 'disk' }),
      );
      expect(res.status).toBe(200);
      return res.body.data as string;
    };
    const url = await urlFor('alice/1700000000_cam1.mp4');
    const path = '/api/storage/signed';
    const whole = await documented('GET', path, await fetch(url));
    expect(whole.length).toBe(1000);
    expect((await documented('GET', path, await fetch(url, { headers: { range: 'bytes=10-19' } }))).length).toBe(10);
    const etag = (await fetch(url, { method: 'HEAD' })).headers.get('etag')!;
    await documented('GET', path, await fetch(url, { headers: { 'if-none-match': etag } }));
    await documented('HEAD', path, await fetch(url, { method: 'HEAD' }));
    await documented('HEAD', path, await fetch(url, { method: 'HEAD', headers: { range: 'bytes=10-19' } }));
    await documented('HEAD', path, await fetch(url, { method: 'HEAD', headers: { 'if-none-match': etag } }));
    // No bytes to send: 200 with an empty body (spec §5 headers still there).
    await documented('GET', path, await fetch(await urlFor('alice/empty.bin')));
    expect(checked.get(`GET ${path}`)).toEqual(new Set(['200', '206', '304']));
    expect(checked.get(`HEAD ${path}`)).toEqual(new Set(['200', '206', '304']));
  });

  it('documents every success status of the listed operations, and each was answered for real above', ({ doc }) => {
    for (const [operation, statuses] of Object.entries(SUCCESS)) {
      const [method, path] = operation.split(' ') as [string, string];
      const responses = doc.paths[path]?.[method.toLowerCase()]?.responses ?? {};
      for (const status of statuses)
        expect(responses[status], `${operation} does not document ${status}`).toBeDefined();
      expect([...(checked.get(operation) ?? [])].sort(), operation).toEqual([...statuses].sort());
    }
    expect(JSON.stringify(doc)).not.toContain('x-documented-responses');
  });
});
