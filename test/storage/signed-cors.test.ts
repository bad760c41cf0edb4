// Signed URLs from other origins (CORS), hosts in service-signed URLs, the default provider, and edge expiries.
import http from 'node:http';
import { describe, expect } from 'vitest';
import { storageTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { signedUrl } from '../../src/storage/url-token.js';
import { SIGNING_KEY, STORAGE_ENV, getUrl, writeObject } from './helpers.js';

const signing = storageTests({ env: { ...STORAGE_ENV, STORAGE_SIGNING: 'true' } });
const production = storageTests({ env: { ...STORAGE_ENV, NODE_ENV: 'production' } });
const allowList = storageTests({
  env: { ...STORAGE_ENV, STORAGE_SIGNING: 'true', STORAGE_ALLOWED_HOSTS: 'Media.internal:8080, other.internal' },
});

/** GET /api/storage with a Host of the test's choosing (fetch sets its own). */
function getWithHost(url: string, host: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: { data?: string; code?: string } }>((resolve, reject) => {
    const req = http.get(`${url}/api/storage`, { headers: { ...headers, host } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
  });
}

describe.each(DIALECTS)('signed URLs across origins and hosts on %s', (dialect) => {
  const it = signing[dialect];

  it('answers every signed route with Access-Control-Allow-Origin: * and the range headers exposed', async ({
    server,
    fx,
  }) => {
    writeObject(fx.root, 'alice/clip.mp4', Buffer.alloc(1000, 7));
    const res = await getUrl(
      server,
      fx.headers({ 'x-service-storage-filename': 'alice/clip.mp4', 'x-service-storage-provider': 'disk' }),
    );
    const url: string = res.body.data;
    const origin = { origin: 'https://player.example' };
    for (const [method, target, extra, status] of [
      ['GET', url, { range: 'bytes=0-9' }, 206],
      ['HEAD', url, {}, 200],
      ['GET', url.replace('/signed?', '/signed/validate?'), {}, 200],
      ['GET', url.replace(/s=[^&]+/, `s=${'A'.repeat(43)}`), {}, 403],
    ] as const) {
      const answer = await fetch(target, { method, headers: { ...origin, ...extra } });
      expect(answer.status, `${method} ${target}`).toBe(status);
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
      const exposed = (answer.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/\s*,\s*/);
      expect(exposed).toEqual(expect.arrayContaining(['content-range', 'accept-ranges', 'content-length', 'etag']));
      await answer.arrayBuffer();
    }
  });

  it('answers a preflight for Range and the conditional headers with 204', async ({ server }) => {
    for (const path of ['/api/storage/signed', '/api/storage/signed/validate']) {
      const res = await fetch(`${server.url}${path}?a=x&p=y&f=z&e=1&s=t`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://player.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'range,if-range,if-match,if-none-match,if-modified-since',
        },
      });
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toMatch(/GET/);
      const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
      expect(allowed).toEqual(
        expect.arrayContaining(['range', 'if-range', 'if-match', 'if-none-match', 'if-modified-since']),
      );
      expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    }
  });

  it('refuses a validly signed URL that expires after year 9999 as malformed, never with a 500', async ({
    server,
    fx,
  }) => {
    writeObject(fx.root, 'alice/far.mp4', 'far');
    for (const expiresAt of [253_402_300_800, 999_999_999_999]) {
      const url = signedUrl(server.url, SIGNING_KEY, {
        account: fx.account.name,
        provider: 'disk',
        filename: 'alice/far.mp4',
        expiresAt,
      });
      const verdict = await fetch(url.replace('/signed?', '/signed/validate?'));
      expect(verdict.status).toBe(200);
      expect((await verdict.json()).data).toMatchObject({ valid: false, reason: 'malformed', expiresAt: null });
      const get = await fetch(url);
      expect(get.status).toBe(400);
      expect((await get.json()).code).toBe('invalid_signed_url');
    }
    // The last second of 9999 is still a date (and long past any lifetime this service issues, but validly signed).
    const last = signedUrl(server.url, SIGNING_KEY, {
      account: fx.account.name,
      provider: 'disk',
      filename: 'alice/far.mp4',
      expiresAt: 253_402_300_799,
    });
    const verdict = await (await fetch(last.replace('/signed?', '/signed/validate?'))).json();
    expect(verdict.data).toMatchObject({ valid: true, expiresAt: '9999-12-31T23:59:59.000Z' });
  });

  it("uses the account's default provider when X-Service-Storage-Provider is absent", async ({ server, fx }) => {
    const res = await getUrl(server, fx.headers({ 'x-service-storage-filename': 'alice/a.mp4' }));
    expect(res.status).toBe(200);
    expect(new URL(res.body.data).searchParams.get('p')).toBe('disk');
  });

  it('lists the providers the account may use in provider_not_allowed', async ({ server, fx }) => {
    const res = await getUrl(
      server,
      fx.headers({ 'x-service-storage-filename': 'alice/a.mp4', 'x-service-storage-provider': 'elsewhere' }),
    );
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'provider_not_allowed', providers: ['elsewhere'] });
    expect([...res.body.allowedProviders].sort()).toEqual(['disk', 's3']);
  });
});

describe.each(DIALECTS)('hosts in service-signed URLs on %s', (dialect) => {
  production[dialect](
    'in production, without STORAGE_PUBLIC_URL: 421 host_not_allowed; native URLs still issued',
    async ({ server, fx }) => {
      const fs = await getWithHost(server.url, 'evil.example', {
        ...fx.headers({ 'x-service-storage-filename': 'alice/a.mp4', 'x-service-storage-provider': 'disk' }),
      });
      expect(fs.status).toBe(421);
      expect(fs.body.code).toBe('host_not_allowed');
      const s3 = await getWithHost(server.url, 'evil.example', {
        ...fx.headers({ 'x-service-storage-filename': 'alice/a.mp4', 'x-service-storage-provider': 's3' }),
      });
      expect(s3.status).toBe(200);
      expect(s3.body.data).not.toContain('evil.example');
    },
  );

  allowList[dialect]('takes the Host only from STORAGE_ALLOWED_HOSTS when it is set', async ({ server, fx }) => {
    const headers = fx.headers({ 'x-service-storage-filename': 'alice/a.mp4', 'x-service-storage-provider': 'disk' });
    const listed = await getWithHost(server.url, 'media.INTERNAL:8080', headers);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toMatch(/^http:\/\/media\.INTERNAL:8080\/api\/storage\/signed\?/);
    const other = await getWithHost(server.url, 'evil.example', headers);
    expect(other.status).toBe(421);
    expect(other.body.code).toBe('host_not_allowed');
  });
});
