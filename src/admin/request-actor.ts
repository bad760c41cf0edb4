// The administrator behind an admin request: owner or admin of the organisation, by Bearer token.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { principalOf, requireReader } from '../auth/authenticate.js';
import { isAdministrator } from '../auth/roles.js';
import { ApiError } from '../http/problem.js';
import type { Actor } from './actor.js';

/** onRequest: 401 without a valid token, 403 unless the caller is an owner or admin (an access token never is). */
export async function requireAdministrator(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await requireReader(request, reply);
  const { role } = principalOf(request);
  if (!isAdministrator(role))
    throw new ApiError(403, 'forbidden', `The role "${role}" cannot administer the organisation`);
}

/** Who the audit log names: the user (by id and its username now) and the client's address. */
export async function actorOf(request: FastifyRequest): Promise<Actor> {
  const principal = principalOf(request);
  const user = principal.userId
    ? await request.server.store.db
        .selectFrom('users')
        .select('username')
        .where('id', '=', principal.userId)
        .executeTakeFirst()
    : undefined;
  return {
    kind: 'user',
    id: principal.userId ?? principal.tokenId ?? null,
    name: user?.username ?? null,
    role: principal.role,
    address: request.ip,
  };
}

export function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ApiError(400, 'invalid_body', 'The body must be a JSON object');
  return body as Record<string, unknown>;
}
