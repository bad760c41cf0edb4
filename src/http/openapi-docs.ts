// What /docs shows beyond the route schemas. Applied to the document only: a response schema on the route itself
// would also drive Fastify's serializer, and a problem's extension members (`errors`, `mediaKeys`, `header`…)
// would be stripped from the real answers.
import type { FastifySchema } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { hoistComponents, hoistInContent } from './openapi-components.js';
import { errorResponses } from './openapi-errors.js';

// A mediaKey holds slashes, so the routes that take one end in a wildcard; OpenAPI has no name for `*`.
const WILDCARD = { key: Type.String({ description: 'A recording id, or its mediaKey as path segments or with %2F' }) };

interface RouteDoc {
  schema: FastifySchema;
  url: string;
  route?: { method: string | string[] };
}

/**
 * Stable operation names for client generators (openapi-typescript, openapi-generator…), by method and documented
 * path: without them each generator invents names that change with the path.
 */
const OPERATION_IDS: Record<string, string> = {
  'GET /api/health': 'getHealth',
  'GET /api/health/live': 'getLiveness',
  'GET /api/health/ready': 'getReadiness',
  'POST /login': 'login',
  'POST /logout': 'logout',
  'POST /detections': 'postDetectionRun',
  'GET /detections': 'listDetectionRuns',
  'GET /detections/{runId}': 'getDetectionRun',
  'DELETE /detections/{runId}': 'deleteDetectionRun',
  'PATCH /detections/{runId}': 'patchDetectionRun',
  'GET /detections/{runId}/revisions': 'listDetectionRunRevisions',
  'POST /detections/{runId}/revisions/{revision}/restore': 'restoreDetectionRunRevision',
  'POST /detections/import': 'importDetectionRun',
  'GET /detections/{runId}/export': 'exportDetectionRun',
  'POST /recordings': 'registerRecording',
  'GET /recordings': 'listRecordings',
  'POST /recordings/events': 'registerRecordingFromUploadEvent',
  'POST /recordings/search': 'searchRecordings',
  'GET /recordings/{key}': 'getRecording',
  'DELETE /recordings/{key}': 'deleteRecording',
  'GET /recordings/{id}/assets': 'getRecordingAssetUrls',
  'POST /evaluations': 'createEvaluation',
  'GET /evaluations': 'listEvaluations',
  'GET /evaluations/{id}': 'getEvaluation',
  'DELETE /evaluations/{id}': 'deleteEvaluation',
  'GET /api/storage': 'getSignedUrl',
  'POST /api/storage/bulk': 'getSignedUrls',
  'GET /api/storage/signed': 'downloadSignedObject',
  'HEAD /api/storage/signed': 'headSignedObject',
  'GET /api/storage/signed/validate': 'validateSignedUrl',
  'GET /api/storage/admin/providers': 'listStorageProviders',
  'POST /api/storage/admin/providers': 'createStorageProvider',
  'PATCH /api/storage/admin/providers/{name}': 'updateStorageProvider',
  'GET /api/storage/admin/accounts': 'listStorageAccounts',
  'POST /api/storage/admin/accounts': 'createStorageAccount',
  'PATCH /api/storage/admin/accounts/{name}': 'updateStorageAccount',
  'POST /api/storage/admin/accounts/{name}/rotate': 'rotateStorageAccountSecret',
  'GET /admin/users': 'listUsers',
  'POST /admin/users': 'createUser',
  'GET /admin/users/{id}': 'getUser',
  'PATCH /admin/users/{id}': 'updateUser',
  'DELETE /admin/users/{id}': 'deleteUser',
  'POST /admin/users/{id}/password': 'resetUserPassword',
  'GET /admin/tokens': 'listAccessTokens',
  'POST /admin/tokens': 'createAccessToken',
  'DELETE /admin/tokens/{id}': 'revokeAccessToken',
  'GET /admin/organisation': 'getOrganisation',
  'PATCH /admin/organisation': 'updateOrganisation',
  'GET /admin/audit': 'listAuditEntries',
  'GET /invitations/{token}': 'getInvitation',
  'POST /invitations/{token}': 'redeemInvitation',
};

/**
 * A route schema's member for request parts shown in /docs only (`querystring`, `body`, `headers`), where the
 * route's own schema stays what Fastify validates: a required `mediaKey` there would answer Fastify's validation
 * error instead of the spec's media_key_missing.
 */
export const DOCUMENTED_REQUEST = 'x-documented-request';

/**
 * A route schema's member for answers shown in /docs only: as `response` it would drive Fastify's serializer too,
 * which drops every member it does not list.
 */
export const DOCUMENTED_RESPONSES = 'x-documented-responses';

/** A JSON answer with a description of its own: a bare schema would be listed as "Default Response". */
export const jsonResponse = (description: string, schema: TSchema) => ({
  description,
  content: { 'application/json': { schema } },
});

interface DocumentRouteArgs extends RouteDoc {
  openapiObject?: { components?: { schemas?: Record<string, unknown> } };
}

// biome-ignore lint/suspicious/noExplicitAny: the parts of an OpenAPI document this walks
type Json = any;

/**
 * A route as the document shows it: its documented-only parts merged in, one problem response per status it answers,
 * its named schemas (`named`) moved to `components.schemas` and referenced, and its operationId.
 */
export function documentRoute({ schema, url, route, openapiObject }: DocumentRouteArgs): RouteDoc {
  if (!schema || (schema as { hide?: boolean }).hide) return { schema, url };
  const {
    [DOCUMENTED_RESPONSES]: documentedOnly,
    [DOCUMENTED_REQUEST]: requestOnly,
    ...rest
  } = schema as FastifySchema & {
    [DOCUMENTED_RESPONSES]?: object;
    [DOCUMENTED_REQUEST]?: object;
  };
  const documented: FastifySchema = { ...rest, ...requestOnly };
  let path = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  if (path.endsWith('/*')) {
    documented.params = Type.Object(WILDCARD);
    path = `${path.slice(0, -1)}{key}`;
  }
  const method = typeof route?.method === 'string' ? route.method : undefined;
  const key = `${method} ${path}`;
  const security = (schema as { security?: Array<Record<string, unknown>> }).security ?? [];
  const errors = errorResponses(key, {
    bearer: security.some((scheme) => 'bearer' in scheme),
    storageAccount: security.some((scheme) => 'storageAccessKey' in scheme),
    body: documented.body !== undefined,
  });
  const components = (openapiObject?.components?.schemas ?? {}) as Record<string, Json>;
  const responses: Record<string, Json> = { ...(schema.response as object | undefined), ...documentedOnly, ...errors };
  documented.response = Object.fromEntries(
    Object.entries(responses).map(([status, entry]) => [status, hoistInContent(entry, components)]),
  );
  if (documented.body !== undefined) documented.body = hoistComponents(documented.body, components);
  const operationId = method ? OPERATION_IDS[key] : undefined;
  if (operationId) (documented as { operationId?: string }).operationId = operationId;
  return { schema: documented, url: path };
}

/**
 * Swagger UI's "Try it out" fills a request body from the media type's `example`: each named request body carries its
 * example (`examples[0]`, one that works against the demo), copied here to the operations that take it.
 */
export function exampleBodies(document: { openapiObject: Json } | { swaggerObject: Json }): Json {
  if (!('openapiObject' in document)) return document.swaggerObject;
  const { openapiObject } = document;
  const schemas = openapiObject.components?.schemas ?? {};
  for (const operations of Object.values<Json>(openapiObject.paths ?? {})) {
    for (const operation of Object.values<Json>(operations)) {
      for (const media of Object.values<Json>(operation?.requestBody?.content ?? {})) {
        const ref: unknown = media.schema?.$ref;
        const named = typeof ref === 'string' ? schemas[ref.slice('#/components/schemas/'.length)] : undefined;
        if (media.example === undefined && Array.isArray(named?.examples)) media.example = named.examples[0];
      }
    }
  }
  return openapiObject;
}
