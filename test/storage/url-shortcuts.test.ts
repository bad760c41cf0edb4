// The hot paths' shortcuts against the plain definitions they stand in for: the filename check's one-pass accept,
// the answers' JSON written without an escaping pass (and the URLs that lets skip their scan), and the one-pass duration parser.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { filenameProblem } from '../../src/storage/filename.js';
import { doublyEncodedMap } from '../../src/storage/url-requests.js';
import { JSON_PLAIN, issuerFor } from '../../src/storage/issue.js';
import type { StorageProvider } from '../../src/storage/providers/types.js';
import { S3Provider } from '../../src/storage/providers/s3.js';
import { AzureProvider } from '../../src/storage/providers/azure.js';
import { GcsProvider } from '../../src/storage/providers/gcs.js';
import { signedUrl } from '../../src/storage/url-token.js';
import { parseDuration } from '../../src/util/duration.js';

// The rules as the spec states them, one at a time (the implementation before its shortcut).
function specProblem(name: string): boolean {
  if (name.length === 0 || /\p{Cs}/u.test(name) || Buffer.byteLength(name, 'utf8') > 1024) return true;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name) || name.startsWith('/') || name.includes('\\')) return true;
  return name.split('/').some((segment) => segment === '' || segment === '.' || segment === '..');
}

const keyText = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'b', '.', '/', '\\', ' ', '\u0000', '\u007f', 'é', '~', '"'), maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer({ min: 1015, max: 1030 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 1015, max: 1030 }).map((n) => `cam/${'y'.repeat(n - 4)}`),
);

describe('filenameProblem', () => {
  it('accepts and refuses exactly what the spec rules do', () => {
    fc.assert(
      fc.property(keyText, (name) => {
        expect(filenameProblem(name) !== undefined, JSON.stringify(name)).toBe(specProblem(name));
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses the edge segments the one-pass check must catch', () => {
    for (const bad of ['.', '..', 'a/.', 'a/..', './b', '../b', 'a/./b', 'a/../b', 'a/', 'a//b', '/a', ''])
      expect(filenameProblem(bad), bad).toBeTypeOf('string');
    for (const ok of ['...', 'a/...', '.a', 'a./b', '..a/b', 'a/b..', 'x'.repeat(1024)])
      expect(filenameProblem(ok), ok).toBeUndefined();
  });
});

// The map as a JSON object in the map's order, encoded twice: what the answer's `data` must be.
function specDoublyEncoded(map: Map<string, string>): string {
  return JSON.stringify(`{${[...map].map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`);
}

describe('doublyEncodedMap', () => {
  it('is the map as a JSON object in request order, encoded twice, for any keys and URLs', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.string({ unit: 'binary', maxLength: 20 }),
      fc.constantFrom('__proto__', 'a"b', 'a\\b', '0', '12', 'https://x/y?a=1&b=%2F'),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text), { maxLength: 8 }), (pairs) => {
        const map = new Map(pairs);
        expect(doublyEncodedMap(map)).toBe(specDoublyEncoded(map));
        expect(JSON.parse(JSON.parse(doublyEncodedMap(map)))).toEqual(Object.fromEntries(map));
      }),
      { numRuns: 1000 },
    );
  });

  it('with URLs vouched for as plain, still scans the keys', () => {
    const key = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('a"b', 'a\\b', '\u0001', '\u2028'));
    const url = fc.string({ unit: fc.constantFrom('a', '/', '?', '=', '&', '%', '~'), maxLength: 30 });
    fc.assert(
      fc.property(fc.array(fc.tuple(key, url), { maxLength: 8 }), (pairs) => {
        const map = new Map(pairs);
        expect(doublyEncodedMap(map, true)).toBe(specDoublyEncoded(map));
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps integer-like filenames in request order on both the one-pass and the escaping path', () => {
    for (const last of ['u', 'u"quoted']) {
      const map = new Map([
        ['b.jpg', 'u1'],
        ['10', 'u2'],
        ['a/2', last],
      ]);
      const inner = JSON.parse(JSON.parse(doublyEncodedMap(map))) as Record<string, string>;
      expect(Object.keys(inner).sort()).toEqual(['10', 'a/2', 'b.jpg']);
      expect(JSON.parse(doublyEncodedMap(map)).indexOf('"b.jpg"')).toBeLessThan(
        JSON.parse(doublyEncodedMap(map)).indexOf('"10"'),
      );
    }
  });
});

// issue.ts writes a URL into JSON without scanning it once one URL of its provider was plain: every part of a URL
// that varies is percent-encoded, whatever the filename (StorageProvider.nativeUrl's contract).
describe('URLs whose fixed parts are plain', () => {
  const gcsKey = JSON.parse(
    fs.readFileSync(path.join(import.meta.dirname, 'fixtures', 'gcs-conformance-key.json'), 'utf8'),
  ) as { client_email: string; private_key: string };
  const providers = [
    new S3Provider(
      's3',
      { bucket: 'b', region: 'eu-west-1', pathStyle: false },
      { accessKeyId: 'AKIA/x+y', secretAccessKey: 's', sessionToken: 'tok/+=' },
      1000,
    ),
    new S3Provider(
      'minio',
      { bucket: 'b', region: 'us-east-1', endpoint: 'http://127.0.0.1:9000/base', pathStyle: true },
      { accessKeyId: 'k', secretAccessKey: 's' },
      1000,
    ),
    new AzureProvider(
      'az',
      { account: 'acct', container: 'videos' },
      { accountKey: Buffer.from('key').toString('base64') },
      1000,
    ),
    new GcsProvider('gcs', { bucket: 'b', clientEmail: gcsKey.client_email }, { privateKey: gcsKey.private_key }, 1000),
  ];
  const filename = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.string({
      unit: fc.constantFrom('"', '\\', '\u0000', '\u001f', 'é', '\u2028', ' ', '%', '/', '?', '#', '&'),
      maxLength: 12,
    }),
  );

  it('every native URL is JSON-plain, for any filename', () => {
    for (const provider of providers) {
      fc.assert(
        fc.property(filename, fc.integer({ min: 1, max: 604800 }), (name, seconds) => {
          const url = provider.nativeUrl(name, 1_700_000_000 + seconds, 1_700_000_000_000)!;
          expect(JSON_PLAIN.test(url), `${provider.name}: ${url}`).toBe(true);
        }),
        { numRuns: provider.type === 'gcs' ? 50 : 500 },
      );
    }
  });

  it('every service-signed URL on a plain base is JSON-plain, for any account, provider and filename', () => {
    fc.assert(
      fc.property(filename, filename, filename, (account, provider, name) => {
        const url = signedUrl('https://media.example.com/', 'k'.repeat(32), {
          account,
          provider,
          filename: name,
          expiresAt: 1_700_000_000,
        });
        expect(JSON_PLAIN.test(url), url).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

// The duration grammar as a regular expression (the parser before its one-pass form). Whitespace is not part of it.
function specDuration(input: string): number | undefined {
  const text = input;
  if (/^\d+$/.test(text)) return Number.isSafeInteger(Number(text)) ? Number(text) : undefined;
  if (!/^(?:\d+[smhd])+$/.test(text)) return undefined;
  const unit: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };
  let total = 0;
  for (const [, amount, u] of text.matchAll(/(\d+)([smhd])/g)) total += Number(amount) * unit[u!]!;
  return Number.isSafeInteger(total) ? total : undefined;
}

describe('parseDuration', () => {
  it('reads exactly what the grammar reads, to the same number of seconds', () => {
    const text = fc.oneof(
      fc.string({
        unit: fc.constantFrom('0', '1', '5', '9', 's', 'm', 'h', 'd', 'x', ' ', '\t', '-', '.', '٣'),
        maxLength: 12,
      }),
      fc
        .array(fc.tuple(fc.nat({ max: 10_000 }), fc.constantFrom('s', 'm', 'h', 'd', '')), { maxLength: 4 })
        .map((pairs) => pairs.map(([n, u]) => `${n}${u}`).join('')),
      fc.bigInt({ min: 0n, max: 10n ** 20n }).map((n) => `${n}${['', 's', 'd'][Number(n % 3n)]}`),
    );
    fc.assert(
      fc.property(text, (t) => {
        expect(parseDuration(t), JSON.stringify(t)).toBe(specDuration(t));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('issuerFor', () => {
  const account = {
    name: 'acme',
    orgId: null,
    providers: ['p'],
    directories: ['*'],
    defaultProvider: 'p',
  } as unknown as Parameters<typeof issuerFor>[1];
  const app = { config: { storage: { signing: false, urlSigningKeys: ['k'.repeat(32)] } } } as unknown as Parameters<
    typeof issuerFor
  >[0];
  const fixed = (name: string, url: string) =>
    ({ name, type: 's3', nativeUrl: () => url }) as unknown as StorageProvider;

  it('vouches for its URLs only while every one of them is plain', () => {
    const issuer = issuerFor(app, account, () => 'https://x');
    expect(issuer.issue(fixed('plain', 'https://h/a?b=%22'), 'a', 60)).toBe('https://h/a?b=%22');
    expect(issuer.plain).toBe(true);
    expect(issuer.issue(fixed('quoted', 'https://h/"a"'), 'a', 60)).toBe('https://h/"a"');
    expect(issuer.plain).toBe(false);
    // A provider once seen plain does not make the issuer plain again.
    issuer.issue(fixed('plain', 'https://h/a'), 'a', 60);
    expect(issuer.plain).toBe(false);
  });

  it('scans every URL of a provider until one of them was plain', () => {
    const provider = fixed('endpoint with a quote', 'https://h/"/a');
    for (let i = 0; i < 3; i++) {
      const issuer = issuerFor(app, account, () => 'https://x');
      issuer.issue(provider, 'a', 60);
      expect(issuer.plain).toBe(false);
    }
  });
});
