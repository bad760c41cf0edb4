// The admin HTTP API for providers and accounts: owners and admins of the organisation, by Bearer token.
import { skipSchemaValidation } from '../http/skip-validation.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { principalOf, requireReader } from '../auth/authenticate.js';
import { isAdministrator } from '../auth/roles.js';
import { ApiError } from '../http/problem.js';
import type { TSchema } from 'typebox';
import { DOCUMENTED_RESPONSES, jsonResponse } from '../http/openapi-docs.js';
import {
  AccountList,
  AccountPatchBody,
  AccountResult,
  AccountSecretResult,
  NameParam,
  NewAccountBody,
  NewProviderBody,
  ProviderList,
  ProviderPatchBody,
  ProviderResult,
} from './api-schemas.js';
import { accountsOf, providersOf } from './admin.js';
import {
  auditedChangeAccount,
  auditedCreateAccount,
  auditedCreateProvider,
  auditedEnableProvider,
  auditedRotateAccount,
} from '../admin/storage.js';
import { actorOf } from '../admin/request-actor.js';

const secured = [{ bearer: [] }];

async function requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await requireReader(request, reply);
  const { role } = principalOf(request);
  if (!isAdministrator(role)) throw new ApiError(403, 'forbidden', `The role "${role}" cannot administer storage`);
}

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ApiError(400, 'invalid_body', 'The body must be a JSON object');
  return body as Record<string, unknown>;
}

/**
 * A provider as an organisation's admins see it: an fs root is the operator's (the CLI's) business, and a path on
 * the server is nothing a tenant needs to know.
 */
function tenantView<T extends { config: Record<string, unknown> }>(provider: T): T {
  const { root: _root, ...config } = provider.config;
  return { ...provider, config };
}

export async function storageAdminRoutes(app: FastifyInstance): Promise<void> {
  const opts = (
    summary: string,
    description: string | undefined,
    shapes: { body?: TSchema; params?: TSchema; ok: Record<number, TSchema> },
  ) => ({
    onRequest: requireAdmin,
    validatorCompiler: skipSchemaValidation,
    schema: {
      tags: ['storage admin'],
      summary,
      security: secured,
      ...(description ? { description } : {}),
      ...(shapes.body ? { body: shapes.body } : {}),
      ...(shapes.params ? { params: shapes.params } : {}),
      [DOCUMENTED_RESPONSES]: Object.fromEntries(
        Object.entries(shapes.ok).map(([status, shape]) => [status, jsonResponse(summary, shape)]),
      ),
    },
  });
  const org = (request: FastifyRequest) => principalOf(request).orgId;
  const nameParam = (request: FastifyRequest) => (request.params as { name: string }).name;

  app.get(
    '/api/storage/admin/providers',
    opts('List the providers (credentials are never returned)', undefined, { ok: { 200: ProviderList } }),
    async (request) => ({ data: (await providersOf(app.store, org(request))).map(tenantView) }),
  );

  app.post(
    '/api/storage/admin/providers',
    opts(
      'Create a provider',
      'Body: { name, type: fs|s3|azure|gcs, config, enabled? }. Credentials are encrypted at rest and never returned. An fs provider gets a folder of its own in the data directory: config.root is for the operator (CLI) only → 403 forbidden.',
      { body: NewProviderBody, ok: { 201: ProviderResult } },
    ),
    async (request, reply) => {
      reply.code(201);
      return {
        data: await auditedCreateProvider(
          app.store,
          app.config,
          await actorOf(request),
          org(request),
          objectBody(request.body),
          'organisation',
        ),
      };
    },
  );

  app.patch(
    '/api/storage/admin/providers/:name',
    opts('Enable or disable a provider', 'Body: { enabled }', {
      params: NameParam,
      body: ProviderPatchBody,
      ok: { 200: ProviderResult },
    }),
    async (request) => {
      const body = objectBody(request.body);
      if (typeof body.enabled !== 'boolean' || Object.keys(body).length !== 1)
        throw new ApiError(400, 'invalid_provider', 'The body must be { "enabled": true|false }');
      return {
        data: tenantView(
          await auditedEnableProvider(
            app.store,
            await actorOf(request),
            org(request),
            nameParam(request),
            body.enabled,
          ),
        ),
      };
    },
  );

  app.get(
    '/api/storage/admin/accounts',
    opts('List the accounts (secrets are never returned)', undefined, { ok: { 200: AccountList } }),
    async (request) => ({ data: await accountsOf(app.store, org(request)) }),
  );

  app.post(
    '/api/storage/admin/accounts',
    opts(
      'Create an account; its secretAccessKey is shown only in this answer',
      'Body: { name, defaultProvider, providers?, directories? (default ["*"]) }',
      { body: NewAccountBody, ok: { 201: AccountSecretResult } },
    ),
    async (request, reply) => {
      reply.code(201).header('Cache-Control', 'no-store');
      return {
        data: await auditedCreateAccount(app.store, await actorOf(request), org(request), objectBody(request.body)),
      };
    },
  );

  app.patch(
    '/api/storage/admin/accounts/:name',
    opts('Change an account: enabled, defaultProvider, providers, directories', undefined, {
      params: NameParam,
      body: AccountPatchBody,
      ok: { 200: AccountResult },
    }),
    async (request) => ({
      data: await auditedChangeAccount(
        app.store,
        await actorOf(request),
        org(request),
        nameParam(request),
        objectBody(request.body),
      ),
    }),
  );

  app.post(
    '/api/storage/admin/accounts/:name/rotate',
    opts('Issue a new secret; the old one stops working at once', undefined, {
      params: NameParam,
      ok: { 200: AccountSecretResult },
    }),
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return { data: await auditedRotateAccount(app.store, await actorOf(request), org(request), nameParam(request)) };
    },
  );
}
