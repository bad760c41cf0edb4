import { createHash, createHmac, createVerify, generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { filenameProblem, directoryAllowed, headerToUtf8 } from '../../src/storage/filename.js';
import { parseExpiry } from '../../src/util/expiry.js';
import { canonicalString, parseSignedQuery, signToken, verifyToken } from '../../src/storage/url-token.js';
import { decideRange, notModified, parseHttpDate, preconditionFailed } from '../../src/storage/http-range.js';
import { loadConfig } from '../../src/config.js';
import { open, seal } from '../../src/storage/secret-box.js';
import { hashAccountSecret, newSecretAccessKey, newSalt, secretMatches } from '../../src/storage/account-secret.js';
import { presignV4 } from '../../src/storage/providers/sigv4.js';
import { AzureProvider, azureStringToSign, parseConnectionString } from '../../src/storage/providers/azure.js';
import { GcsProvider, gcsCanonical } from '../../src/storage/providers/gcs.js';
import { checkProviderConfig } from '../../src/storage/provider-config.js';

describe('filenames', () => {
  it('accepts ordinary keys and rejects each forbidden form', () => {
    for (const ok of [
      'a.mp4',
      'alice/1700000000_cam1.mp4',
      'a/b/c d+e%20.jpg',
      'é/ü.mp4',
      'a/..b/c..',
      `a/${'x'.repeat(1022)}`,
    ])
      expect(filenameProblem(ok), ok).toBeUndefined();
    for (const bad of [
      '',
      '/a',
      'a\\b',
      'a//b',
      'a/',
      './a',
      'a/./b',
      'a/../b',
      '..',
      'a\u0000b',
      'a\nb',
      'a\u0085b',
      'x'.repeat(1025),
      'é'.repeat(513),
      'a\ud800b',
    ]) {
      expect(filenameProblem(bad), JSON.stringify(bad)).toBeTypeOf('string');
    }
  });

  it('matches directories on the top-level segment only', () => {
    expect(directoryAllowed(['*'], 'x.mp4')).toBe(true);
    expect(directoryAllowed(['alice'], 'alice/x.mp4')).toBe(true);
    expect(directoryAllowed(['alice'], 'alice2/x.mp4')).toBe(false);
    expect(directoryAllowed(['alice'], 'alice')).toBe(false);
    expect(directoryAllowed(['Alice'], 'alice/x')).toBe(false);
  });

  it('decodes UTF-8 header bytes and refuses invalid sequences', () => {
    expect(headerToUtf8(Buffer.from('é/ü.mp4').toString('latin1'))).toBe('é/ü.mp4');
    expect(headerToUtf8('\u00ff\u00fe')).toBeUndefined();
  });
});

describe('expiry', () => {
  it('parses seconds, digit strings and durations within 1 s – 7 d', () => {
    expect(parseExpiry(90)).toBe(90);
    expect(parseExpiry('90')).toBe(90);
    expect(parseExpiry('1h30m')).toBe(5400);
    expect(parseExpiry('7d')).toBe(604_800);
    for (const bad of [
      0,
      -1,
      1.5,
      604_801,
      '0s',
      '8d',
      '',
      ' ',
      'h',
      '1x',
      '1h 30m',
      ' 1h',
      '1h\n',
      '\t60',
      ' 60 ',
      '\u00a060',
      null,
      true,
      {},
    ])
      expect(parseExpiry(bad), String(bad)).toBeUndefined();
  });
});

describe('service-signed tokens', () => {
  const t = { account: 'acct', provider: 'disk', filename: 'alice/x.mp4', expiresAt: 1_900_000_000 };

  it('verifies with any configured key and rejects any change', () => {
    const s = signToken('k1', t);
    expect(s).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(verifyToken(['k0', 'k1'], t, s)).toBe(true);
    expect(verifyToken(['k0'], t, s)).toBe(false);
    expect(verifyToken(['k1'], { ...t, expiresAt: t.expiresAt + 1 }, s)).toBe(false);
    expect(verifyToken(['k1'], t, `${s.slice(0, -1)}${s.endsWith('A') ? 'B' : 'A'}`)).toBe(false);
    expect(verifyToken(['k1'], t, 'short')).toBe(false);
  });

  it('never gives two different tuples the same canonical string', () => {
    const tuple = fc.record({
      account: fc.string(),
      provider: fc.string(),
      filename: fc.string(),
      expiresAt: fc.nat(),
    });
    fc.assert(
      fc.property(tuple, tuple, (x, y) => {
        const same =
          x.account === y.account &&
          x.provider === y.provider &&
          x.filename === y.filename &&
          x.expiresAt === y.expiresAt;
        return same === (canonicalString(x) === canonicalString(y));
      }),
      { numRuns: 2000 },
    );
    // The classic delimiter collision: moving a separator between fields.
    expect(canonicalString({ ...t, account: 'a|b', provider: 'c' })).not.toBe(
      canonicalString({ ...t, account: 'a', provider: 'b|c' }),
    );
  });

  it('parses the query strictly', () => {
    const s = signToken('k', t);
    expect(parseSignedQuery({ a: 'acct', p: 'disk', f: 'alice/x.mp4', e: '1900000000', s }).ok).toBe(true);
    expect(parseSignedQuery({ a: ['x', 'y'], p: 'disk', f: 'alice/x.mp4', e: '1', s }).ok).toBe(false);
    expect(parseSignedQuery({ a: 'acct', p: 'disk', f: '../x', e: '1', s }).ok).toBe(false);
    expect(parseSignedQuery({ a: 'acct', p: 'disk', f: 'x', e: '1e9', s }).ok).toBe(false);
    expect(parseSignedQuery({ a: 'acct', p: 'disk', f: 'alice/x.mp4', e: '1900000000', s })).toMatchObject({
      ok: true,
      exact: true,
    });
    expect(parseSignedQuery({ a: 'acct', p: 'disk', f: 'alice/x.mp4', e: '01900000000', s })).toMatchObject({
      ok: true,
      exact: false,
    });
  });
});

describe('HTTP-dates', () => {
  it('reads the three forms of RFC 9110 §5.6.7 and nothing else', () => {
    const at = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(at);
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(at);
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994')).toBe(at);
    for (const bad of [
      '2030',
      '1994-11-06T08:49:37Z',
      'Sun, 06 Nov 1994 08:49:37 UTC',
      'Sun, 31 Feb 1994 08:49:37 GMT',
      'Sun, 06 Nov 1994 24:49:37 GMT',
      'Sun, 6 Nov 1994 08:49:37 GMT',
      '',
      'garbage',
    ]) {
      expect(parseHttpDate(bad), bad).toBeUndefined();
    }
  });
  it('agrees with toUTCString for any instant', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 253402300799 }),
        (s) => parseHttpDate(new Date(s * 1000).toUTCString()) === s * 1000,
      ),
    );
  });
});

describe('STORAGE_PUBLIC_URL', () => {
  it('takes an http(s) base, without a trailing slash, and refuses what would bend the URLs built on it', () => {
    expect(loadConfig({}, { STORAGE_PUBLIC_URL: 'https://cdn.example.com/media/' }).storage.publicUrl).toBe(
      'https://cdn.example.com/media',
    );
    for (const bad of [
      'https://cdn.example.com/media/?x=1',
      'https://cdn.example.com/#a',
      'https://u:p@cdn.example.com',
      'javascript:alert(1)',
      'cdn.example.com',
      'https://cdn.example.com/?',
    ]) {
      expect(() => loadConfig({}, { STORAGE_PUBLIC_URL: bad }), bad).toThrow(/STORAGE_PUBLIC_URL/);
    }
  });

  it("does not repeat a credential or query it refuses in its message (the message goes to the service's log)", () => {
    for (const bad of [
      'https://user:pubpass1@media.example.com',
      'https://:pubpass1@media.example.com/x',
      'https://media.example.com/?sig=pubpass1',
      'http://pubpass1@media.example.com',
      'https://user:pub/pass1@media.example.com',
      'https://user:pub#pass1@h',
      'user:pubpass1@media.example.com',
    ]) {
      expect(() => loadConfig({}, { STORAGE_PUBLIC_URL: bad }), bad).toThrow(/STORAGE_PUBLIC_URL/);
      expect(() => loadConfig({}, { STORAGE_PUBLIC_URL: bad }), bad).not.toThrow(/pubpass1/);
    }
  });
});

describe('ranges and conditionals', () => {
  const v = { etag: '"abc"', lastModified: new Date('2024-01-01T00:00:00.500Z') };
  it('decides single ranges and ignores what it may ignore', () => {
    expect(decideRange({ range: 'bytes=0-9' }, 100, v)).toEqual({ kind: 'partial', start: 0, end: 9 });
    expect(decideRange({ range: 'bytes=90-' }, 100, v)).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(decideRange({ range: 'bytes=-500' }, 100, v)).toEqual({ kind: 'partial', start: 0, end: 99 });
    expect(decideRange({ range: 'bytes=100-' }, 100, v)).toEqual({ kind: 'unsatisfiable' });
    expect(decideRange({ range: 'bytes=-0' }, 100, v)).toEqual({ kind: 'unsatisfiable' });
    expect(decideRange({ range: 'bytes=0-1,5-6' }, 100, v)).toEqual({ kind: 'full' });
    expect(decideRange({ range: 'items=0-1' }, 100, v)).toEqual({ kind: 'full' });
    expect(decideRange({ range: 'bytes=5-1' }, 100, v)).toEqual({ kind: 'full' });
    expect(decideRange({ range: 'bytes=0-1', ifRange: '"old"' }, 100, v)).toEqual({ kind: 'full' });
    expect(decideRange({ range: 'bytes=0-1', ifRange: '"abc"' }, 100, v)).toEqual({
      kind: 'partial',
      start: 0,
      end: 1,
    });
  });
  it('answers the whole object for an If-Range date, even the matching one (two versions can share a second)', () => {
    expect(decideRange({ range: 'bytes=0-1', ifRange: 'Mon, 01 Jan 2024 00:00:00 GMT' }, 100, v)).toEqual({
      kind: 'full',
    });
    expect(decideRange({ range: 'bytes=0-1', ifRange: 'Mon, 01 Jan 2024 00:00:01 GMT' }, 100, v)).toEqual({
      kind: 'full',
    });
  });
  it('fails If-Match unless a strong tag matches, and If-Unmodified-Since only without If-Match', () => {
    expect(preconditionFailed({ ifMatch: '"abc"' }, v)).toBe(false);
    expect(preconditionFailed({ ifMatch: '*' }, v)).toBe(false);
    expect(preconditionFailed({ ifMatch: 'W/"abc"' }, v)).toBe(true);
    expect(preconditionFailed({ ifMatch: '"x"', ifUnmodifiedSince: 'Mon, 01 Jan 2024 00:00:00 GMT' }, v)).toBe(true);
    expect(preconditionFailed({ ifUnmodifiedSince: 'Mon, 01 Jan 2024 00:00:00 GMT' }, v)).toBe(false);
    expect(preconditionFailed({ ifUnmodifiedSince: 'Sun, 31 Dec 2023 23:59:59 GMT' }, v)).toBe(true);
    expect(preconditionFailed({ ifUnmodifiedSince: '2023' }, v)).toBe(false);
    expect(decideRange({ range: 'bytes=-5' }, 0, v)).toEqual({ kind: 'full' });
  });
  it('answers not-modified by tag first, then by date at second precision', () => {
    expect(notModified({ ifNoneMatch: 'W/"abc"' }, v)).toBe(true);
    expect(notModified({ ifNoneMatch: '"x", "abc"' }, v)).toBe(true);
    expect(notModified({ ifNoneMatch: '"x"', ifModifiedSince: 'Mon, 01 Jan 2024 00:00:00 GMT' }, v)).toBe(false);
    expect(notModified({ ifModifiedSince: 'Mon, 01 Jan 2024 00:00:00 GMT' }, v)).toBe(true);
    expect(notModified({ ifModifiedSince: 'Sun, 31 Dec 2023 23:59:59 GMT' }, v)).toBe(false);
    expect(notModified({ ifModifiedSince: 'garbage' }, v)).toBe(false);
  });
});

describe('secrets at rest', () => {
  it('seals provider credentials so that only the same key and row open them', () => {
    const sealed = seal('master', 'row1', '{"secretAccessKey":"s3cr3t"}');
    expect(sealed).not.toContain('s3cr3t');
    expect(open('master', 'row1', sealed)).toBe('{"secretAccessKey":"s3cr3t"}');
    expect(() => open('other', 'row1', sealed)).toThrow(/different SIGHTLINE_MASTER_KEY/);
    expect(() => open('master', 'row2', sealed)).toThrow();
  });
  it('keeps account secrets as keyed hashes', () => {
    const secret = newSecretAccessKey();
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    const salt = newSalt();
    const hash = hashAccountSecret(salt, secret);
    expect(hash).not.toContain(secret);
    expect(secretMatches(salt, hash, secret)).toBe(true);
    expect(secretMatches(salt, hash, `${secret}x`)).toBe(false);
    expect(secretMatches(newSalt(), hash, secret)).toBe(false);
  });
});

describe('native presigned URLs', () => {
  it('matches the AWS SigV4 query-presigning example of the S3 documentation', () => {
    const url = presignV4({
      method: 'GET',
      origin: 'https://examplebucket.s3.amazonaws.com',
      path: '/test.txt',
      region: 'us-east-1',
      service: 's3',
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      expiresIn: 86_400,
      now: Date.parse('2013-05-24T00:00:00Z'),
    });
    expect(new URL(url).searchParams.get('X-Amz-Signature')).toBe(
      'aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
    );
  });

  it('builds a read-only Azure service SAS whose signature is HMAC-SHA256 of the documented string', () => {
    const key = Buffer.alloc(64, 7).toString('base64');
    const p = new AzureProvider('az', { account: 'acct', container: 'videos' }, { accountKey: key }, 1000);
    const url = new URL(p.nativeUrl('alice/a b.mp4', 1_900_000_000));
    expect(url.origin + url.pathname).toBe('https://acct.blob.core.windows.net/videos/alice/a%20b.mp4');
    expect(url.searchParams.get('sp')).toBe('r');
    expect(url.searchParams.get('sr')).toBe('b');
    expect(url.searchParams.get('se')).toBe('2030-03-17T17:46:40Z');
    const toSign = azureStringToSign('acct', 'videos', 'alice/a b.mp4', 'r', '2030-03-17T17:46:40Z');
    expect(toSign.split('\n')).toHaveLength(16);
    expect(url.searchParams.get('sig')).toBe(
      createHmac('sha256', Buffer.from(key, 'base64')).update(toSign).digest('base64'),
    );
    // The public cloud's suffix is the default endpoint, not one of its own; another cloud's is.
    expect(
      parseConnectionString(
        'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=abc=;EndpointSuffix=core.windows.net',
      ),
    ).toEqual({ account: 'acct', accountKey: 'abc=' });
    expect(
      parseConnectionString(
        'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=abc=;EndpointSuffix=core.chinacloudapi.cn',
      ),
    ).toEqual({ account: 'acct', accountKey: 'abc=', endpoint: 'https://acct.blob.core.chinacloudapi.cn' });
  });

  it('builds a GCS V4 signed URL that verifies against the service account public key', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const settings = { bucket: 'media', clientEmail: 'signer@proj.iam.gserviceaccount.com' };
    const now = Date.parse('2024-05-01T12:00:00Z');
    const p = new GcsProvider('gcs', settings, { privateKey: pem }, 1000);
    const url = new URL(p.nativeUrl('alice/x.mp4', Math.floor(now / 1000) + 600, now));
    expect(url.host).toBe('storage.googleapis.com');
    expect(url.pathname).toBe('/media/alice/x.mp4');
    expect(url.searchParams.get('X-Goog-Credential')).toBe(
      'signer@proj.iam.gserviceaccount.com/20240501/auto/storage/goog4_request',
    );
    expect(url.searchParams.get('X-Goog-Expires')).toBe('600');
    const c = gcsCanonical(settings, 'GET', 'alice/x.mp4', 600, now);
    expect(c.stringToSign.split('\n')[3]).toBe(createHash('sha256').update(c.canonicalRequest).digest('hex'));
    const ok = createVerify('RSA-SHA256')
      .update(c.stringToSign)
      .verify(publicKey, url.searchParams.get('X-Goog-Signature')!, 'hex');
    expect(ok).toBe(true);
  });

  it('checks provider configuration per type and keeps credentials out of the settings', () => {
    const s3 = checkProviderConfig('s3', { bucket: 'b-1', accessKeyId: 'AK', secretAccessKey: 'SK' });
    expect(s3.ok && s3.value.settings).toEqual({ bucket: 'b-1', region: 'us-east-1', pathStyle: false });
    expect(s3.ok && s3.value.secret).toEqual({ accessKeyId: 'AK', secretAccessKey: 'SK' });
    expect(checkProviderConfig('s3', { bucket: 'b', accessKeyId: 'AK' }).ok).toBe(false);
    expect(checkProviderConfig('s3', { bucket: 'b-1', accessKeyId: 'AK', secretAccessKey: 'SK', typo: 1 }).ok).toBe(
      false,
    );
    expect(checkProviderConfig('gcs', { bucket: 'b', clientEmail: 'x@y', privateKey: 'not a key' }).ok).toBe(false);
    expect(checkProviderConfig('fs', { root: '/srv/media' })).toEqual({
      ok: true,
      value: { settings: { root: '/srv/media' } },
    });
    // The endpoint is a setting, shown by `provider list`: a password in it would be a credential in clear.
    for (const endpoint of ['http://:pw@127.0.0.1:9000', 'http://user@127.0.0.1:9000', 'http://u:pw@127.0.0.1:9000']) {
      expect(
        checkProviderConfig('s3', { bucket: 'b-1', accessKeyId: 'AK', secretAccessKey: 'SK', endpoint }).ok,
        endpoint,
      ).toBe(false);
    }
  });
});
