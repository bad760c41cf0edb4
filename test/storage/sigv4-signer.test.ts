// A provider's signer reuses its day key and its signed queries: whatever order the URLs come in, each must equal
// the URL a fresh signer makes for the same inputs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SigV4Signer, presignV4, type SigV4Credential } from '../../src/storage/providers/sigv4.js';

const credential: SigV4Credential = {
  origin: 'https://bucket.s3.eu-west-1.amazonaws.com',
  region: 'eu-west-1',
  service: 's3',
  accessKeyId: 'AKIAEXAMPLE',
  secretAccessKey: 'secret/KEY+example',
  layout: 'sdk',
};
const DAY = 86_400_000;

describe('SigV4Signer', () => {
  it('gives every URL of a sequence exactly what a fresh signer gives, across lifetimes, seconds and days', () => {
    const call = fc.record({
      path: fc.constantFrom('/a.mp4', '/cam/1700000000_cam1.mp4', '/x%20y.jpg'),
      expiresIn: fc.constantFrom(1, 60, 3600, 86_400),
      // Within one second, the next second, or the next day.
      step: fc.constantFrom(0, 0, 0, 400, 1000, DAY),
      method: fc.constantFrom('GET', 'HEAD'),
    });
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 30 }), fc.boolean(), (calls, withToken) => {
        const input = withToken ? { ...credential, sessionToken: 'token/with+chars' } : credential;
        const signer = new SigV4Signer(input);
        let now = Date.parse('2026-11-21T23:59:58.500Z');
        for (const c of calls) {
          now += c.step;
          expect(signer.presign(c.method, c.path, c.expiresIn, now)).toBe(
            presignV4({ ...input, method: c.method, path: c.path, expiresIn: c.expiresIn, now }),
          );
        }
      }),
      { numRuns: 300 },
    );
  });
});
