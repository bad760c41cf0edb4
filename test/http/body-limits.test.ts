// Bounded parsing: each route's body limit (413 before parsing), the nesting cap of every JSON body (400 before
// JSON.parse builds the nesting), and a malformed body's problem naming its line and column.
import { describe, expect } from 'vitest';
import { serverTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { bearer } from '../support/server.js';
import { rawExchange, streamBody } from '../support/raw-http.js';

const tests = serverTests();

/** `[[[…]]]` of `bytes` bytes. */
const nestedArrays = (bytes: number) => '['.repeat(bytes / 2) + ']'.repeat(bytes / 2);

/** CPU time (user + system, ms) this process spends on `fn`, the server's share included (it runs here). */
async function cpuMs<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const before = process.cpuUsage();
  const result = await fn();
  const used = process.cpuUsage(before);
  return { result, ms: (used.user + used.system) / 1000 };
}

async function post(url: string, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe.each(DIALECTS)('request bodies on %s', (dialect) => {
  const it = tests[dialect];

  it('a 1 MiB body of nested arrays to /login is 413 at once, for a few ms of CPU', async ({ server }) => {
    const body = nestedArrays(1024 * 1024);
    // Warm up the route (first-request compilation is not what is measured).
    await post(`${server.url}/login`, '{"username":"x","password":"y"}');
    const { result, ms } = await cpuMs(() => post(`${server.url}/login`, body));
    expect([result.status, result.body.code]).toEqual([413, 'payload_too_large']);
    // Parsed, it cost ~190 ms of event loop; refused from Content-Length it is the client's writing and little else.
    expect(ms).toBeLessThan(60);
  });

  it('the same body chunked (no Content-Length) is cut off at the limit: 413', async ({ server }) => {
    const { result, ms } = await cpuMs(() =>
      streamBody(`${server.url}/login`, {
        headers: { 'content-type': 'application/json' },
        total: 1024 * 1024,
        chunked: true,
      }),
    );
    expect(result.status).toBe(413);
    expect(ms).toBeLessThan(100);
  });

  it('answers 413 from Content-Length without waiting for the body', async ({ server }) => {
    const answer = await rawExchange(
      server.url,
      'POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\nConnection: close\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('"payload_too_large"');
  });

  it('keeps the other JSON routes to what they take', async ({ server, org }) => {
    const big = JSON.stringify({ mediaKey: 'a'.repeat(70 * 1024) });
    const other = await post(
      `${server.url}/api/storage/admin/accounts`,
      JSON.stringify({ name: 'x'.repeat(1100 * 1024) }),
      bearer(org.sessions.owner),
    );
    expect([other.status, other.body.code]).toEqual([413, 'payload_too_large']);
    const res = await post(`${server.url}/recordings`, big, bearer(org.token));
    expect([res.status, res.body.code]).toEqual([413, 'payload_too_large']);
  });

  it('refuses a deeply nested body that fits the limit with 400 malformed_json, before parsing it', async ({
    server,
    org,
  }) => {
    const body = `{"region":${nestedArrays(200 * 1024)}}`;
    await post(`${server.url}/recordings/search`, '{}', bearer(org.token));
    const { result, ms } = await cpuMs(() => post(`${server.url}/recordings/search`, body, bearer(org.token)));
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({
      code: 'malformed_json',
      reason: 'too_deep',
      maxDepth: 64,
      line: 1,
      column: 74,
    });
    expect(ms).toBeLessThan(60);
    // Sixty-four levels (the object and 63 arrays) are fine: the route then judges the content.
    const shallow = await post(`${server.url}/recordings/search`, `{"region":${nestedArrays(126)}}`, bearer(org.token));
    expect(shallow.body.code).not.toBe('malformed_json');
  });

  it('refuses a run nested deeper than any run with its own invalid_body, before JSON.parse', async ({
    server,
    org,
  }) => {
    // Deep inside a member a run has: members no run has are passed over unbuilt (run-members.ts), deep or not.
    const body = `{"mediaKey":"x","categories":${nestedArrays(1024 * 1024)}}`;
    const { result, ms } = await cpuMs(() => post(`${server.url}/detections`, body, bearer(org.token)));
    expect([result.status, result.body.code]).toEqual([400, 'invalid_body']);
    expect(ms).toBeLessThan(100);
  });

  it('says where a malformed body stops being JSON: line and column', async ({ server, org }) => {
    const login = await post(`${server.url}/login`, '{\n  "username": "a",\n  "password": }');
    expect(login.status).toBe(400);
    expect(login.body).toMatchObject({ code: 'malformed_json', line: 3, column: 15 });
    expect(login.body.detail).toMatch(/line 3, column 15/);
    const cut = await post(`${server.url}/recordings`, '{"mediaKey": "é', bearer(org.token));
    expect(cut.body).toMatchObject({ code: 'malformed_json', line: 1, column: 16 });
    expect(cut.body.detail).toMatch(/ends early/);
    const run = await post(`${server.url}/detections`, '{"mediaKey":"x",\n"tracks":[1,,2]}', bearer(org.token));
    expect(run.body).toMatchObject({ code: 'malformed_json', line: 2, column: 13 });
  });
});
