import http from 'node:http';
import net from 'node:net';
import { describe, expect } from 'vitest';
import { storageTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { STORAGE_ENV, bulk, getUrl } from './helpers.js';
import { changeAccount, rotateAccount } from '../../src/storage/admin.js';

const tests = storageTests({ env: { ...STORAGE_ENV, STORAGE_PUBLIC_URL: 'https://media.example.com' } });
const restricted = storageTests({
  env: { ...STORAGE_ENV, STORAGE_SIGNING: 'true', DEFAULT_URI_EXPIRY_TIME: '30m' },
  storage: { directories: ['alice', 'bob'] },
});

describe.each(DIALECTS)('GET /api/storage and POST /api/storage/bulk on %s', (dialect) => {
  const it = tests[dialect].extend(
    'single',
    ({ server, fx }) =>
      (filename: string, provider = 'disk', extra: Record<string, string> = {}) =>
        getUrl(
          server,
          fx.headers({ 'x-service-storage-filename': filename, 'x-service-storage-provider': provider, ...extra }),
        ),
  );

  it('answers a service-signed URL for the fs provider, with the default lifetime', async ({ fx, single }) => {
    const before = Math.floor(Date.now() / 1000);
    const res = await single('alice/1700000000_cam1.mp4');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const url = new URL(res.body.data);
    expect(url.origin + url.pathname).toBe('https://media.example.com/api/storage/signed');
    expect(url.searchParams.get('a')).toBe(fx.account.name);
    expect(url.searchParams.get('p')).toBe('disk');
    expect(url.searchParams.get('f')).toBe('alice/1700000000_cam1.mp4');
    const e = Number(url.searchParams.get('e'));
    expect(e - before).toBeGreaterThanOrEqual(86_400);
    expect(e - before).toBeLessThanOrEqual(86_401);
    expect(url.searchParams.get('s')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('answers an S3 SigV4 presigned URL for the s3 provider with the requested lifetime', async ({ single }) => {
    const res = await single('alice/a b+c.mp4', 's3', { 'x-service-storage-uriexpirytime': '1h30m' });
    expect(res.status).toBe(200);
    const url = new URL(res.body.data);
    expect(url.host).toBe('media-bucket.s3.eu-west-1.amazonaws.com');
    expect(url.pathname).toBe('/alice/a%20b%2Bc.mp4');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('5400');
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^AKIDEXAMPLE\/\d{8}\/eu-west-1\/s3\/aws4_request$/);
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('accepts the expiry as plain seconds and as each duration unit', async ({ single }) => {
    for (const [value, seconds] of [
      ['90', 90],
      ['90s', 90],
      ['30m', 1800],
      ['24h', 86_400],
      ['7d', 604_800],
      ['1', 1],
    ] as const) {
      const res = await single('alice/x.mp4', 's3', { 'x-service-storage-uriexpirytime': value });
      expect(res.status, value).toBe(200);
      expect(new URL(res.body.data).searchParams.get('X-Amz-Expires')).toBe(String(seconds));
    }
  });

  it('rejects an expiry out of bounds or unparsable with 400 invalid_expiry', async ({ single }) => {
    for (const value of ['0', '604801', '8d', 'soon', '1.5', '-5', '1h-']) {
      const res = await single('alice/x.mp4', 'disk', { 'x-service-storage-uriexpirytime': value });
      expect(res.status, value).toBe(400);
      expect(res.body.code, value).toBe('invalid_expiry');
    }
  });

  it('answers 400 missing_header naming each missing or empty required header (the provider: only empty)', async ({
    server,
    fx,
  }) => {
    const full = fx.headers({ 'x-service-storage-filename': 'alice/x.mp4', 'x-service-storage-provider': 'disk' });
    for (const [name, display] of [
      ['x-service-storage-filename', 'X-Service-Storage-FileName'],
      ['x-service-storage-provider', 'X-Service-Storage-Provider'],
      ['x-service-storage-accesskey', 'X-Service-Storage-AccessKey'],
      ['x-service-storage-secretaccesskey', 'X-Service-Storage-SecretAccessKey'],
    ] as const) {
      const without = { ...full };
      delete without[name as keyof typeof without];
      const missing = await getUrl(server, without);
      // An absent provider is the account's default (the header overrides it); an empty one is still refused.
      if (name !== 'x-service-storage-provider') {
        expect(missing.status).toBe(400);
        expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(missing.body).toMatchObject({ code: 'missing_header', header: display });
      } else expect(missing.status).toBe(200);
      const empty = await getUrl(server, { ...full, [name]: '' });
      expect(empty.body).toMatchObject({ code: 'missing_header', header: display });
    }
  });

  it('answers one 401 invalid_credentials for an unknown key, a wrong secret and a disabled account', async ({
    server,
    fx,
    single,
  }) => {
    const base = { 'x-service-storage-filename': 'alice/x.mp4', 'x-service-storage-provider': 'disk' };
    const unknown = await getUrl(server, { ...fx.headers(base), 'x-service-storage-accesskey': 'SLAKNOPE' });
    const wrong = await getUrl(server, {
      ...fx.headers(base),
      'x-service-storage-secretaccesskey': `${fx.account.secretAccessKey}x`,
    });
    for (const res of [unknown, wrong]) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('invalid_credentials');
      expect(JSON.stringify(res.body)).not.toContain(fx.account.secretAccessKey);
    }
    expect(unknown.body.detail).toBe(wrong.body.detail);
    await changeAccount(server.store, fx.orgId, fx.account.name, { enabled: false });
    try {
      const disabled = await single('alice/x.mp4');
      expect(disabled.status).toBe(401);
      expect(disabled.body.code).toBe('invalid_credentials');
      expect(disabled.body.detail).toBe(wrong.body.detail);
    } finally {
      await changeAccount(server.store, fx.orgId, fx.account.name, { enabled: true });
    }
  });

  it('checks the secret on every request, also once it was accepted, and refuses the old one after a rotation', async ({
    server,
    fx,
  }) => {
    const base = { 'x-service-storage-filename': 'alice/x.mp4', 'x-service-storage-provider': 'disk' };
    const withSecret = (secret: string) =>
      getUrl(server, { ...fx.headers(base), 'x-service-storage-secretaccesskey': secret });
    expect((await withSecret(fx.account.secretAccessKey)).status).toBe(200);
    expect((await withSecret(fx.account.secretAccessKey)).status).toBe(200);
    const secret = fx.account.secretAccessKey;
    expect((await withSecret(`${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`)).status).toBe(401);
    expect((await withSecret(fx.account.secretAccessKey)).status).toBe(200);
    const rotated = await rotateAccount(server.store, fx.orgId, fx.account.name);
    try {
      const old = await withSecret(fx.account.secretAccessKey);
      expect(old.status).toBe(401);
      expect(old.body.code).toBe('invalid_credentials');
      expect((await withSecret(rotated.secretAccessKey)).status).toBe(200);
    } finally {
      fx.account.secretAccessKey = rotated.secretAccessKey;
    }
  });

  it('answers 401 provider_not_allowed for a provider not bound to the account', async ({ single }) => {
    const res = await single('alice/x.mp4', 'elsewhere');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'provider_not_allowed', provider: 'elsewhere' });
  });

  it('answers 400 invalid_filename for every malformed key', async ({ single }) => {
    const bad = ['/abs.mp4', 'a\\b.mp4', 'a//b.mp4', 'a/./b.mp4', 'a/../b.mp4', '..', 'dir/', 'x'.repeat(1025)];
    for (const name of bad) {
      const res = await single(name);
      expect(res.status, name).toBe(400);
      expect(res.body.code, name).toBe('invalid_filename');
    }
    const longest = await single(`a/${'x'.repeat(1022)}`);
    expect(longest.status).toBe(200);
  });

  it('answers 400 invalid_filename when the filename header comes twice, instead of signing the joined value', async ({
    server,
    fx,
  }) => {
    const sendTwice = (names: string[]) =>
      new Promise<{ status: number; body: { code?: string; data?: string } }>((resolve, reject) => {
        const req = http.request(
          `${server.url}/api/storage`,
          { headers: fx.headers({ 'x-service-storage-provider': 'disk' }) },
          (res) => {
            let text = '';
            res.on('data', (c) => {
              text += c;
            });
            res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
          },
        );
        req.setHeader('X-Service-Storage-FileName', names); // one header line per name
        req.on('error', reject);
        req.end();
      });
    const twice = await sendTwice(['alice/a.mp4', 'alice/b.mp4']);
    expect([twice.status, twice.body.code]).toEqual([400, 'invalid_filename']);
    // A single filename may contain ", " itself.
    const once = await sendTwice(['alice/a, b.mp4']);
    expect(once.status).toBe(200);
    expect(new URL(once.body.data!).searchParams.get('f')).toBe('alice/a, b.mp4');
  });

  it('takes UTF-8 filenames from the header bytes, verbatim and case-sensitive', async ({ single }) => {
    // fetch only sends latin1 header strings; this is how UTF-8 bytes travel in a header.
    const utf8 = Buffer.from('alice/Café_Ünïcode.mp4', 'utf8').toString('latin1');
    const res = await single(utf8);
    expect(res.status).toBe(200);
    expect(new URL(res.body.data).searchParams.get('f')).toBe('alice/Café_Ünïcode.mp4');
    const upper = await single('ALICE/X.MP4');
    expect(new URL(upper.body.data).searchParams.get('f')).toBe('ALICE/X.MP4');
  });

  describe('bulk', () => {
    it('answers data as a JSON string mapping filename to URL, default provider and per-element overrides', async ({
      server,
      fx,
    }) => {
      const base = 'alice/1700000000_cam1';
      const res = await bulk(server, fx.headers(), [
        { filename: `${base}.mp4` },
        { filename: `${base}_thumbnail.jpg`, uriExpiryTime: 600 },
        { filename: `${base}_sprite.jpg`, provider: 's3', uriExpiryTime: '2h' },
        { filename: `${base}_redacted.mp4`, provider: 'disk' },
      ]);
      expect(res.status).toBe(200);
      expect(typeof res.body.data).toBe('string');
      const map = JSON.parse(res.body.data);
      expect(Object.keys(map)).toEqual([
        `${base}.mp4`,
        `${base}_thumbnail.jpg`,
        `${base}_sprite.jpg`,
        `${base}_redacted.mp4`,
      ]);
      expect(new URL(map[`${base}.mp4`]).searchParams.get('p')).toBe('disk');
      const thumbE = Number(new URL(map[`${base}_thumbnail.jpg`]).searchParams.get('e'));
      expect(thumbE - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(600);
      expect(new URL(map[`${base}_sprite.jpg`]).searchParams.get('X-Amz-Expires')).toBe('7200');
    });

    it('answers 200 with an empty map for an empty array', async ({ server, fx }) => {
      const res = await bulk(server, fx.headers(), []);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body.data)).toEqual({});
    });

    it('lets the last duplicate win', async ({ server, fx }) => {
      const res = await bulk(server, fx.headers(), [
        { filename: 'alice/d.mp4', provider: 'disk' },
        { filename: 'alice/d.mp4', provider: 's3' },
      ]);
      expect(res.status).toBe(200);
      const map = JSON.parse(res.body.data);
      expect(Object.keys(map)).toEqual(['alice/d.mp4']);
      expect(map['alice/d.mp4']).toContain('X-Amz-Signature');
    });

    it('keeps a "__proto__" filename as an ordinary key', async ({ server, fx }) => {
      const res = await bulk(server, fx.headers(), [{ filename: '__proto__' }]);
      expect(Object.keys(JSON.parse(res.body.data))).toEqual(['__proto__']);
    });

    it('lists every bad element by index and reason, and issues nothing', async ({ server, fx }) => {
      const res = await bulk(server, fx.headers(), [
        { filename: 'alice/ok.mp4' },
        { filename: '/abs' },
        { provider: 'disk' },
        'text',
        { filename: 'a/b', uriExpiryTime: '8d' },
        { filename: 'a/b', fileName: 'typo' },
        { filename: 'a/b', uriExpiryTime: 1.5 },
        { filename: 'a/b', provider: 7 },
        { filename: 'a/b', uriExpiryTime: ' 1h' },
        { filename: 'a/b', uriExpiryTime: '60\n' },
      ]);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_bulk_request');
      expect([...new Set(res.body.errors.map((e: { index: number }) => e.index))]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(
        res.body.errors.filter((e: { index: number }) => e.index >= 8).map((e: { code: string }) => e.code),
      ).toEqual(['invalid_expiry', 'invalid_expiry']);
      for (const e of res.body.errors) expect(typeof e.reason).toBe('string');
      expect(res.body.data).toBeUndefined();
    });

    it('refuses a filename whose bytes are not UTF-8 by its index, instead of rewriting it with U+FFFD', async ({
      server,
      fx,
    }) => {
      const body = Buffer.concat([
        Buffer.from('[{"filename":"alice/ok.mp4"},{"filename":"alice/a'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('b"}]'),
      ]);
      const res = await fetch(`${server.url}/api/storage/bulk`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...fx.headers() },
        body,
      });
      expect(res.status).toBe(400);
      const problem = await res.json();
      expect(problem.code).toBe('invalid_bulk_request');
      expect(problem.errors).toEqual([
        expect.objectContaining({ index: 1, field: 'filename', code: 'invalid_filename' }),
      ]);
      // A bad byte outside a string is malformed JSON, as it always was.
      const outside = Buffer.concat([Buffer.from('['), Buffer.from([0xff]), Buffer.from(']')]);
      const res2 = await fetch(`${server.url}/api/storage/bulk`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...fx.headers() },
        body: outside,
      });
      expect(res2.status).toBe(400);
      expect((await res2.json()).code).toBe('malformed_json');
      // A real U+FFFD, sent as UTF-8, is an ordinary character of a valid key.
      const real = await bulk(server, fx.headers(), [{ filename: 'alice/a\uFFFDb' }]);
      expect(real.status).toBe(200);
    });

    it('rejects a non-array body and more than 1000 elements with invalid_bulk_request', async ({ server, fx }) => {
      const obj = await bulk(server, fx.headers(), { filename: 'a/b' });
      expect(obj.status).toBe(400);
      expect(obj.body.code).toBe('invalid_bulk_request');
      const many = await bulk(
        server,
        fx.headers(),
        Array.from({ length: 1001 }, (_, i) => ({ filename: `a/${i}.jpg` })),
      );
      expect(many.status).toBe(400);
      expect(many.body.code).toBe('invalid_bulk_request');
      const max = await bulk(
        server,
        fx.headers(),
        Array.from({ length: 1000 }, (_, i) => ({ filename: `a/${i}.jpg` })),
      );
      expect(max.status).toBe(200);
      expect(Object.keys(JSON.parse(max.body.data))).toHaveLength(1000);
      // The largest valid request: 1000 keys of 1024 bytes, every character sent as a \uXXXX escape (6.2 MB).
      const key = (i: number) => `a/${String(i).padStart(4, '0')}/${'x'.repeat(1017)}`;
      const escaped = `[${Array.from({ length: 1000 }, (_, i) => `{"filename":"${[...key(i)].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"}`).join(',')}]`;
      expect(escaped.length).toBeGreaterThan(6_000_000);
      const largest = await bulk(server, fx.headers(), escaped);
      expect(largest.status).toBe(200);
      expect(Object.keys(JSON.parse(largest.body.data))).toEqual(Array.from({ length: 1000 }, (_, i) => key(i)));
    });

    it('answers malformed_json, unsupported_media_type, missing_header for Content-Type and payload_too_large', async ({
      server,
      fx,
    }) => {
      const malformed = await bulk(server, fx.headers(), '[{"filename":');
      expect(malformed.status).toBe(400);
      expect(malformed.body.code).toBe('malformed_json');
      const text = await bulk(server, fx.headers(), '[]', 'text/plain');
      expect(text.status).toBe(415);
      expect(text.body.code).toBe('unsupported_media_type');
      // Content-Type is a required header of the bulk call: without it (or empty) the answer names it, like any other.
      for (const contentType of [undefined, ' ']) {
        const res = await fetch(`${server.url}/api/storage/bulk`, {
          method: 'POST',
          headers: { ...fx.headers(), ...(contentType === undefined ? {} : { 'content-type': contentType }) },
          body: Buffer.from('[]'),
        });
        expect([res.status, await res.json()]).toEqual([
          400,
          expect.objectContaining({ code: 'missing_header', header: 'Content-Type' }),
        ]);
      }
      // A missing credential is named first, and a wrong one with a missing Content-Type is still a missing header.
      const neither = await fetch(`${server.url}/api/storage/bulk`, {
        method: 'POST',
        headers: { 'x-service-storage-accesskey': fx.account.accessKey },
        body: Buffer.from('[]'),
      });
      expect(await neither.json()).toMatchObject({
        code: 'missing_header',
        header: 'X-Service-Storage-SecretAccessKey',
      });
      const wrongSecret = await fetch(`${server.url}/api/storage/bulk`, {
        method: 'POST',
        headers: { ...fx.headers(), 'x-service-storage-secretaccesskey': 'nope' },
        body: Buffer.from('[]'),
      });
      expect(await wrongSecret.json()).toMatchObject({ code: 'missing_header', header: 'Content-Type' });
      const huge = await bulk(server, fx.headers(), JSON.stringify([{ filename: 'x'.repeat(9 * 1024 * 1024) }]));
      expect(huge.status).toBe(413);
      expect(huge.body.code).toBe('payload_too_large');
    });

    it('checks credentials before anything else, and names an unbound provider', async ({ server, fx }) => {
      const noSecret = await bulk(server, { 'x-service-storage-accesskey': fx.account.accessKey }, []);
      expect(noSecret.body).toMatchObject({ code: 'missing_header', header: 'X-Service-Storage-SecretAccessKey' });
      const wrong = await bulk(server, { ...fx.headers(), 'x-service-storage-secretaccesskey': 'nope' }, '[{');
      expect(wrong.status).toBe(401);
      expect(wrong.body.code).toBe('invalid_credentials');
      const unbound = await bulk(server, fx.headers(), [
        { filename: 'a/b' },
        { filename: 'a/c', provider: 'gcs-main' },
      ]);
      expect(unbound.status).toBe(401);
      expect(unbound.body).toMatchObject({ code: 'provider_not_allowed', provider: 'gcs-main' });
      expect(unbound.body.detail).toContain('gcs-main');
    });
  });
});

describe.each(DIALECTS)('directories and signing mode on %s', (dialect) => {
  const it = restricted[dialect];

  it('answers 403 directory_not_allowed outside the account directories, single and bulk', async ({ server, fx }) => {
    const ok = await getUrl(
      server,
      fx.headers({ 'x-service-storage-filename': 'bob/x.mp4', 'x-service-storage-provider': 'disk' }),
    );
    expect(ok.status).toBe(200);
    for (const name of ['carol/x.mp4', 'x.mp4', 'alicex/y.mp4']) {
      const res = await getUrl(
        server,
        fx.headers({ 'x-service-storage-filename': name, 'x-service-storage-provider': 'disk' }),
      );
      expect(res.status, name).toBe(403);
      expect(res.body.code).toBe('directory_not_allowed');
    }
    const b = await bulk(server, fx.headers(), [{ filename: 'alice/a.mp4' }, { filename: 'carol/b.mp4' }]);
    expect(b.status).toBe(403);
    expect(b.body).toMatchObject({ code: 'directory_not_allowed', filenames: ['carol/b.mp4'] });
  });

  it('signs every provider through the service when STORAGE_SIGNING=true, from the request host without STORAGE_PUBLIC_URL', async ({
    server,
    fx,
  }) => {
    const res = await getUrl(
      server,
      fx.headers({ 'x-service-storage-filename': 'alice/x.mp4', 'x-service-storage-provider': 's3' }),
    );
    expect(res.status).toBe(200);
    const url = new URL(res.body.data);
    expect(`${url.origin}${url.pathname}`).toBe(`${server.url}/api/storage/signed`);
    expect(url.searchParams.get('p')).toBe('s3');
    const e = Number(url.searchParams.get('e')) - Math.floor(Date.now() / 1000);
    expect(e).toBeGreaterThan(1790);
    expect(e).toBeLessThanOrEqual(1800);
  });

  it('refuses an empty expiry header and a repeated provider header', async ({ server, fx }) => {
    const empty = await getUrl(
      server,
      fx.headers({
        'x-service-storage-filename': 'alice/x.mp4',
        'x-service-storage-provider': 'disk',
        'x-service-storage-uriexpirytime': '',
      }),
    );
    expect([empty.status, empty.body.code]).toEqual([400, 'invalid_expiry']);
    const target = new URL(server.url);
    // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON answer, read field by field
    const repeated = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      http
        .get(
          {
            host: target.hostname,
            port: target.port,
            path: '/api/storage',
            headers: {
              ...fx.headers({ 'x-service-storage-filename': 'alice/x.mp4' }),
              'x-service-storage-provider': ['disk', 'disk'],
            },
          },
          (res) => {
            let text = '';
            res.on('data', (c) => {
              text += c;
            });
            res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
          },
        )
        .on('error', reject);
    });
    expect([repeated.status, repeated.body.code, repeated.body.header]).toEqual([
      400,
      'unknown_provider',
      'X-Service-Storage-Provider',
    ]);
  });

  it('refuses a Host header that is not a host and port instead of copying it into the URL', async ({ server, fx }) => {
    const ask = (host: string) =>
      // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON answer, read field by field
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const target = new URL(server.url);
        http
          .get(
            {
              host: target.hostname,
              port: target.port,
              path: '/api/storage',
              setHost: false,
              headers: {
                host,
                ...fx.headers({ 'x-service-storage-filename': 'alice/x.mp4', 'x-service-storage-provider': 'disk' }),
              },
            },
            (res) => {
              let text = '';
              res.on('data', (c) => {
                text += c;
              });
              res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
            },
          )
          .on('error', reject);
      });
    for (const host of ['evil.example/x?y=', 'a@evil.example', '127.0.0.1:1#', 'evil.example:80x']) {
      const res = await ask(host);
      expect([host, res.status, res.body.code]).toEqual([host, 400, 'bad_request']);
    }
    // Two Host headers, written by hand (an HTTP client sends one).
    const target = new URL(server.url);
    const auth = fx.headers({ 'x-service-storage-filename': 'alice/x.mp4', 'x-service-storage-provider': 'disk' });
    const twice = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(target.port), target.hostname, () =>
        socket.write(
          `GET /api/storage HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n${Object.entries(auth)
            .map(([k, v]) => `${k}: ${v}\r\n`)
            .join('')}Connection: close\r\n\r\n`,
        ),
      );
      let text = '';
      socket.on('data', (c: Buffer) => {
        text += c;
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(twice).toMatch(/^HTTP\/1\.1 400 /);
    expect(twice).toContain('"code":"bad_request"');
    for (const host of ['media.example.com', 'media.example.com:8443', '[::1]:8080', '10.0.0.7']) {
      const res = await ask(host);
      expect([host, res.status]).toEqual([host, 200]);
      expect(res.body.data.startsWith(`http://${host}/api/storage/signed?`)).toBe(true);
    }
  });
});
