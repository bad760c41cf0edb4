// What GET /api/storage and POST /api/storage/bulk do, from the request's headers and parsed body: no Fastify
// request object, so the logic can be called (and measured) on its own.
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/problem.js';
import { HEADER, authenticateAccount, requiredHeader } from './account-auth.js';
import { parseBulk } from './bulk-request.js';
import { EXPIRY_HINT, parseExpiry } from './expiry.js';
import { filenameProblem, headerToUtf8 } from './filename.js';
import { assertDirectories, issuerFor, providersFor } from './issue.js';
import type { Account } from './queries.js';

// 1000 keys of up to 1024 bytes, JSON-escaped, fit comfortably.
export const BULK_BODY_LIMIT = 4 * 1024 * 1024;

const EXPIRY_HEADER = HEADER.expiry.toLowerCase();

/** The URL for the single-file request these headers describe; throws the request's ApiError. */
export async function issueSingle(app: FastifyInstance, headers: IncomingHttpHeaders, baseUrl: () => string): Promise<string> {
  const rawName = requiredHeader(headers, HEADER.fileName);
  const providerName = requiredHeader(headers, HEADER.provider);
  requiredHeader(headers, HEADER.accessKey);
  requiredHeader(headers, HEADER.secret);
  const account = await authenticateAccount(app.store, headers);
  const providers = await providersFor(app, account, [providerName]);
  const filename = headerToUtf8(rawName);
  const bad = filename === undefined ? 'the filename is not valid UTF-8' : filenameProblem(filename);
  if (bad) throw new ApiError(400, 'invalid_filename', `${HEADER.fileName}: ${bad}`, { header: HEADER.fileName });
  const rawExpiry = headers[EXPIRY_HEADER];
  let seconds = app.config.storage.defaultUriExpirySeconds;
  if (typeof rawExpiry === 'string' && rawExpiry.trim() !== '') {
    const parsed = parseExpiry(rawExpiry);
    if (parsed === undefined) throw new ApiError(400, 'invalid_expiry', `${HEADER.expiry}: ${EXPIRY_HINT}`, { header: HEADER.expiry });
    seconds = parsed;
  }
  assertDirectories(account, [filename!]);
  return issuerFor(app, account, baseUrl)(providers.get(providerName)!, filename!, seconds);
}

/** Fastify also parses text/plain; only JSON is a bulk request. */
export function isJsonContentType(contentType: string | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(contentType ?? '');
}

/** The `data` string (a JSON map of filename → URL) for an authenticated bulk request's parsed body. */
export async function issueBulk(app: FastifyInstance, account: Account, body: unknown, baseUrl: () => string): Promise<string> {
  const parsed = parseBulk(body);
  if (!parsed.ok) throw new ApiError(400, 'invalid_bulk_request', parsed.detail, { errors: parsed.errors });
  const defaultSeconds = app.config.storage.defaultUriExpirySeconds;
  const names = parsed.items.map((i) => i.provider ?? account.defaultProvider);
  const providers = await providersFor(app, account, names);
  assertDirectories(account, parsed.items.map((i) => i.filename));
  const issue = issuerFor(app, account, baseUrl);
  const urls = new Map<string, string>();
  parsed.items.forEach((item, i) => {
    urls.set(item.filename, issue(providers.get(names[i]!)!, item.filename, item.seconds ?? defaultSeconds));
  });
  // fromEntries defines own properties, so a key such as "__proto__" stays an ordinary entry.
  return JSON.stringify(Object.fromEntries(urls));
}
