// The two credential headers of the public routes: one 401 answer for an unknown key, a wrong secret or a disabled account.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Store } from '../db/store.js';
import { ApiError } from '../http/problem.js';
import { secretDigest, secretMatches } from './account-secret.js';
import type { Account } from './queries.js';
import { accountByAccessKey } from './row-cache.js';

export const HEADER = {
  fileName: 'X-Service-Storage-FileName',
  provider: 'X-Service-Storage-Provider',
  accessKey: 'X-Service-Storage-AccessKey',
  secret: 'X-Service-Storage-SecretAccessKey',
  expiry: 'X-Service-Storage-UriExpiryTime',
} as const;

// Compared against when the access key is unknown, so both failures cost the same.
const DUMMY = { salt: '00'.repeat(16), hash: '00'.repeat(32) };

export function requiredHeader(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name.toLowerCase()];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ApiError(400, 'missing_header', `The header ${name} is required`, { header: name });
  }
  return value;
}

export async function authenticateAccount(store: Store, headers: IncomingHttpHeaders): Promise<Account> {
  const accessKey = requiredHeader(headers, HEADER.accessKey);
  const secret = requiredHeader(headers, HEADER.secret);
  const found = await accountByAccessKey(store, accessKey);
  if (found?.verified && found.row.enabled === 1) {
    // A cached entry lives only until the account's rows change (see row-cache.ts): a rotated secret or a disabled
    // account is never answered from here. A plain digest of a 256-bit secret is as strong as the salted hash.
    const digest = secretDigest(secret);
    if (digest.length === found.verified.length && timingSafeEqual(digest, found.verified)) return found.account;
  }
  const row = found?.row;
  const ok = secretMatches(row?.secret_salt ?? DUMMY.salt, row?.secret_hash ?? DUMMY.hash, secret);
  if (!found || !ok || row!.enabled !== 1) {
    throw new ApiError(401, 'invalid_credentials', 'The access key or secret is wrong, or the account is disabled');
  }
  found.verified = secretDigest(secret);
  return found.account;
}
