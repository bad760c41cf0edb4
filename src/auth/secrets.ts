// Random machine secrets (session and access tokens): 256 bits, stored only as SHA-256.
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_PREFIX = 'sls_';
export const ACCESS_TOKEN_PREFIX = 'sla_';

export function newSecret(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** A fast hash is right here: the input has 256 bits of entropy, so there is nothing to brute-force. */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
