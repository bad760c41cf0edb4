// The two credential headers of the public routes: one 401 answer for an unknown key, a wrong secret or a disabled account.
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/problem.js';
import { secretMatches } from './account-secret.js';
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

export function requiredHeader(request: FastifyRequest, name: string): string {
  const value = request.headers[name.toLowerCase()];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ApiError(400, 'missing_header', `The header ${name} is required`, { header: name });
  }
  return value;
}

export async function authenticateAccount(request: FastifyRequest): Promise<Account> {
  const accessKey = requiredHeader(request, HEADER.accessKey);
  const secret = requiredHeader(request, HEADER.secret);
  const found = await accountByAccessKey(request.server.store, accessKey);
  const row = found?.row;
  const ok = secretMatches(row?.secret_salt ?? DUMMY.salt, row?.secret_hash ?? DUMMY.hash, secret);
  if (!found || !ok || row!.enabled !== 1) {
    throw new ApiError(401, 'invalid_credentials', 'The access key or secret is wrong, or the account is disabled');
  }
  return found.account;
}
