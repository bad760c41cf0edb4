// /docs/json as a client generator reads it: every operation named, its credentials declared as security schemes,
// and its documented requests agreeing with what the server takes and refuses (checked over HTTP, both ways).
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect } from 'vitest';
import { extendEach, serverTest, storageTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { bearer } from '../support/server.js';
import { STORAGE_ENV } from '../storage/helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: walks an arbitrary (OpenAPI) JSON document
type Json = any;
const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head'];

function operationsOf(doc: Json): Array<{ key: string; op: Json }> {
  return Object.entries<Json>(doc.paths).flatMap(([path, ops]) =>
    Object.entries<Json>(ops)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
  );
}

/** Validates request bodies and query strings against what the document declares for an operation. */
function requestChecker(doc: Json) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i);
  ajv.addFormat('uri', true);
  // Schemas that `$ref` #/components/schemas resolve against the whole document.
  ajv.addSchema(doc, 'openapi.json');
  const at = (key: string) => {
    const [method, path] = key.split(' ') as [string, string];
    const op = doc.paths[path]?.[method.toLowerCase()];
    if (!op) throw new Error(`${key} is not documented`);
    return op;
  };
  return {
    body(key: string, body: unknown): boolean {
      const schema = at(key).requestBody?.content?.['application/json']?.schema;
      if (!schema) throw new Error(`${key} documents no JSON body`);
      const [method, path] = key.split(' ') as [string, string];
      const parts = ['paths', path, method.toLowerCase(), 'requestBody', 'content', 'application/json', 'schema'];
      const pointer = parts.map((part) => encodeURIComponent(part.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
      return ajv.validate({ $ref: `openapi.json#/${pointer}` }, body) as boolean;
    },
    query(key: string, query: Record<string, string>): boolean {
      const params = (at(key).parameters ?? []).filter((p: Json) => p.in === 'query');
      if (Object.keys(query).some((name) => !params.some((p: Json) => p.name === name))) return false;
      return params.every((p: Json) =>
        query[p.name] === undefined
          ? !p.required
          : ajv.validate(
              p.schema,
              p.schema.type === 'integer' && /^\d+$/.test(query[p.name]!) ? Number(query[p.name]) : query[p.name],
            ),
      );
    },
  };
}

// `doc` is the served document.
const documentTest = serverTest('sqlite', { env: STORAGE_ENV }).extend(
  'doc',
  { scope: 'file' },
  async ({ server }): Promise<Json> => (await fetch(`${server.url}/docs/json`)).json(),
);
// `check` holds the served document's request schemas; `fx` is a storage account (storageTests).
const requestTests = extendEach(storageTests({ env: STORAGE_ENV }), (test) =>
  test.extend('check', { scope: 'file' }, async ({ server }) =>
    requestChecker(await (await fetch(`${server.url}/docs/json`)).json()),
  ),
);

describe('the OpenAPI document', () => {
  const it = documentTest;

  it('names every operation with a unique operationId, and offers a server to call', ({ doc }) => {
    const ops = operationsOf(doc);
    expect(ops.length).toBeGreaterThanOrEqual(26);
    const unnamed = ops.filter(({ op }) => typeof op.operationId !== 'string').map(({ key }) => key);
    expect(unnamed).toEqual([]);
    const ids = ops.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it("declares the storage account's headers as security schemes, not as parameters", ({ doc }) => {
    expect(doc.components.securitySchemes).toMatchObject({
      storageAccessKey: { type: 'apiKey', in: 'header', name: 'X-Service-Storage-AccessKey' },
      storageSecret: { type: 'apiKey', in: 'header', name: 'X-Service-Storage-SecretAccessKey' },
    });
    for (const key of ['GET /api/storage', 'POST /api/storage/bulk']) {
      const op = operationsOf(doc).find((o) => o.key === key)!.op;
      expect(op.security, key).toEqual([{ storageAccessKey: [], storageSecret: [] }]);
      const names = (op.parameters ?? []).map((p: Json) => p.name.toLowerCase());
      expect(names, key).not.toContain('x-service-storage-accesskey');
      expect(names, key).not.toContain('x-service-storage-secretaccesskey');
    }
  });

  it('says which operations need no credentials at all', ({ doc }) => {
    const open = operationsOf(doc)
      .filter(({ op }) => Array.isArray(op.security) && op.security.length === 0)
      .map(({ key }) => key)
      .sort();
    expect(open).toEqual([
      'GET /api/health',
      'GET /api/health/live',
      'GET /api/health/ready',
      'GET /api/storage/signed',
      'GET /api/storage/signed/validate',
      'GET /invitations/{token}',
      'HEAD /api/storage/signed',
      'POST /invitations/{token}',
      'POST /login',
    ]);
    const undeclared = operationsOf(doc)
      .filter(({ op }) => op.security === undefined)
      .map(({ key }) => key);
    expect(undeclared).toEqual([]);
  });

  it('documents the body of every operation that reads one, and the filters of the recording list', ({ doc }) => {
    const withoutBody = [
      'POST /logout',
      'POST /api/storage/admin/accounts/{name}/rotate',
      'POST /detections/{runId}/revisions/{revision}/restore',
    ];
    const missing = operationsOf(doc)
      .filter(({ key, op }) => /^(POST|PATCH|PUT) /.test(key) && !withoutBody.includes(key) && !op.requestBody)
      .map(({ key }) => key);
    expect(missing).toEqual([]);
    const list = operationsOf(doc).find((o) => o.key === 'GET /recordings')!.op;
    expect(list.parameters.map((p: Json) => p.name).sort()).toEqual([
      'cursor',
      'device',
      'from',
      'hasDetections',
      'label',
      'limit',
      'to',
    ]);
    const runs = operationsOf(doc).find((o) => o.key === 'GET /detections')!.op;
    expect(runs.parameters.find((p: Json) => p.name === 'mediaKey')).toMatchObject({ required: true });
  });

  it('describes every success answer (no "Default Response")', ({ doc }) => {
    const vague = operationsOf(doc).flatMap(({ key, op }) =>
      Object.entries<Json>(op.responses)
        .filter(([, r]) => r.description === 'Default Response')
        .map(([status]) => `${key} ${status}`),
    );
    expect(vague).toEqual([]);
  });
});

describe.each(DIALECTS)('documented requests agree with the server (%s)', (dialect) => {
  const it = requestTests[dialect]
    .extend(
      'send',
      ({ server }) =>
        (method: string, path: string, body: unknown, headers: Record<string, string>) =>
          fetch(`${server.url}${path}`, {
            method,
            headers: { 'content-type': 'application/json', ...headers },
            body: JSON.stringify(body),
          }),
    )
    /** The document's verdict and the server's, side by side: valid ⇔ a 2xx answer. */
    .extend('agree', ({ check }) => async (key: string, body: unknown, res: Response) => {
      const verdict = check.body(key, body);
      await res.arrayBuffer();
      return { body: JSON.stringify(body).slice(0, 120), documented: verdict, accepted: res.ok };
    });

  it('POST /detections', async ({ org, send, agree, check }) => {
    const run = (
      extra: Record<string, unknown> = {},
      tracks: unknown = [{ id: 1, label: 'person', boxes: [{ frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] }],
    ) => ({
      mediaKey: org.recording.mediaKey,
      schemaVersion: '1.0',
      coordinateSpace: 'normalized',
      source: { runId: `r-${Math.random().toString(36).slice(2)}` },
      tracks,
      ...extra,
    });
    const cases = [
      run(),
      {
        ...run({ coordinateSpace: 'pixel', media: { width: 1000, height: 500 } }),
        tracks: [{ id: 'a', boxes: [{ frame: 0, x1: 100, y1: 50, x2: 300, y2: 250 }] }],
      },
      run({}, [
        {
          id: 1,
          boxes: [
            { frame: -1, x: 0.1, y: 0.1, w: 0.2, h: 0.2 },
            { frame: 1, x: 0.1, y: 0.1, w: 0.2, h: 0.2 },
          ],
        },
      ]),
      run({}, []),
      run({}, [{ id: 1, boxes: [] }]),
      run({ source: { runId: 'a/b' } }),
      run({ schemaVersion: 'v1' }),
      run({ coordinateSpace: 'pixel', media: { width: 0, height: 500 } }),
    ];
    const results = [];
    for (const body of cases)
      results.push(await agree('POST /detections', body, await send('POST', '/detections', body, bearer(org.token))));
    expect(results.filter((r) => r.documented !== r.accepted)).toEqual([]);
    expect(results.map((r) => r.accepted)).toEqual([true, true, true, false, false, false, false, false]);
    // "mediaKey or analysisId" is the one rule the server keeps and the schema only states: as a required-only anyOf
    // it would make generated clients type the body as unknown.
    const untargeted = { ...run(), mediaKey: undefined };
    const refused = await send('POST', '/detections', untargeted, bearer(org.token));
    expect(await refused.json()).toMatchObject({ status: 400, code: 'target_missing' });
    expect(check.body('POST /detections', untargeted)).toBe(true);
  });

  it('POST /recordings and POST /recordings/search', async ({ org, send, agree }) => {
    const results = [];
    for (const body of [
      { mediaKey: `doc/1700000000_${dialect}.mp4`, width: 640, height: 360 },
      { mediaKey: 'doc/1700000001_x.mp4', width: 0 },
      { mediaKey: '' },
    ]) {
      results.push(await agree('POST /recordings', body, await send('POST', '/recordings', body, bearer(org.token))));
    }
    for (const body of [
      { region: { x: 0, y: 0, w: 1, h: 1 }, limit: 500, from: '2023-01-01T00:00:00Z' },
      { region: { x: 0, y: 0, w: 1, h: 1 }, limit: 501 },
      {
        region: {
          points: [
            { x: 0, y: 0 },
            { x: 1, y: 0 },
          ],
        },
      },
    ]) {
      results.push(
        await agree('POST /recordings/search', body, await send('POST', '/recordings/search', body, bearer(org.token))),
      );
    }
    expect(results.filter((r) => r.documented !== r.accepted)).toEqual([]);
    expect(results.map((r) => r.accepted)).toEqual([true, false, false, true, false, false]);
  });

  it('POST /api/storage/bulk', async ({ fx, send, agree }) => {
    const results = [];
    for (const body of [
      [
        { filename: 'alice/a.mp4', uriExpiryTime: '1h30m' },
        { filename: 'alice/b.mp4', uriExpiryTime: 604800 },
      ],
      [{ fileName: 'alice/a.mp4' }],
      [{ filename: '' }],
      [{ filename: 'alice/a.mp4', uriExpiryTime: 0 }],
      [{ filename: 'alice/a.mp4', uriExpiryTime: '1x' }],
    ]) {
      results.push(
        await agree('POST /api/storage/bulk', body, await send('POST', '/api/storage/bulk', body, fx.headers())),
      );
    }
    expect(results.filter((r) => r.documented !== r.accepted)).toEqual([]);
    expect(results.map((r) => r.accepted)).toEqual([true, false, false, false, false]);
  });

  it('GET /detections and GET /recordings query strings', async ({ server, org, check }) => {
    const results: Array<{ key: string; query: Record<string, string>; documented: boolean; accepted: boolean }> = [];
    const probe = async (key: string, path: string, query: Record<string, string>) => {
      const res = await fetch(`${server.url}${path}?${new URLSearchParams(query)}`, { headers: bearer(org.token) });
      await res.arrayBuffer();
      results.push({ key, query, documented: check.query(key, query), accepted: res.ok });
    };
    await probe('GET /detections', '/detections', { mediaKey: org.recording.mediaKey });
    await probe('GET /detections', '/detections', { mediaKey: org.recording.mediaKey, include: 'tracks' });
    await probe('GET /detections', '/detections', {});
    await probe('GET /detections', '/detections', { mediaKey: org.recording.mediaKey, include: 'track' });
    await probe('GET /recordings', '/recordings', { limit: '500', hasDetections: 'true' });
    await probe('GET /recordings', '/recordings', { limit: '501' });
    await probe('GET /recordings', '/recordings', { limit: '0' });
    expect(results.filter((r) => r.documented !== r.accepted)).toEqual([]);
    expect(results.map((r) => r.accepted)).toEqual([true, true, false, false, true, false, false]);
  });
});
