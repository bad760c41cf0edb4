// The two credential headers of the public routes: one 401 answer for an unknown key, a wrong secret or a disabled account.
import type { IncomingHttpHeaders } from 'node:http';
import type { Store } from '../db/store.js';
import type { MaybePromise } from '../util/maybe-promise.js';
import { ApiError } from '../http/problem.js';
import { sameDigest, secretDigest, secretMatches } from './account-secret.js';
import type { Account } from './queries.js';
import { accountByAccessKey, peekAccount } from './row-cache.js';

export const HEADER = {
  fileName: 'X-Service-Storage-FileName',
  provider: 'X-Service-Storage-Provider',
  accessKey: 'X-Service-Storage-AccessKey',
  secret: 'X-Service-Storage-SecretAccessKey',
  expiry: 'X-Service-Storage-UriExpiryTime',
} as const;

// Compared against when the access key is unknown, so both failures cost the same.
const DUMMY = { salt: '00'.repeat(16), hash: '00'.repeat(32) };

// Node lower-cases incoming header names; lower-casing ours once keeps the hot routes from doing it per request.
const LOWER_CASE = new Map<string, string>(Object.values(HEADER).map((name) => [name, name.toLowerCase()]));

export function requiredHeader(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[LOWER_CASE.get(name) ?? name.toLowerCase()];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ApiError(400, 'missing_header', `The header ${name} is required`, { header: name });
  }
  return value;
}

/**
 * The account these headers authenticate. Answered at once (no promise) when the row cache holds the account and the
 * secret it last accepted: that is nearly every request, and the hot routes then run without a microtask.
 */
export function authenticateAccount(store: Store, headers: IncomingHttpHeaders): MaybePromise<Account> {
  const accessKey = requiredHeader(headers, HEADER.accessKey);
  const secret = requiredHeader(headers, HEADER.secret);
  // A cached entry lives only until the account's rows change (see row-cache.ts): a rotated secret or a disabled
  // account is never answered from here. A plain digest of a 256-bit secret is as strong as the salted hash.
  const cached = peekAccount(store, accessKey);
  if (cached?.verified && cached.row.enabled === 1 && sameDigest(secretDigest(secret), cached.verified))
    return cached.account;
  return verifyAccount(store, accessKey, secret);
}

async function verifyAccount(store: Store, accessKey: string, secret: string): Promise<Account> {
  const found = await accountByAccessKey(store, accessKey);
  const row = found?.row;
  const ok = secretMatches(row?.secret_salt ?? DUMMY.salt, row?.secret_hash ?? DUMMY.hash, secret);
  if (!found || !ok || row!.enabled !== 1) {
    throw new ApiError(401, 'invalid_credentials', 'The access key or secret is wrong, or the account is disabled');
  }
  found.verified = secretDigest(secret);
  return found.account;
}
