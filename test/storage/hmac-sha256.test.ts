// The prepared-key HMAC against node:crypto's, and the URI encoder's shortcut against the full encoding.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HmacSha256, type MacEncoding } from '../../src/storage/hmac-sha256.js';
import { uriEncode } from '../../src/storage/providers/sigv4.js';

const encodings: MacEncoding[] = ['hex', 'base64', 'base64url'];

describe('HmacSha256', () => {
  it('equals createHmac for any key and message, in every encoding', () => {
    const key = fc.oneof(
      fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
      fc.string({ unit: 'binary', maxLength: 100 }),
    );
    // Up to past the fast path's capacity (4096 UTF-8 bytes), with multi-byte characters.
    const message = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.string({ unit: 'grapheme', minLength: 1300, maxLength: 1500 }),
      fc.string({ maxLength: 5000 }),
    );
    fc.assert(
      fc.property(key, message, fc.constantFrom(...encodings), (k, m, encoding) => {
        expect(new HmacSha256(k).digest(m, encoding)).toBe(createHmac('sha256', k).update(m).digest(encoding));
      }),
      { numRuns: 400 },
    );
  });

  it('keeps keys apart when calls interleave (the scratch buffers are shared)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 80 }), fc.string({ maxLength: 200 })), {
          minLength: 2,
          maxLength: 8,
        }),
        (pairs) => {
          const macs = pairs.map(([k]) => new HmacSha256(Buffer.from(k)));
          const first = pairs.map(([, m], i) => macs[i]!.digest(m, 'hex'));
          const again = pairs.map((_, i) =>
            macs[(i + 1) % pairs.length]!.digest(pairs[(i + 1) % pairs.length]![1], 'hex'),
          );
          pairs.forEach(([k, m], i) => {
            expect(first[i]).toBe(createHmac('sha256', k).update(m).digest('hex'));
          });
          again.forEach((mac, i) => {
            expect(mac).toBe(first[(i + 1) % pairs.length]);
          });
        },
      ),
    );
  });

  it('gives the RFC 4231 test case 2 value', () => {
    expect(new HmacSha256('Jefe').digest('what do ya want for nothing?', 'hex')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('returns the raw MAC as bytes', () => {
    expect(new HmacSha256('k').digestBytes('m').equals(createHmac('sha256', 'k').update('m').digest())).toBe(true);
  });
});

describe('uriEncode', () => {
  // Byte by byte, as RFC 3986 and AWS's documentation put it: unreserved characters stay, all else is %XX.
  const reference = (text: string, keepSlash: boolean) =>
    [...Buffer.from(text, 'utf8')]
      .map((b) => {
        const c = String.fromCharCode(b);
        return /[A-Za-z0-9\-._~]/.test(c) || (keepSlash && c === '/')
          ? c
          : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
      })
      .join('');

  it('equals the full RFC 3986 encoding, with and without "/" kept, for any well-formed text', () => {
    const text = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9\-._~/]{0,40}$/),
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.string({ unit: fc.constantFrom('a', '/', ' ', '%', '~', '!', '*', 'é', '+'), maxLength: 20 }),
    );
    fc.assert(
      fc.property(text, fc.boolean(), (t, keepSlash) => {
        expect(uriEncode(t, keepSlash)).toBe(reference(t, keepSlash));
      }),
      { numRuns: 500 },
    );
  });
});
