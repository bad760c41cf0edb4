// onRequest hooks that check the Bearer token before any body is read.
import { headerCount } from '../http/raw-headers.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../http/problem.js';
import { canWriteDetections, isAdministrator } from './roles.js';
import { findPrincipal, type Principal } from './queries.js';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer' };

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  // Node keeps the first of several Authorization headers and drops the rest: which credential is meant is unclear,
  // so none is taken.
  if (headerCount(request.raw.rawHeaders, 'authorization') > 1) return undefined;
  const match = /^Bearer[ ]+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(header);
  return match?.[1];
}

async function authenticate(request: FastifyRequest): Promise<Principal> {
  const token = bearerToken(request);
  if (!token) throw new ApiError(401, 'unauthorized', 'Send Authorization: Bearer <token>', {}, CHALLENGE);
  const principal = await findPrincipal(request.server.store.db, token);
  if (!principal) throw new ApiError(401, 'unauthorized', 'The token is unknown, expired or revoked', {}, CHALLENGE);
  request.principal = principal;
  return principal;
}

export async function requireReader(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  await authenticate(request);
}

export async function requireWriter(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const principal = await authenticate(request);
  if (!canWriteDetections(principal.role)) {
    throw new ApiError(403, 'forbidden', `The role "${principal.role}" has no write access`);
  }
}

/** Writes to the recordings registry: owner/admin users or an application token. */
export async function requireRecordingWriter(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const principal = await authenticate(request);
  if (!isAdministrator(principal.role) && principal.role !== 'application') {
    throw new ApiError(403, 'forbidden', `The role "${principal.role}" cannot change recordings`);
  }
}

/** The authenticated caller; only call behind one of the hooks above. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('route has no authentication hook');
  return request.principal;
}
