// GET /api/storage and POST /api/storage/bulk: authenticated by the account headers, answering signed URLs; what
// they do lives in url-requests.ts.
import { isUtf8 } from 'node:buffer';
import { skipSchemaValidation } from '../http/skip-validation.js';
import { DOCUMENTED_RESPONSES, jsonResponse } from '../http/openapi-docs.js';
import { parseJsonBody, useJsonBodyParser } from '../http/json-body.js';
import { utf8OrMarked } from '../http/utf8-marked.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../http/problem.js';
import { andThen, type MaybePromise } from '../util/maybe-promise.js';
import { HEADER, authenticateAccount, requiredHeader } from './account-auth.js';
import { BulkBody, BulkResult, StorageHeaders, UrlResult, storageSecurity } from './api-schemas.js';
import { publicBaseUrl } from './issue.js';
import { BULK_BODY_LIMIT, isJsonContentType, issueBulk, issueSingle } from './url-requests.js';

/**
 * `{"data": …}` written by hand from the value's JSON: the schema serializer escapes a string with quotes character
 * by character in JavaScript, where JSON.stringify is native.
 * The handlers below are not async: when the row cache answers (nearly always), the URL is ready at once, and the
 * answer goes out without a promise; they return nothing then, or a promise that sends when the database answers.
 */
function sendData(reply: FastifyReply, dataJson: string) {
  return reply.header('Cache-Control', 'no-store').type('application/json; charset=utf-8').send(`{"data":${dataJson}}`);
}

const FILENAME_HEADER = HEADER.fileName.toLowerCase();

export async function storageUrlRoutes(app: FastifyInstance): Promise<void> {
  // Bulk bodies are read as bytes: a filename whose bytes are not UTF-8 is refused by index, not rewritten with
  // U+FFFD into another filename (utf8-marked.ts). Well-formed bodies take the plain JSON.parse path.
  useJsonBodyParser(app, (body) => (isUtf8(body) ? undefined : parseJsonBody(utf8OrMarked(body))));

  app.get(
    '/api/storage',
    {
      validatorCompiler: skipSchemaValidation,
      schema: {
        tags: ['storage'],
        summary: 'One signed URL',
        security: storageSecurity,
        description:
          'Errors: 400 missing_header / invalid_filename / invalid_expiry, 401 invalid_credentials / provider_not_allowed, 403 directory_not_allowed.',
        headers: StorageHeaders,
        response: { 200: UrlResult },
        [DOCUMENTED_RESPONSES]: { 200: jsonResponse('The signed URL', UrlResult) },
      },
    },
    (request, reply) => {
      const name = request.headers[FILENAME_HEADER];
      // Only a value with ", " can be several headers joined; headersDistinct is built on first use.
      const repeated =
        typeof name === 'string' &&
        name.includes(', ') &&
        (request.raw.headersDistinct[FILENAME_HEADER]?.length ?? 0) > 1;
      return andThen(
        issueSingle(request.server, request.headers, () => publicBaseUrl(request), repeated),
        (urlJson) => {
          sendData(reply, urlJson);
        },
      );
    },
  );

  app.post(
    '/api/storage/bulk',
    {
      bodyLimit: BULK_BODY_LIMIT,
      validatorCompiler: skipSchemaValidation,
      // Credentials are checked before the body is read: nobody unauthenticated makes the server parse 8 MiB.
      onRequest: (request, _reply, done) => {
        let authenticated: MaybePromise<void>;
        try {
          // Content-Type is a required header too (spec §4): without it the answer names the first missing one, in the
          // order credentials → Content-Type, before any credential is checked (as on GET).
          const contentType = request.headers['content-type'];
          if (contentType === undefined || contentType.trim() === '') {
            for (const name of [HEADER.accessKey, HEADER.secret, 'Content-Type']) requiredHeader(request.headers, name);
          }
          authenticated = andThen(authenticateAccount(request.server.store, request.headers), (account) => {
            request.storageAccount = account;
          });
        } catch (err) {
          done(err as Error);
          return;
        }
        if (authenticated instanceof Promise) authenticated.then(() => done(), done);
        else done();
      },
      schema: {
        tags: ['storage'],
        summary: 'Many signed URLs in one call',
        description:
          'Body: up to 1000 { filename, provider?, uriExpiryTime? }. `data` is a JSON string mapping filename → URL (the last duplicate wins). ' +
          'Errors: 400 missing_header (a credential or Content-Type) / invalid_bulk_request (with `errors` by index) / malformed_json, 401, 403 directory_not_allowed, 413, 415 (a Content-Type other than JSON).',
        security: storageSecurity,
        body: BulkBody,
        response: { 200: BulkResult },
        [DOCUMENTED_RESPONSES]: { 200: jsonResponse('Every URL, as JSON text in `data`', BulkResult) },
      },
    },
    (request, reply) => {
      if (!isJsonContentType(request.headers['content-type'])) {
        throw new ApiError(415, 'unsupported_media_type', 'Send the array as application/json');
      }
      return andThen(
        issueBulk(request.server, request.storageAccount!, request.body, () => publicBaseUrl(request)),
        (data) => {
          sendData(reply, data);
        },
      );
    },
  );
}
