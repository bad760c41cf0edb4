// GET /api/storage and POST /api/storage/bulk: authenticated by the account headers, answering signed URLs; what
// they do lives in url-requests.ts.
import { skipSchemaValidation } from '../http/skip-validation.js';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/problem.js';
import { authenticateAccount } from './account-auth.js';
import { BulkBody, BulkResult, CredentialHeaders, StorageHeaders, UrlResult } from './api-schemas.js';
import { publicBaseUrl } from './issue.js';
import { BULK_BODY_LIMIT, isJsonContentType, issueBulk, issueSingle } from './url-requests.js';

export async function storageUrlRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/storage', {
    validatorCompiler: skipSchemaValidation,
    schema: {
      tags: ['storage'], summary: 'One signed URL',
      description: 'Errors: 400 missing_header / invalid_filename / invalid_expiry, 401 invalid_credentials / provider_not_allowed, 403 directory_not_allowed.',
      headers: StorageHeaders, response: { 200: UrlResult },
    },
  }, async (request, reply) => {
    const url = await issueSingle(request.server, request.headers, () => publicBaseUrl(request));
    reply.header('Cache-Control', 'no-store');
    return { data: url };
  });

  app.post('/api/storage/bulk', {
    bodyLimit: BULK_BODY_LIMIT,
    validatorCompiler: skipSchemaValidation,
    // Credentials are checked before the body is read: nobody unauthenticated makes the server parse 4 MiB.
    onRequest: async (request) => { request.storageAccount = await authenticateAccount(request.server.store, request.headers); },
    schema: {
      tags: ['storage'], summary: 'Many signed URLs in one call',
      description: 'Body: up to 1000 { filename, provider?, uriExpiryTime? }. `data` is a JSON string mapping filename → URL (the last duplicate wins). '
        + 'Errors: 400 invalid_bulk_request (with `errors` by index) / malformed_json, 401, 403 directory_not_allowed, 413, 415.',
      headers: CredentialHeaders, body: BulkBody, response: { 200: BulkResult },
    },
  }, async (request, reply) => {
    if (!isJsonContentType(request.headers['content-type'])) {
      throw new ApiError(415, 'unsupported_media_type', 'Send the array as application/json');
    }
    const data = await issueBulk(request.server, request.storageAccount!, request.body, () => publicBaseUrl(request));
    reply.header('Cache-Control', 'no-store');
    return { data };
  });
}
