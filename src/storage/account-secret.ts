// Account credentials: a public access key and a 256-bit secret kept only as a keyed hash.
import { createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function newAccessKey(): string {
  const bytes = randomBytes(20);
  let out = 'SLAK';
  for (const b of bytes) out += BASE32[b & 31];
  return out;
}

export function newSecretAccessKey(): string {
  return randomBytes(32).toString('base64url');
}

export function newSalt(): string {
  return randomBytes(16).toString('hex');
}

/** HMAC-SHA256 keyed per account: fast is right, the secret has 256 bits of entropy. */
export function hashAccountSecret(salt: string, secret: string): string {
  return createHmac('sha256', Buffer.from(salt, 'hex')).update(secret).digest('hex');
}

export function secretMatches(salt: string, storedHash: string, secret: string): boolean {
  const expected = Buffer.from(storedHash, 'hex');
  const actual = Buffer.from(hashAccountSecret(salt, secret), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * SHA-256 of a secret that already passed the keyed check, for the row cache's repeat checks. One-shot, as a
 * 32-character latin1 string: a Buffer result alone costs more than the hash.
 */
export function secretDigest(secret: string): string {
  return hash('sha256', secret, 'latin1' as 'hex');
}

/** Equal digests from secretDigest, compared without an early exit. */
export function sameDigest(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
