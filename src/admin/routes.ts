// The admin HTTP API under /admin/: the organisation's people, access tokens, settings and audit log, for its
// owners and admins (Bearer). Everything is scoped to the caller's organisation: another organisation's user or
// token is 404, as if it did not exist. Bodies are checked by validate.ts (400 invalid_field naming the field).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { principalOf } from '../auth/authenticate.js';
import { DOCUMENTED_RESPONSES, jsonResponse } from '../http/openapi-docs.js';
import { ApiError } from '../http/problem.js';
import { skipSchemaValidation } from '../http/skip-validation.js';
import {
  AuditQuery,
  AuditResult,
  CreatedTokenResult,
  CreatedUserResult,
  DeletedUserResult,
  IdParam,
  InvitationResult,
  NewTokenBody,
  NewUserBody,
  OrganisationPatchBody,
  OrganisationResult,
  PasswordBody,
  PasswordResult,
  TokenList,
  TokenParam,
  TokenResult,
  UserList,
  UserPatchBody,
  UserResult,
} from './api-schemas.js';
import { MAX_AUDIT_PAGE, listAudit } from './audit.js';
import { readInvitation, redeemInvitation } from './invitations.js';
import { getOrganisation, updateOrganisation } from './organisation.js';
import { actorOf, objectBody, requireAdministrator } from './request-actor.js';
import { createOrgToken, listOrgTokens, revokeOrgToken } from './tokens.js';
import { changeUserRole, createOrgUser, deleteOrgUser, getOrgUser, listOrgUsers, resetUserPassword } from './users.js';
import { checkMembers } from './validate.js';

const secured = [{ bearer: [] }];

interface Shapes {
  body?: TSchema;
  params?: TSchema;
  querystring?: TSchema;
  ok: Record<number, TSchema>;
}

function parseLimit(value: unknown): number {
  if (value === undefined || value === '') return 50;
  const n = typeof value === 'string' && /^\d{1,4}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_AUDIT_PAGE)
    throw new ApiError(400, 'invalid_field', `limit must be an integer from 1 to ${MAX_AUDIT_PAGE}`, {
      field: 'limit',
    });
  return n;
}

export async function adminRoutes(app: FastifyInstance): Promise<void> {
  const db = () => app.store.db;
  const opts = (summary: string, description: string, shapes: Shapes, tags = ['admin'], isPublic = false) => ({
    ...(isPublic ? {} : { onRequest: requireAdministrator }),
    validatorCompiler: skipSchemaValidation,
    schema: {
      tags,
      summary,
      description,
      security: isPublic ? [] : secured,
      ...(shapes.body ? { body: shapes.body } : {}),
      ...(shapes.params ? { params: shapes.params } : {}),
      ...(shapes.querystring ? { querystring: shapes.querystring } : {}),
      [DOCUMENTED_RESPONSES]: Object.fromEntries(
        Object.entries(shapes.ok).map(([status, shape]) => [status, jsonResponse(summary, shape)]),
      ),
    },
  });
  const org = (request: FastifyRequest) => principalOf(request).orgId;
  const id = (request: FastifyRequest) => (request.params as { id: string }).id;
  const ADMINS = 'Owners and admins of the organisation; others 403 forbidden.';

  app.get(
    '/admin/users',
    opts('List the organisation’s users (never a password)', ADMINS, { ok: { 200: UserList } }),
    async (request) => ({ data: await listOrgUsers(db(), org(request)) }),
  );

  app.post(
    '/admin/users',
    opts(
      'Create a user with a password, or invite one',
      `${ADMINS} With invite: true (and no password) the answer carries invitation.token, shown only this once: the user redeems it at POST /invitations/{token} by choosing a password. Usernames are unique across the service: 409 username_taken. Only an owner may create an owner (403).`,
      { body: NewUserBody, ok: { 201: CreatedUserResult } },
    ),
    async (request, reply) => {
      const body = objectBody(request.body);
      checkMembers(body, ['username', 'role', 'password', 'invite', 'expiresIn']);
      const created = await createOrgUser(db(), org(request), await actorOf(request), body);
      reply.code(201).header('Cache-Control', 'no-store');
      return { data: created };
    },
  );

  app.get(
    '/admin/users/:id',
    opts('One user of the organisation', `${ADMINS} Another organisation's user is 404 user_not_found.`, {
      params: IdParam,
      ok: { 200: UserResult },
    }),
    async (request) => ({ data: await getOrgUser(db(), org(request), { id: id(request) }) }),
  );

  app.patch(
    '/admin/users/:id',
    opts(
      'Change a user’s role',
      `${ADMINS} Body { role }. The organisation's last owner cannot be demoted: 409 last_owner. Only an owner gives or takes the owner role (403). Sessions carry the new role from their next request.`,
      { params: IdParam, body: UserPatchBody, ok: { 200: UserResult } },
    ),
    async (request) => {
      const body = objectBody(request.body);
      checkMembers(body, ['role']);
      if (body.role === undefined) throw new ApiError(400, 'invalid_field', 'role is required', { field: 'role' });
      return { data: await changeUserRole(db(), org(request), await actorOf(request), { id: id(request) }, body.role) };
    },
  );

  app.delete(
    '/admin/users/:id',
    opts(
      'Delete a user; its sessions end at once',
      `${ADMINS} The organisation's last owner cannot be deleted: 409 last_owner. Only an owner deletes an owner (403).`,
      { params: IdParam, ok: { 200: DeletedUserResult } },
    ),
    async (request) => ({ data: await deleteOrgUser(db(), org(request), await actorOf(request), { id: id(request) }) }),
  );

  app.post(
    '/admin/users/:id/password',
    opts(
      'Set a new password for a user; its sessions end',
      `${ADMINS} Body { password } (8 to 1024 characters). Every session of the user ends, an open invitation is spent, and its failed logins are forgotten. Only an owner resets an owner's password (403).`,
      { params: IdParam, body: PasswordBody, ok: { 200: PasswordResult } },
    ),
    async (request) => {
      const body = objectBody(request.body);
      checkMembers(body, ['password']);
      return {
        data: await resetUserPassword(db(), org(request), await actorOf(request), { id: id(request) }, body.password),
      };
    },
  );

  app.get(
    '/admin/tokens',
    opts('List the organisation’s access tokens (never a secret)', ADMINS, { ok: { 200: TokenList } }),
    async (request) => ({ data: await listOrgTokens(db(), org(request)) }),
  );

  app.post(
    '/admin/tokens',
    opts(
      'Create an access token; its secret is shown only in this answer',
      `${ADMINS} Body { name, expiresIn? (a duration: 90d, 12h, 3600) | expiresAt? (ISO time) }; without either it never expires. The token has the role application: read and write detections and recordings, nothing administrative.`,
      { body: NewTokenBody, ok: { 201: CreatedTokenResult } },
    ),
    async (request, reply) => {
      const body = objectBody(request.body);
      checkMembers(body, ['name', 'expiresIn', 'expiresAt']);
      const created = await createOrgToken(db(), org(request), await actorOf(request), body);
      reply.code(201).header('Cache-Control', 'no-store');
      return { data: created };
    },
  );

  app.delete(
    '/admin/tokens/:id',
    opts(
      'Revoke an access token at once',
      `${ADMINS} 404 token_not_found for a token the organisation does not have; 409 token_revoked when it was revoked already.`,
      { params: IdParam, ok: { 200: TokenResult } },
    ),
    async (request) => ({ data: await revokeOrgToken(db(), org(request), await actorOf(request), id(request)) }),
  );

  app.get(
    '/admin/organisation',
    opts('The organisation’s settings', ADMINS, { ok: { 200: OrganisationResult } }),
    async (request) => ({ data: await getOrganisation(db(), org(request)) }),
  );

  app.patch(
    '/admin/organisation',
    opts(
      'Change the organisation’s settings',
      `${ADMINS} Body: any of retentionDays (1 to 1000000), keepRecordings, editorStorageAccount (the name of one of the organisation's storage accounts, which then signs the editor's video URLs; null falls back to the server's EDITOR_STORAGE_ACCOUNT). An account the organisation does not have: 400 unknown_account.`,
      { body: OrganisationPatchBody, ok: { 200: OrganisationResult } },
    ),
    async (request) => ({
      data: await updateOrganisation(db(), org(request), await actorOf(request), objectBody(request.body)),
    }),
  );

  app.get(
    '/admin/audit',
    opts(
      'The audit log of admin changes, newest first',
      `${ADMINS} Who, what, when and from which address; never a secret. Pages of limit entries (default 50, at most ${MAX_AUDIT_PAGE}); pass nextCursor back as cursor for the next page. Entries are kept for the organisation's retention or 90 days, whichever is longer.`,
      { querystring: AuditQuery, ok: { 200: AuditResult } },
    ),
    async (request) => {
      const query = request.query as { limit?: string; cursor?: string };
      return { data: await listAudit(db(), org(request), { limit: parseLimit(query.limit), cursor: query.cursor }) };
    },
  );

  app.get(
    '/invitations/:token',
    opts(
      'Who an invitation is for',
      'Public: the secret is the credential. 404 invitation_not_found, 410 invitation_used or invitation_expired.',
      { params: TokenParam, ok: { 200: InvitationResult } },
      ['auth'],
      true,
    ),
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return { data: await readInvitation(db(), (request.params as { token: string }).token) };
    },
  );

  app.post(
    '/invitations/:token',
    opts(
      'Redeem an invitation by choosing a password',
      'Public: the secret is the credential, and it works once. Body { password } (8 to 1024 characters). Then log in at POST /login. 404 invitation_not_found, 410 invitation_used or invitation_expired.',
      { params: TokenParam, body: PasswordBody, ok: { 200: InvitationResult } },
      ['auth'],
      true,
    ),
    async (request, reply) => {
      const body = objectBody(request.body);
      checkMembers(body, ['password']);
      reply.header('Cache-Control', 'no-store');
      return {
        data: await redeemInvitation(db(), (request.params as { token: string }).token, body.password, request.ip),
      };
    },
  );
}
