import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { extendEach, storageTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { changeAccount, enableProvider } from '../../src/storage/admin.js';
import { signedUrl } from '../../src/storage/url-token.js';
import { SIGNING_KEY, STORAGE_ENV, bulk, getUrl, seedStorage, writeObject } from './helpers.js';

/** An upstream standing in for an unreachable or failing backend: it answers what the test tells it to. */
function upstream(handler: http.RequestListener) {
  const server = http.createServer(handler);
  return new Promise<{ url: string; close(): Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}

const video = Buffer.alloc(300_000);
for (let i = 0; i < video.length; i++) video[i] = i % 251;

// fx's 'disk' holds a video and a text file under alice/, written before the file's first test.
const tests = extendEach(
  storageTests({ env: { ...STORAGE_ENV, STORAGE_SIGNING: 'true', STORAGE_PROVIDER_TIMEOUT_MS: '300' } }),
  (test) =>
    test.extend('objects', { scope: 'file', auto: true }, ({ fx }) => {
      writeObject(fx.root, 'alice/1700000000_cam1.mp4', video);
      writeObject(fx.root, 'alice/notes.txt', 'hello');
      return ['alice/1700000000_cam1.mp4', 'alice/notes.txt'];
    }),
);

describe.each(DIALECTS)('service-signed URLs on %s', (dialect) => {
  const it = tests[dialect].extend(
    'urlFor',
    ({ server, fx }) =>
      async (filename: string, provider = 'disk', expiry?: string): Promise<string> => {
        const res = await getUrl(
          server,
          fx.headers({
            'x-service-storage-filename': filename,
            'x-service-storage-provider': provider,
            ...(expiry ? { 'x-service-storage-uriexpirytime': expiry } : {}),
          }),
        );
        expect(res.status).toBe(200);
        return res.body.data;
      },
  );

  it('streams the object with its headers', async ({ urlFor }) => {
    const res = await fetch(await urlFor('alice/1700000000_cam1.mp4', 'disk', '1h'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('content-length')).toBe(String(video.length));
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+-[0-9a-f]+"$/);
    expect(res.headers.get('content-disposition')).toBe(
      `inline; filename="1700000000_cam1.mp4"; filename*=UTF-8''1700000000_cam1.mp4`,
    );
    expect(res.headers.get('last-modified')).toMatch(/GMT$/);
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(res.headers.get('cache-control') ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(3590);
    expect(maxAge).toBeLessThanOrEqual(3600);
    expect(Buffer.from(await res.arrayBuffer()).equals(video)).toBe(true);
  });

  it('never answers a Last-Modified later than its Date, and then takes no If-Range date', async ({ fx, urlFor }) => {
    writeObject(fx.root, 'alice/future.mp4', 'from the future');
    const file = path.join(fx.root, 'alice', 'future.mp4');
    const future = new Date('2030-01-01T00:00:00Z');
    fs.utimesSync(file, future, future);
    const url = await urlFor('alice/future.mp4');
    const res = await fetch(url);
    await res.arrayBuffer();
    const [date, modified] = [Date.parse(res.headers.get('date')!), Date.parse(res.headers.get('last-modified')!)];
    expect(modified).toBeLessThanOrEqual(date);
    const ranged = await fetch(url, { headers: { range: 'bytes=0-3', 'if-range': res.headers.get('last-modified')! } });
    expect(ranged.status).toBe(200);
    expect(await ranged.text()).toBe('from the future');
  });

  it('answers a single range with 206 and Content-Range, suffix and open ranges too', async ({ urlFor }) => {
    const url = await urlFor('alice/1700000000_cam1.mp4');
    const cases: Array<[string, number, number]> = [
      ['bytes=100-199', 100, 199],
      ['bytes=299990-', 299_990, 299_999],
      ['bytes=-10', 299_990, 299_999],
      ['bytes=0-999999', 0, 299_999],
    ];
    for (const [range, start, end] of cases) {
      const res = await fetch(url, { headers: { range } });
      expect(res.status, range).toBe(206);
      expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/300000`);
      expect(res.headers.get('content-length')).toBe(String(end - start + 1));
      expect(Buffer.from(await res.arrayBuffer()).equals(video.subarray(start, end + 1))).toBe(true);
    }
  });

  it('answers 416 range_not_satisfiable for a range past the end', async ({ urlFor }) => {
    const res = await fetch(await urlFor('alice/notes.txt'), { headers: { range: 'bytes=10-20' } });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe('bytes */5');
    expect((await res.json()).code).toBe('range_not_satisfiable');
  });

  it('answers 304 to If-None-Match and If-Modified-Since', async ({ urlFor }) => {
    const url = await urlFor('alice/notes.txt');
    const first = await fetch(url);
    await first.arrayBuffer();
    const etag = first.headers.get('etag')!;
    const byTag = await fetch(url, { headers: { 'if-none-match': etag } });
    expect(byTag.status).toBe(304);
    expect(byTag.headers.get('etag')).toBe(etag);
    const byDate = await fetch(url, { headers: { 'if-modified-since': first.headers.get('last-modified')! } });
    expect(byDate.status).toBe(304);
    const changed = await fetch(url, { headers: { 'if-none-match': '"other"' } });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toBe('hello');
  });

  it('ignores conditional dates that are not HTTP-dates, and takes all three HTTP-date forms', async ({ urlFor }) => {
    const url = await urlFor('alice/notes.txt');
    const later = new Date(Date.now() + 86_400_000);
    for (const since of ['2030', String(later.getUTCFullYear() + 1), later.toISOString()]) {
      const res = await fetch(url, { headers: { 'if-modified-since': since } });
      expect([since, res.status]).toEqual([since, 200]);
    }
    const imf = later.toUTCString();
    const [, day, month, year, time] = /^\w+, (\d\d) (\w+) (\d{4}) (\S+) GMT$/.exec(imf)!;
    const weekday = later.toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
    const rfc850 = `${weekday}, ${day}-${month}-${year!.slice(2)} ${time} GMT`;
    const asctime = `${imf.slice(0, 3)} ${month} ${String(Number(day)).padStart(2, ' ')} ${time} ${year}`;
    for (const since of [imf, rfc850, asctime]) {
      const res = await fetch(url, { headers: { 'if-modified-since': since } });
      expect([since, res.status]).toEqual([since, 304]);
    }
    // If-Range with a non-date is a mismatch: the whole object, not the range.
    const res = await fetch(url, { headers: { range: 'bytes=0-1', 'if-range': later.toISOString() } });
    expect([res.status, await res.text()]).toEqual([200, 'hello']);
  });

  it('answers 412 precondition_failed when If-Match or If-Unmodified-Since names another version', async ({
    urlFor,
  }) => {
    const url = await urlFor('alice/notes.txt');
    const first = await fetch(url);
    await first.arrayBuffer();
    const etag = first.headers.get('etag')!;
    const refused: Array<Record<string, string>> = [
      { 'if-match': '"another"' },
      { 'if-match': `W/${etag}` },
      { 'if-unmodified-since': 'Sun, 01 Nov 2020 10:24:03 GMT' },
    ];
    for (const headers of refused) {
      const res = await fetch(url, { headers });
      expect(res.status).toBe(412);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect((await res.json()).code).toBe('precondition_failed');
    }
    const passed: Array<Record<string, string>> = [
      { 'if-match': etag },
      { 'if-match': `"x", ${etag}` },
      { 'if-match': '*' },
      { 'if-unmodified-since': first.headers.get('last-modified')! },
    ];
    for (const headers of passed) {
      const res = await fetch(url, { headers: { ...headers, range: 'bytes=1-2' } });
      expect([headers, res.status, await res.text()]).toEqual([headers, 206, 'el']);
    }
  });

  it('answers a suffix range on an empty object with the whole (empty) object', async ({ fx, urlFor }) => {
    writeObject(fx.root, 'alice/empty.bin', '');
    const url = await urlFor('alice/empty.bin');
    const suffix = await fetch(url, { headers: { range: 'bytes=-5' } });
    expect([suffix.status, suffix.headers.get('content-length'), await suffix.text()]).toEqual([200, '0', '']);
    const open = await fetch(url, { headers: { range: 'bytes=0-' } });
    expect([open.status, open.headers.get('content-range')]).toEqual([416, 'bytes */0']);
  });

  it("names the saved file after the key's last segment, exactly and as ASCII", async ({ server, fx }) => {
    const key = 'alice/clip "ünï" 100%.mp4';
    writeObject(fx.root, key, 'x');
    // A header carries no raw UTF-8: the bulk body names the file.
    const issued = await bulk(server, fx.headers(), [{ filename: key, provider: 'disk' }]);
    const res = await fetch(JSON.parse(issued.body.data)[key], { method: 'HEAD' });
    expect(res.headers.get('content-disposition')).toBe(
      `inline; filename="clip __n__ 100_.mp4"; filename*=UTF-8''clip%20%22%C3%BCn%C3%AF%22%20100%25.mp4`,
    );
  });

  it('sends Cache-Control: no-store with every error, so that no cache keeps a 404 for a file made later', async ({
    server,
    urlFor,
  }) => {
    for (const url of [await urlFor('alice/missing.mp4'), `${server.url}/api/storage/signed?a=x`]) {
      const res = await fetch(url);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('drops the connection at once when the file shrinks while it streams', async ({ fx, urlFor }) => {
    const big = Buffer.alloc(8 << 20, 7);
    writeObject(fx.root, 'alice/shrinking.mp4', big);
    const url = new URL(await urlFor('alice/shrinking.mp4'));
    const outcome = await new Promise<{ status: number; received: number; error?: string }>((resolve) => {
      http.get(url, (res) => {
        let received = 0;
        res.once('data', () => {
          // Truncated after the first chunk arrived: the rest of what Content-Length promised never exists.
          fs.truncateSync(path.join(fx.root, 'alice/shrinking.mp4'), 1 << 20);
        });
        res.on('data', (c: Buffer) => {
          received += c.length;
        });
        res.on('error', (e) => resolve({ status: res.statusCode!, received, error: e.message }));
        res.on('end', () => resolve({ status: res.statusCode!, received }));
      });
    });
    expect(outcome.status).toBe(200);
    expect(outcome.received).toBeLessThan(big.length);
    expect(outcome.error).toBe('aborted');
  });

  it('answers HEAD with the same headers and no body', async ({ urlFor }) => {
    const res = await fetch(await urlFor('alice/1700000000_cam1.mp4'), { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(video.length));
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers 404 object_not_found for a missing object (GET and HEAD)', async ({ urlFor }) => {
    const url = await urlFor('alice/missing.mp4');
    const res = await fetch(url);
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe('object_not_found');
    expect((await fetch(url, { method: 'HEAD' })).status).toBe(404);
  });

  it('never leaves the root through a symbolic link, on the last segment or a directory, and follows one that stays inside', async ({
    server,
    fx,
    urlFor,
  }) => {
    const outside = path.join(server.config.dataDir, 'outside');
    fs.mkdirSync(outside, { recursive: true });
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'top secret');
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(fx.root, 'alice', 'link.txt'));
    fs.symlinkSync(outside, path.join(fx.root, 'escape'));
    for (const key of ['alice/link.txt', 'escape/secret.txt']) {
      const res = await fetch(await urlFor(key));
      expect(res.status, key).toBe(404);
      expect(await res.text()).not.toContain('top secret');
    }
    // A link that stays inside the root leaves nothing: it is served like its target.
    fs.symlinkSync(path.join(fx.root, 'alice', 'notes.txt'), path.join(fx.root, 'alice', 'inside-link.txt'));
    const inside = await fetch(await urlFor('alice/inside-link.txt'));
    expect(inside.status).toBe(200);
    expect(await inside.text()).toBe(fs.readFileSync(path.join(fx.root, 'alice', 'notes.txt'), 'utf8'));
  });

  it('answers 403 bad_signature for a tampered URL and 400 invalid_signed_url for a malformed one', async ({
    fx,
    urlFor,
  }) => {
    const url = new URL(await urlFor('alice/notes.txt'));
    for (const [param, value] of [
      ['f', 'alice/other.txt'],
      ['e', String(Number(url.searchParams.get('e')) + 1)],
      ['a', 'someone'],
      ['p', 's3'],
    ]) {
      const t = new URL(url);
      t.searchParams.set(param!, value!);
      const res = await fetch(t);
      expect(res.status, param).toBe(403);
      expect((await res.json()).code).toBe('bad_signature');
    }
    const other = new URL(url);
    other.searchParams.set(
      's',
      signedUrl('http://x', 'another-key', {
        account: fx.account.name,
        provider: 'disk',
        filename: 'alice/notes.txt',
        expiresAt: Number(url.searchParams.get('e')),
      })
        .split('s=')
        .pop()!,
    );
    expect((await fetch(other)).status).toBe(403);
    // Edits of the token's length or alphabet, and another spelling of the same e, are tampering too.
    const s = url.searchParams.get('s')!;
    const e = url.searchParams.get('e')!;
    for (const [param, value] of [
      ['s', s.slice(0, -1)],
      ['s', `${s}A`],
      ['s', `${s}=`],
      ['s', `${s.slice(0, -1)}+`],
      ['e', `0${e}`],
    ]) {
      const t = new URL(url);
      t.searchParams.set(param!, value!);
      const res = await fetch(t);
      expect([res.status, (await res.json()).code], `${param}=${value}`).toEqual([403, 'bad_signature']);
    }
    for (const drop of ['a', 'p', 'f', 'e', 's']) {
      const t = new URL(url);
      t.searchParams.delete(drop);
      const res = await fetch(t);
      expect(res.status, drop).toBe(400);
      expect((await res.json()).code).toBe('invalid_signed_url');
    }
    const badE = new URL(url);
    badE.searchParams.set('e', 'tomorrow');
    expect((await fetch(badE)).status).toBe(400);
    // Broken percent-encoding or bytes that are not UTF-8: malformed (400, reason "malformed"), not a bad signature.
    const raw = url.toString();
    for (const f of ['%ZZ', '%FF', 'alice%2Fa%E0%A4%A']) {
      const broken = raw.replace(/f=[^&]+/, `f=${f}`);
      const res = await fetch(broken);
      expect(res.status, f).toBe(400);
      expect((await res.json()).code).toBe('invalid_signed_url');
      const verdict = await (await fetch(broken.replace('/signed?', '/signed/validate?'))).json();
      expect(verdict.data).toMatchObject({ valid: false, reason: 'malformed' });
    }
  });

  it('answers 403 url_expired after e, while a second (rotated-out) key still verifies', async ({ server, fx }) => {
    const past = Math.floor(Date.now() / 1000) - 1;
    const expired = signedUrl(server.url, SIGNING_KEY, {
      account: fx.account.name,
      provider: 'disk',
      filename: 'alice/notes.txt',
      expiresAt: past,
    });
    const res = await fetch(expired);
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('url_expired');
    const validate = await (await fetch(expired.replace('/signed?', '/signed/validate?'))).json();
    expect(validate.data).toMatchObject({ valid: false, reason: 'expired', expiresIn: 0, filename: 'alice/notes.txt' });
  });

  it('kills URLs of a disabled account or of a provider the account lost', async ({ server, fx, urlFor }) => {
    const url = await urlFor('alice/notes.txt');
    await changeAccount(server.store, fx.orgId, fx.account.name, { enabled: false });
    try {
      expect((await fetch(url)).status).toBe(401);
      const v = await (await fetch(url.replace('/signed?', '/signed/validate?'))).json();
      expect(v.data).toMatchObject({ valid: false, reason: 'account_disabled' });
    } finally {
      await changeAccount(server.store, fx.orgId, fx.account.name, { enabled: true });
    }
    expect((await fetch(url)).status).toBe(200);
    await changeAccount(server.store, fx.orgId, fx.account.name, { providers: ['s3'], defaultProvider: 's3' });
    try {
      const res = await fetch(url);
      expect(res.status).toBe(401);
      expect((await res.json()).code).toBe('provider_not_allowed');
    } finally {
      await changeAccount(server.store, fx.orgId, fx.account.name, {
        providers: ['disk', 's3'],
        defaultProvider: 'disk',
      });
    }
  });

  it('validates without streaming', async ({ server, fx, urlFor }) => {
    const url = await urlFor('alice/1700000000_cam1.mp4', 'disk', '10m');
    const before = Date.now();
    const res = await fetch(url.replace('/signed?', '/signed/validate?'));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data).toMatchObject({
      valid: true,
      reason: null,
      account: fx.account.name,
      provider: 'disk',
      filename: 'alice/1700000000_cam1.mp4',
    });
    expect(body.data.expiresIn).toBeGreaterThan(590);
    expect(body.data.expiresIn).toBeLessThanOrEqual(600);
    // Whole seconds left, rounded down as max-age is: a client that trusts it never uses a dead URL.
    const e = Number(new URL(url).searchParams.get('e'));
    expect(body.data.expiresIn).toBeLessThanOrEqual(Math.floor((e * 1000 - before) / 1000));
    expect(Date.parse(body.data.expiresAt)).toBeGreaterThan(Date.now());
    const tampered = await (
      await fetch(url.replace('/signed?', '/signed/validate?').replace(/s=[^&]+/, `s=${'A'.repeat(43)}`))
    ).json();
    expect(tampered.data).toMatchObject({ valid: false, reason: 'bad_signature', expiresAt: null });
    const malformed = await (await fetch(`${server.url}/api/storage/signed/validate?a=x`)).json();
    expect(malformed.data).toMatchObject({
      valid: false,
      reason: 'malformed',
      account: 'x',
      provider: null,
      filename: null,
      expiresAt: null,
      expiresIn: null,
    });
  });

  describe('through a remote backend', () => {
    it('forwards range and conditionals to the backend over a presigned request and streams its answer', async ({
      server,
    }) => {
      const seen: http.IncomingHttpHeaders[] = [];
      const paths: string[] = [];
      const up = await upstream((req, res) => {
        seen.push(req.headers);
        paths.push(req.url!);
        res.writeHead(206, {
          'content-type': 'image/jpeg',
          'content-length': '3',
          etag: '"abc"',
          'content-range': 'bytes 0-2/10',
          'last-modified': new Date(0).toUTCString(),
        });
        res.end('abc');
      });
      const fx2 = await seedStorage(server, { s3Endpoint: up.url });
      try {
        const url = (
          await getUrl(
            server,
            fx2.headers({ 'x-service-storage-filename': 'bob/t.jpg', 'x-service-storage-provider': 's3' }),
          )
        ).body.data;
        const res = await fetch(url, { headers: { range: 'bytes=0-2' } });
        expect(res.status).toBe(206);
        expect(res.headers.get('content-range')).toBe('bytes 0-2/10');
        expect(res.headers.get('content-type')).toBe('image/jpeg');
        expect(await res.text()).toBe('abc');
        expect(seen[0]!.range).toBe('bytes=0-2');
        expect(paths[0]).toMatch(/^\/media-bucket\/bob\/t\.jpg\?X-Amz-Algorithm=AWS4-HMAC-SHA256&/);
      } finally {
        await up.close();
      }
    });

    it("completes a backend's 416 without Content-Range and 304 without validators from a HEAD of the object", async ({
      server,
    }) => {
      const methods: string[] = [];
      const up = await upstream((req, res) => {
        methods.push(`${req.method} ${req.headers.range ?? req.headers['if-none-match'] ?? ''}`);
        if (req.method === 'HEAD') {
          res.writeHead(200, {
            'content-length': '10',
            etag: '"abc"',
            'last-modified': new Date(0).toUTCString(),
            'content-type': 'image/jpeg',
          });
          res.end();
        } else if (req.headers.range) {
          res.writeHead(416); // no Content-Range, as s3rver answers
          res.end();
        } else {
          res.writeHead(304); // no ETag
          res.end();
        }
      });
      const fx2 = await seedStorage(server, { s3Endpoint: up.url });
      try {
        const url = (
          await getUrl(
            server,
            fx2.headers({ 'x-service-storage-filename': 'bob/t.jpg', 'x-service-storage-provider': 's3' }),
          )
        ).body.data;
        const unsatisfiable = await fetch(url, { headers: { range: 'bytes=50-60' } });
        expect(unsatisfiable.status).toBe(416);
        expect(unsatisfiable.headers.get('content-range')).toBe('bytes */10');
        expect((await unsatisfiable.json()).code).toBe('range_not_satisfiable');
        const notModified = await fetch(url, { headers: { 'if-none-match': '"abc"' } });
        expect(notModified.status).toBe(304);
        expect(notModified.headers.get('etag')).toBe('"abc"');
        expect(notModified.headers.get('last-modified')).toBe(new Date(0).toUTCString());
        expect(methods).toEqual(['GET bytes=50-60', 'HEAD ', 'GET "abc"', 'HEAD ']);
      } finally {
        await up.close();
      }
    });

    it('takes the Content-Type from the extension when the backend sends none, and sandboxes every object', async ({
      server,
    }) => {
      const up = await upstream((_req, res) => {
        res.writeHead(200, { 'content-length': '3' });
        res.end('abc');
      });
      const fx2 = await seedStorage(server, { s3Endpoint: up.url });
      try {
        for (const [key, type] of [
          ['bob/clip.mp4', 'video/mp4'],
          ['bob/page.html', 'text/html; charset=utf-8'],
          ['bob/logo.svg', 'image/svg+xml'],
          ['bob/blob', 'application/octet-stream'],
        ] as const) {
          const url = (
            await getUrl(server, fx2.headers({ 'x-service-storage-filename': key, 'x-service-storage-provider': 's3' }))
          ).body.data;
          for (const method of ['GET', 'HEAD']) {
            const res = await fetch(url, { method });
            expect([res.status, res.headers.get('content-type')], `${method} ${key}`).toEqual([200, type]);
            expect(res.headers.get('content-security-policy')).toBe('sandbox');
            expect(res.headers.get('x-content-type-options')).toBe('nosniff');
          }
        }
      } finally {
        await up.close();
      }
    });

    it('maps backend failures: 5xx → 502 provider_unavailable, 403 → 502 provider_error, 404 → object_not_found, silence → 504', async ({
      server,
      urlFor,
    }) => {
      let mode = 500;
      const up = await upstream((_req, res) => {
        if (mode === 0) return; // never answers
        res.writeHead(mode, { 'content-type': 'application/xml' });
        res.end('<Error><Code>Whatever</Code></Error>');
      });
      const fx2 = await seedStorage(server, { s3Endpoint: up.url });
      try {
        const url = (
          await getUrl(
            server,
            fx2.headers({ 'x-service-storage-filename': 'bob/t.jpg', 'x-service-storage-provider': 's3' }),
          )
        ).body.data;
        for (const [m, status, code] of [
          [500, 502, 'provider_unavailable'],
          [503, 502, 'provider_unavailable'],
          [403, 502, 'provider_error'],
          [404, 404, 'object_not_found'],
          [0, 504, 'provider_timeout'],
        ] as const) {
          mode = m;
          const res = await fetch(url);
          expect(res.status, String(m)).toBe(status);
          const body = await res.json();
          expect(body.code).toBe(code);
          expect(JSON.stringify(body)).not.toContain('wJalrXUtnFEMI');
          expect(JSON.stringify(body)).not.toContain('AKIDEXAMPLE');
        }
        // The service keeps serving other providers meanwhile.
        expect((await fetch(await urlFor('alice/notes.txt'))).status).toBe(200);
      } finally {
        await up.close();
      }
    });

    it('answers 502 provider_unavailable when the backend cannot be reached', async ({ server }) => {
      const up = await upstream(() => {});
      const dead = up.url;
      await up.close();
      const fx2 = await seedStorage(server, { s3Endpoint: dead });
      const url = (
        await getUrl(
          server,
          fx2.headers({ 'x-service-storage-filename': 'bob/t.jpg', 'x-service-storage-provider': 's3' }),
        )
      ).body.data;
      const res = await fetch(url);
      expect(res.status).toBe(502);
      expect(await res.json()).toMatchObject({ code: 'provider_unavailable', provider: 's3' });
    });

    it('stops reading from the backend when the client disconnects', async ({ server }) => {
      let closed!: () => void;
      const upstreamClosed = new Promise<void>((r) => {
        closed = r;
      });
      const up = await upstream((req, res) => {
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(1 << 30) });
        const chunk = Buffer.alloc(64 * 1024);
        const pump = () => {
          while (res.write(chunk));
        };
        res.on('drain', pump);
        pump();
        req.socket.once('close', () => closed());
      });
      const fx2 = await seedStorage(server, { s3Endpoint: up.url });
      try {
        const url = (
          await getUrl(
            server,
            fx2.headers({ 'x-service-storage-filename': 'bob/big.mp4', 'x-service-storage-provider': 's3' }),
          )
        ).body.data;
        const controller = new AbortController();
        const res = await fetch(url, { signal: controller.signal });
        const reader = res.body!.getReader();
        await reader.read();
        controller.abort();
        await upstreamClosed;
      } finally {
        await up.close();
      }
    });
  });

  it('answers 401 provider_not_allowed once a provider is disabled', async ({ server, fx, urlFor }) => {
    const url = await urlFor('alice/notes.txt');
    await enableProvider(server.store, fx.orgId, 'disk', false);
    try {
      expect((await fetch(url)).status).toBe(401);
      const res = await getUrl(
        server,
        fx.headers({ 'x-service-storage-filename': 'alice/notes.txt', 'x-service-storage-provider': 'disk' }),
      );
      expect(res.body.code).toBe('provider_not_allowed');
    } finally {
      await enableProvider(server.store, fx.orgId, 'disk', true);
    }
  });
});
