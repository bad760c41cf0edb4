// /docs/json as client generators need it: resources and requests named in components.schemas and used by `$ref`,
// and every refusal an operation answers listed as its own status with the Problem schema, checked against the
// statuses the routes really answer over HTTP.
import { describe, expect } from 'vitest';
import { OPERATION_REFUSALS } from '../../src/http/openapi-errors.js';
import { insertRecording } from '../../src/recordings/queries.js';
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

function refsIn(value: Json, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (typeof value === 'object' && value !== null)
    for (const [key, member] of Object.entries(value)) {
      if (key === '$ref' && typeof member === 'string') found.push(member);
      else refsIn(member, found);
    }
  return found;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonSchema = (response: Json) => response?.content?.['application/json']?.schema;

const documentTest = serverTest('sqlite', { env: STORAGE_ENV }).extend(
  'doc',
  { scope: 'file' },
  async ({ server }): Promise<Json> => (await fetch(`${server.url}/docs/json`)).json(),
);

describe('named schemas', () => {
  const it = documentTest;

  it('components.schemas holds the resources and requests of every domain, by readable names', ({ doc }) => {
    const names = Object.keys(doc.components.schemas);
    expect(names).toEqual(
      expect.arrayContaining([
        'Problem',
        'DetectionRunRequest',
        'Track',
        'Box',
        'PostResult',
        'Rejection',
        'Warning',
        'Run',
        'RunSummary',
        'StoredTrack',
        'StoredBox',
        'Revision',
        'RunPatchRequest',
        'PatchResult',
        'ImportResult',
        'Recording',
        'RecordingRequest',
        'SearchRequest',
        'SearchResult',
        'EvaluationRequest',
        'Evaluation',
        'User',
        'AccessToken',
        'StorageAccount',
        'SignedUrlRequests',
      ]),
    );
    expect(names.filter((name) => /^def-\d+$/.test(name))).toEqual([]);
  });

  it('operations use them by $ref, and every $ref resolves', ({ doc }) => {
    const post = doc.paths['/detections'].post;
    expect(jsonSchema(post.requestBody)).toEqual(ref('DetectionRunRequest'));
    for (const status of ['200', '201', '207']) expect(jsonSchema(post.responses[status])).toEqual(ref('PostResult'));
    expect(jsonSchema(doc.paths['/detections/{runId}'].get.responses['200']).properties.data).toEqual(ref('Run'));
    expect(jsonSchema(doc.paths['/detections/{runId}'].patch.requestBody)).toEqual(ref('RunPatchRequest'));
    expect(doc.components.schemas.PostResult.properties.rejected.items).toEqual(ref('Rejection'));
    expect(doc.components.schemas.Track.properties.boxes.items).toEqual(ref('Box'));
    const dangling = refsIn(doc).filter((r) => {
      const name = r.replace('#/components/schemas/', '');
      return r === name || doc.components.schemas[name] === undefined;
    });
    expect(dangling).toEqual([]);
  });

  it('says the mediaKey / analysisId rule of POST /detections in words, not as a required-only anyOf', ({ doc }) => {
    const body = doc.components.schemas.DetectionRunRequest;
    expect(body.anyOf).toBeUndefined();
    expect(body.oneOf).toBeUndefined();
    expect(body.required).not.toContain('mediaKey');
    expect(body.description).toMatch(/mediaKey or analysisId.*target_missing/);
    expect(body.properties.mediaKey.description).toMatch(/One of mediaKey and analysisId is required/);
  });
});

describe('refusals', () => {
  const it = documentTest;

  it('every operation lists its refusals one status at a time, each a Problem, never a 4XX or 5XX range', ({ doc }) => {
    const ranges: string[] = [];
    const notProblems: string[] = [];
    for (const { key, op } of operationsOf(doc)) {
      for (const [status, response] of Object.entries<Json>(op.responses)) {
        if (!/^\d{3}$/.test(status)) ranges.push(`${key} ${status}`);
        else if (
          Number(status) >= 400 &&
          response.content?.['application/problem+json']?.schema?.$ref !== ref('Problem').$ref
        )
          notProblems.push(`${key} ${status}`);
      }
    }
    expect(ranges).toEqual([]);
    expect(notProblems).toEqual([]);
    expect(doc.components.schemas.Problem).toMatchObject({ required: ['type', 'title', 'status', 'detail', 'code'] });
  });

  it('the table of refusals names exactly the documented operations', ({ doc }) => {
    const documented = operationsOf(doc)
      .map(({ key }) => key)
      .sort();
    expect(Object.keys(OPERATION_REFUSALS).sort()).toEqual(documented);
  });

  it('POST /detections lists each status it answers, with the codes in the description', ({ doc }) => {
    const { responses } = doc.paths['/detections'].post;
    expect(Object.keys(responses)).toEqual(
      expect.arrayContaining(['200', '201', '207', '400', '401', '403', '404', '406', '413', '415']),
    );
    expect(responses['404'].description).toMatch(/recording_not_found/);
    expect(responses['400'].description).toMatch(/target_missing/);
    expect(responses['401'].description).toMatch(/unauthorized/);
  });
});

// Statuses the routes produce in their own tests, made again here: each must be declared by its operation.
const httpTests = extendEach(storageTests({ env: STORAGE_ENV }), (test) =>
  test.extend(
    'doc',
    { scope: 'file' },
    async ({ server }): Promise<Json> => (await fetch(`${server.url}/docs/json`)).json(),
  ),
);

interface Case {
  operation: string;
  status: number;
  send: () => Promise<Response>;
}

describe.each(DIALECTS)('each status a route answers is declared (%s)', (dialect) => {
  const it = httpTests[dialect];

  it('for a sample of routes, statuses made over HTTP', async ({ server, org, fx, doc }) => {
    const url = (path: string) => `${server.url}${path}`;
    const json = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(url(path), {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const run = (runId: string, mediaKey = org.recording.mediaKey, frame = 0) => ({
      mediaKey,
      schemaVersion: '1.0',
      coordinateSpace: 'normalized',
      source: { runId },
      tracks: [{ id: 1, label: 'person', boxes: [{ frame, x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] }],
    });
    const token = bearer(org.token);
    const viewer = bearer(org.sessions.viewer);
    const owner = bearer(org.sessions.owner);
    // The same runId on a second recording makes GET /detections/{runId} ambiguous without mediaKey.
    const second = await insertRecording(server.store.db, org.orgId, {
      mediaKey: `${org.recording.mediaKey}.second.mp4`,
      startTimestamp: 1_700_000_000,
    });
    const cases: Case[] = [
      { operation: 'POST /detections', status: 201, send: () => json('POST', '/detections', run('s-1'), token) },
      { operation: 'POST /detections', status: 200, send: () => json('POST', '/detections', run('s-1'), token) },
      {
        operation: 'POST /detections',
        status: 207,
        send: () =>
          json(
            'POST',
            '/detections',
            {
              ...run('s-2'),
              tracks: [
                {
                  id: 1,
                  boxes: [
                    { frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.2 },
                    { frame: -1, x: 0.1, y: 0.1, w: 0.2, h: 0.2 },
                  ],
                },
              ],
            },
            token,
          ),
      },
      {
        operation: 'POST /detections',
        status: 400,
        send: () => json('POST', '/detections', { ...run('s-3'), mediaKey: undefined }, token),
      },
      { operation: 'POST /detections', status: 401, send: () => json('POST', '/detections', run('s-3')) },
      { operation: 'POST /detections', status: 403, send: () => json('POST', '/detections', run('s-3'), viewer) },
      {
        operation: 'POST /detections',
        status: 404,
        send: () => json('POST', '/detections', run('s-3', 'no/such.mp4'), token),
      },
      {
        operation: 'POST /detections',
        status: 406,
        send: () =>
          json('POST', '/detections', run('s-3'), { ...token, accept: 'application/json; version=1999-01-01' }),
      },
      {
        operation: 'POST /detections',
        status: 415,
        send: () =>
          fetch(url('/detections'), {
            method: 'POST',
            headers: { ...token, 'content-type': 'text/plain' },
            body: JSON.stringify(run('s-3')),
          }),
      },
      {
        operation: 'POST /detections',
        status: 415,
        send: () =>
          fetch(url('/detections'), {
            method: 'POST',
            headers: { ...token, 'content-type': 'application/json', 'content-encoding': 'zstd' },
            body: 'x',
          }),
      },
      {
        operation: 'POST /detections',
        status: 201,
        send: () => json('POST', '/detections', run('s-1', second.mediaKey), token),
      },
      {
        operation: 'GET /detections/{runId}',
        status: 409,
        send: () => fetch(url('/detections/s-1'), { headers: token }),
      },
      {
        operation: 'GET /detections/{runId}',
        status: 404,
        send: () => fetch(url('/detections/none'), { headers: token }),
      },
      { operation: 'GET /detections', status: 400, send: () => fetch(url('/detections'), { headers: token }) },
      {
        operation: 'DELETE /detections/{runId}',
        status: 403,
        send: () => fetch(url('/detections/s-2'), { method: 'DELETE', headers: viewer }),
      },
      {
        operation: 'PATCH /detections/{runId}',
        status: 409,
        send: () => json('PATCH', `/detections/s-2`, { baseRevision: 9, tracks: { delete: [1] } }, token),
      },
      {
        operation: 'POST /detections/{runId}/revisions/{revision}/restore',
        status: 404,
        send: () => fetch(url('/detections/s-2/revisions/7/restore'), { method: 'POST', headers: token }),
      },
      {
        operation: 'POST /login',
        status: 401,
        send: () => json('POST', '/login', { username: 'nobody', password: 'wrong-password' }),
      },
      {
        operation: 'POST /login',
        status: 413,
        send: () => json('POST', '/login', { username: 'x'.repeat(20_000), password: 'p' }),
      },
      {
        operation: 'POST /recordings',
        status: 409,
        send: () => json('POST', '/recordings', { mediaKey: org.recording.mediaKey, startTimestamp: 1 }, token),
      },
      {
        operation: 'GET /recordings/{key}',
        status: 404,
        send: () => fetch(url('/recordings/no%2Fsuch.mp4'), { headers: token }),
      },
      {
        operation: 'POST /evaluations',
        status: 404,
        send: () =>
          json(
            'POST',
            '/evaluations',
            { mediaKey: org.recording.mediaKey, groundTruth: 'none', predictions: ['none-either'] },
            token,
          ),
      },
      {
        operation: 'GET /api/storage',
        status: 401,
        send: () =>
          fetch(url('/api/storage'), {
            headers: fx.headers({
              'x-service-storage-secretaccesskey': 'wrong',
              'x-service-storage-filename': 'a/b.mp4',
            }),
          }),
      },
      { operation: 'GET /api/storage', status: 400, send: () => fetch(url('/api/storage'), { headers: fx.headers() }) },
      {
        operation: 'POST /api/storage/bulk',
        status: 415,
        send: () =>
          fetch(url('/api/storage/bulk'), {
            method: 'POST',
            headers: { ...fx.headers(), 'content-type': 'text/plain' },
            body: '[]',
          }),
      },
      {
        operation: 'POST /admin/users',
        status: 409,
        send: () =>
          json(
            'POST',
            '/admin/users',
            { username: `owner-${org.name.slice(4)}`, role: 'viewer', password: 'long enough pw' },
            owner,
          ),
      },
      { operation: 'GET /admin/users', status: 403, send: () => fetch(url('/admin/users'), { headers: viewer }) },
      { operation: 'GET /invitations/{token}', status: 404, send: () => fetch(url('/invitations/nope')) },
      {
        operation: 'GET /api/health',
        status: 406,
        send: () => fetch(url('/api/health'), { headers: { accept: 'application/json; version=1999-01-01' } }),
      },
    ];
    const answered: Array<{ operation: string; expected: number; status: number; declared: boolean }> = [];
    for (const { operation, status, send } of cases) {
      const res = await send();
      await res.arrayBuffer();
      const [method, path] = operation.split(' ') as [string, string];
      const declared = doc.paths[path]?.[method.toLowerCase()]?.responses?.[String(res.status)] !== undefined;
      answered.push({ operation, expected: status, status: res.status, declared });
    }
    expect(answered.filter((a) => a.status !== a.expected)).toEqual([]);
    expect(answered.filter((a) => !a.declared)).toEqual([]);
  });
});
