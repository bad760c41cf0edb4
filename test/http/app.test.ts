import { describe, expect } from 'vitest';
import { serverTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { getJson } from '../support/server.js';
import { rawExchange } from '../support/raw-http.js';

const tests = serverTests();

describe.each(DIALECTS)('app basics on %s', (dialect) => {
  const it = tests[dialect].extend('rawRequest', ({ server }) => async (request: string) => {
    const [head, body] = (await rawExchange(server.url, request)).split('\r\n\r\n');
    return { head: head!, body: JSON.parse(body!) as Record<string, unknown> };
  });

  it('answers health with the dialect', async ({ server }) => {
    const res = await getJson(`${server.url}/api/health`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ status: 'ok', database: dialect });
  });

  it('echoes any ASCII X-Request-Id back unchanged, and replaces one with a control character, a byte past ASCII or over 256 characters', async ({
    server,
    rawRequest,
  }) => {
    for (const id of [
      'abc-123',
      'a/b',
      'a+b=',
      '{6f1c2a9e-3b7d-4c51-9a0e-2f8d6b4c1e73}',
      'has space',
      'x'.repeat(256),
    ]) {
      const ok = await fetch(`${server.url}/api/health`, { headers: { 'x-request-id': id } });
      expect(ok.headers.get('x-request-id')).toBe(id);
    }
    // Bytes past ASCII would not go back as they came: a new id instead.
    const utf8 = await rawRequest(
      'GET /api/health HTTP/1.1\r\nHost: x\r\nX-Request-Id: café\r\nConnection: close\r\n\r\n',
    );
    expect(utf8.head).toMatch(/x-request-id: [A-Za-z0-9_-]{8}-[0-9a-z]+\r\n/i);
    const long = await fetch(`${server.url}/api/health`, { headers: { 'x-request-id': 'x'.repeat(257) } });
    expect(long.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9_-]{8}-[0-9a-z]+$/);
    const bad = await fetch(`${server.url}/api/health`, { headers: { 'x-request-id': 'a b\tc' } });
    const generated = bad.headers.get('x-request-id');
    expect(generated).toMatch(/^[A-Za-z0-9_-]{8}-[0-9a-z]+$/);
    const again = await fetch(`${server.url}/api/health`);
    expect(again.headers.get('x-request-id')).not.toBe(generated);
  });

  it('sends API-Version on every response, the pinned one when known', async ({ server }) => {
    const plain = await fetch(`${server.url}/api/health`);
    expect(plain.headers.get('api-version')).toBe('2026-01-01');
    const pinned = await fetch(`${server.url}/api/health`, {
      headers: { accept: 'application/json; version=2026-01-01' },
    });
    expect(pinned.status).toBe(200);
    expect(pinned.headers.get('api-version')).toBe('2026-01-01');
  });

  it('answers 406 problem+json for an unknown pinned version', async ({ server }) => {
    const res = await fetch(`${server.url}/api/health`, {
      headers: { accept: 'application/json; version=1999-01-01' },
    });
    expect(res.status).toBe(406);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body = await res.json();
    expect(body).toMatchObject({ status: 406, code: 'unsupported_api_version', supportedVersions: ['2026-01-01'] });
  });

  it('takes the first known version when the Accept header pins several, and 406 only when it knows none', async ({
    server,
  }) => {
    const several = await fetch(`${server.url}/api/health`, {
      headers: { accept: 'application/json; version=2099-01-01, application/json; version=2026-01-01' },
    });
    expect([several.status, several.headers.get('api-version')]).toEqual([200, '2026-01-01']);
    const none = await fetch(`${server.url}/api/health`, {
      headers: { accept: 'application/json; version=2099-01-01, application/json; version=1999-01-01' },
    });
    expect(none.status).toBe(406);
    expect((await none.json()).detail).toContain('2099-01-01');
  });

  it('takes an unpinned JSON alternative as the latest version, and ignores ranges with q=0', async ({ server }) => {
    const cases: Array<[string | string[], number]> = [
      ['application/json; version=2099-01-01, application/json', 200],
      [['application/json; version=2099-01-01', 'application/json'], 200],
      ['application/json; version=2099-01-01; q=0.5, application/json;q=1', 200],
      ['application/json; version=2099-01-01, */*;q=0.1', 200],
      ['application/json; version=2099-01-01, application/json;q=0', 406],
      ['application/json; version=2026-01-01;q=0, application/json; version=2099-01-01', 406],
      ['application/json; version=2099-01-01, text/html', 406],
    ];
    for (const [accept, status] of cases) {
      const headers = new Headers();
      for (const value of [accept].flat()) headers.append('accept', value);
      const res = await fetch(`${server.url}/api/health`, { headers });
      expect([accept, res.status, res.headers.get('api-version')]).toEqual([accept, status, '2026-01-01']);
    }
  });

  it('answers an expectation other than 100-continue with 417 problem+json', async ({ rawRequest }) => {
    const { head, body } = await rawRequest(
      'GET /api/health HTTP/1.1\r\nHost: x\r\nExpect: foo\r\nX-Request-Id: trace-417\r\n\r\n',
    );
    expect(head).toMatch(/^HTTP\/1\.1 417 /);
    expect(head).toMatch(/x-request-id: trace-417/i);
    expect(head).toMatch(/content-type: application\/problem\+json/i);
    expect(body).toMatchObject({ status: 417, code: 'bad_request' });
  });

  it('answers 400 invalid_field to a query whose percent-encoding is broken, instead of looking up "%ZZ"', async ({
    server,
  }) => {
    for (const query of ['mediaKey=%ZZ', 'mediaKey=%FF', 'mediaKey=a%2']) {
      const res = await fetch(`${server.url}/detections?${query}`, { headers: { 'x-request-id': 'bad-query-1' } });
      expect([query, res.status, (await res.json()).code]).toEqual([query, 400, 'invalid_field']);
      expect([res.headers.get('api-version'), res.headers.get('x-request-id')]).toEqual(['2026-01-01', 'bad-query-1']);
    }
  });

  it('answers 415 to a body in a content coding on a route that decodes none', async ({ server }) => {
    const res = await fetch(`${server.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-request-id': 'coded-1' },
      body: '{}',
    });
    expect([res.status, (await res.json()).code]).toEqual([415, 'unsupported_media_type']);
    expect([res.headers.get('api-version'), res.headers.get('x-request-id')]).toEqual(['2026-01-01', 'coded-1']);
    const identity = await fetch(`${server.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
      body: '{"username":"u","password":"p"}',
    });
    expect(identity.status).toBe(401);
  });

  it('answers unknown routes with a problem', async ({ server }) => {
    const res = await getJson(`${server.url}/nope`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('route_not_found');
  });

  it('answers a path with broken percent-encoding with a problem and the usual headers', async ({ server }) => {
    for (const path of ['/detections/%ZZ', '/detections/%E0%A4%A']) {
      const res = await fetch(`${server.url}${path}`, { headers: { 'x-request-id': 'bad-url-1' } });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.headers.get('api-version')).toBe('2026-01-01');
      expect(res.headers.get('x-request-id')).toBe('bad-url-1');
      expect(await res.json()).toMatchObject({
        status: 400,
        code: 'bad_request',
        type: expect.any(String),
        title: 'Bad Request',
        detail: expect.any(String),
      });
    }
  });

  it('answers 405 with Allow for a real path and a wrong method, and 404 only where no method answers', async ({
    server,
  }) => {
    const cases: Array<[string, string, string]> = [
      ['POST', '/api/storage/signed?a=x', 'GET, HEAD, OPTIONS'], // OPTIONS: CORS preflights
      ['DELETE', '/api/storage', 'GET, HEAD'],
      ['GET', '/login', 'POST'],
      ['PUT', '/detections/run-1', 'GET, HEAD, PATCH, DELETE'],
      ['PATCH', '/recordings/alice/1700000000_cam1.mp4', 'GET, HEAD, DELETE'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await fetch(`${server.url}${path}`, { method });
      expect([method, path, res.status, res.headers.get('allow')]).toEqual([method, path, 405, allow]);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await res.json()).toMatchObject({ status: 405, code: 'method_not_allowed', allow: allow.split(', ') });
    }
    const missing = await fetch(`${server.url}/no/such/path`, { method: 'POST' });
    expect([missing.status, (await missing.json()).code]).toEqual([404, 'route_not_found']);
    // A route that takes GET but finds no file there (Swagger UI's static files): 404, not "GET is not allowed".
    for (const method of ['GET', 'HEAD']) {
      const file = await fetch(`${server.url}/docs/static/nope.js`, { method });
      expect([method, file.status, file.headers.get('content-type')]).toEqual([
        method,
        404,
        expect.stringMatching(/^application\/problem\+json/),
      ]);
    }
    const post = await fetch(`${server.url}/docs/static/nope.js`, { method: 'POST' });
    expect(post.status).toBe(405);
  });

  it("answers an HTTP/1.1 request without Host with a 400 problem (Node's own answer had no body)", async ({
    rawRequest,
  }) => {
    const { head, body } = await rawRequest('GET /api/health HTTP/1.1\r\nX-Request-Id: no-host\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head).toMatch(/content-type: application\/problem\+json/i);
    expect(head).toMatch(/x-request-id: no-host/i);
    expect(head).toMatch(/api-version: 2026-01-01/i);
    expect(body).toMatchObject({ status: 400, code: 'bad_request' });
    // One Host that is a host, on every route (the storage routes build URLs from it; the others must refuse too).
    for (const [hosts, status] of [
      [['a b/c'], 400],
      [['x', 'y'], 400],
      [['x', 'x'], 400],
      [['[::1]:8080'], 200],
      [['example.com:80'], 200],
      [[''], 200],
    ] as const) {
      const lines = hosts.map((h) => `Host: ${h}\r\n`).join('');
      const res = await rawRequest(
        `GET /api/health HTTP/1.1\r\n${lines}X-Request-Id: host-check\r\nConnection: close\r\n\r\n`,
      );
      expect([hosts, res.head.split('\r\n')[0]]).toEqual([
        hosts,
        expect.stringMatching(new RegExp(`^HTTP/1\\.1 ${status} `)),
      ]);
      if (status === 400) expect(res.body).toMatchObject({ status: 400, code: 'bad_request' });
    }
    // HTTP/1.0 has no Host requirement.
    const old = await rawRequest('GET /api/health HTTP/1.0\r\n\r\n');
    expect(old.head).toMatch(/^HTTP\/1\.1 200 /);
  });

  it("answers a request Node's HTTP parser refuses (DEL in a header value) with a problem", async ({ rawRequest }) => {
    const { head, body } = await rawRequest(
      'GET /api/health HTTP/1.1\r\nHost: x\r\nX-Request-Id: refused-1\r\nX-Other: a\x7fb\r\n\r\n',
    );
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head).toMatch(/content-type: application\/problem\+json/i);
    // No request object exists, yet the client's id comes back (the log has no line to match it with).
    expect(head).toMatch(/x-request-id: refused-1\r\n/i);
    expect(body).toMatchObject({ status: 400, code: 'bad_request' });
    // A broken chunked body: the headers were fine, the parser refuses what follows.
    const chunked = await rawRequest(
      'POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nX-Request-Id: bad-chunk\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    );
    expect(chunked.head).toMatch(/^HTTP\/1\.1 400 /);
    expect(chunked.body).toMatchObject({ status: 400, code: 'bad_request', title: 'Bad Request' });
    // Headers over Node's limit: a titled 431, with an id of its own.
    const huge = await rawRequest(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(huge.head).toMatch(/^HTTP\/1\.1 431 /);
    expect(huge.head).toMatch(/x-request-id: \S+/i);
    expect(huge.body).toMatchObject({
      status: 431,
      code: 'headers_too_large',
      title: 'Request Header Fields Too Large',
    });
  });

  it('answers a control character in a storage filename header with invalid_filename, as in a bulk body', async ({
    rawRequest,
  }) => {
    // A bare CR or LF is refused by the parser under another name (a line ending it did not expect).
    for (const c of ['\x7f', '\x01', '\x1b', '\r', '\n']) {
      const { head, body } = await rawRequest(
        `GET /api/storage HTTP/1.1\r\nHost: x\r\nX-Service-Storage-FileName: alice/a${c}b\r\nX-Service-Storage-Provider: disk\r\n\r\n`,
      );
      expect(head).toMatch(/^HTTP\/1\.1 400 /);
      expect(body, JSON.stringify(c)).toMatchObject({
        status: 400,
        code: 'invalid_filename',
        header: 'X-Service-Storage-FileName',
      });
    }
    // Another header's control character is still only bad HTTP.
    const other = await rawRequest(
      'GET /api/storage HTTP/1.1\r\nHost: x\r\nX-Service-Storage-FileName: alice/ok\r\nX-Service-Storage-Provider: d\x7fisk\r\n\r\n',
    );
    expect(other.body).toMatchObject({ status: 400, code: 'bad_request' });
  });

  it('serves the OpenAPI document at /docs', async ({ server }) => {
    const res = await getJson(`${server.url}/docs/json`);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/login', '/detections', '/detections/{runId}']),
    );
    // Errors are documented as problems; a mediaKey route has a named parameter, not OpenAPI-invalid `{*}`.
    const post = res.body.paths['/detections'].post;
    expect(post.responses['400'].content['application/problem+json'].schema).toEqual({
      $ref: '#/components/schemas/Problem',
    });
    expect(res.body.components.schemas.Problem.properties.code.type).toBe('string');
    expect(Object.keys(res.body.paths)).not.toContain('/recordings/{*}');
    expect(Object.keys(res.body.paths['/api/storage/signed'])).toEqual(expect.arrayContaining(['get', 'head']));
    expect(res.body.paths['/recordings/{key}'].get.parameters).toEqual([
      expect.objectContaining({ in: 'path', name: 'key', required: true }),
    ]);
    // The storage admin routes document their bodies and answers, without the doc-only member leaking.
    const create = res.body.paths['/api/storage/admin/accounts'].post;
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['name', 'defaultProvider']);
    expect(
      create.responses['201'].content['application/json'].schema.properties.data.properties.secretAccessKey.type,
    ).toBe('string');
    expect(
      res.body.paths['/api/storage/admin/providers'].get.responses['200'].content['application/json'].schema.properties
        .data.type,
    ).toBe('array');
    expect(res.body.paths['/api/storage/admin/accounts/{name}/rotate'].post.parameters).toEqual([
      expect.objectContaining({ in: 'path', name: 'name' }),
    ]);
    expect(JSON.stringify(res.body)).not.toContain('x-documented-responses');
  });
});
