// GET /api/storage and POST /api/storage/bulk: authenticated by the account headers, answering signed URLs.
import { skipSchemaValidation } from '../http/skip-validation.js';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/problem.js';
import { HEADER, authenticateAccount, requiredHeader } from './account-auth.js';
import { BulkBody, BulkResult, CredentialHeaders, StorageHeaders, UrlResult } from './api-schemas.js';
import { parseBulk } from './bulk-request.js';
import { EXPIRY_HINT, parseExpiry } from './expiry.js';
import { filenameProblem, headerToUtf8 } from './filename.js';
import { assertDirectories, issuerFor, providersFor, publicBaseUrl } from './issue.js';

// 1000 keys of up to 1024 bytes, JSON-escaped, fit comfortably.
const BULK_BODY_LIMIT = 4 * 1024 * 1024;

export async function storageUrlRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/storage', {
    validatorCompiler: skipSchemaValidation,
    schema: {
      tags: ['storage'], summary: 'One signed URL',
      description: 'Errors: 400 missing_header / invalid_filename / invalid_expiry, 401 invalid_credentials / provider_not_allowed, 403 directory_not_allowed.',
      headers: StorageHeaders, response: { 200: UrlResult },
    },
  }, async (request, reply) => {
    const rawName = requiredHeader(request, HEADER.fileName);
    const providerName = requiredHeader(request, HEADER.provider);
    requiredHeader(request, HEADER.accessKey);
    requiredHeader(request, HEADER.secret);
    const account = await authenticateAccount(request);
    const providers = await providersFor(request.server, account, [providerName]);
    const filename = headerToUtf8(rawName);
    const bad = filename === undefined ? 'the filename is not valid UTF-8' : filenameProblem(filename);
    if (bad) throw new ApiError(400, 'invalid_filename', `${HEADER.fileName}: ${bad}`, { header: HEADER.fileName });
    const rawExpiry = request.headers[HEADER.expiry.toLowerCase()];
    let seconds = request.server.config.storage.defaultUriExpirySeconds;
    if (typeof rawExpiry === 'string' && rawExpiry.trim() !== '') {
      const parsed = parseExpiry(rawExpiry);
      if (parsed === undefined) throw new ApiError(400, 'invalid_expiry', `${HEADER.expiry}: ${EXPIRY_HINT}`, { header: HEADER.expiry });
      seconds = parsed;
    }
    assertDirectories(account, [filename!]);
    const url = issuerFor(request.server, account, () => publicBaseUrl(request))(providers.get(providerName)!, filename!, seconds);
    reply.header('Cache-Control', 'no-store');
    return { data: url };
  });

  app.post('/api/storage/bulk', {
    bodyLimit: BULK_BODY_LIMIT,
    validatorCompiler: skipSchemaValidation,
    // Credentials are checked before the body is read: nobody unauthenticated makes the server parse 4 MiB.
    onRequest: async (request) => { request.storageAccount = await authenticateAccount(request); },
    schema: {
      tags: ['storage'], summary: 'Many signed URLs in one call',
      description: 'Body: up to 1000 { filename, provider?, uriExpiryTime? }. `data` is a JSON string mapping filename → URL (the last duplicate wins). '
        + 'Errors: 400 invalid_bulk_request (with `errors` by index) / malformed_json, 401, 403 directory_not_allowed, 413, 415.',
      headers: CredentialHeaders, body: BulkBody, response: { 200: BulkResult },
    },
  }, async (request, reply) => {
    const account = request.storageAccount!;
    // Fastify also parses text/plain; only JSON is a bulk request.
    if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) {
      throw new ApiError(415, 'unsupported_media_type', 'Send the array as application/json');
    }
    const parsed = parseBulk(request.body);
    if (!parsed.ok) throw new ApiError(400, 'invalid_bulk_request', parsed.detail, { errors: parsed.errors });
    const defaultSeconds = request.server.config.storage.defaultUriExpirySeconds;
    const names = parsed.items.map((i) => i.provider ?? account.defaultProvider);
    const providers = await providersFor(request.server, account, names);
    assertDirectories(account, parsed.items.map((i) => i.filename));
    const issue = issuerFor(request.server, account, () => publicBaseUrl(request));
    const urls = new Map<string, string>();
    parsed.items.forEach((item, i) => {
      urls.set(item.filename, issue(providers.get(names[i]!)!, item.filename, item.seconds ?? defaultSeconds));
    });
    reply.header('Cache-Control', 'no-store');
    // fromEntries defines own properties, so a key such as "__proto__" stays an ordinary entry.
    return { data: JSON.stringify(Object.fromEntries(urls)) };
  });
}
