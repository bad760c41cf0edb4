// What GET /api/storage and POST /api/storage/bulk do, from the request's headers and parsed body: no Fastify
// request object, so the logic can be called (and measured) on its own.
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/problem.js';
import { HEADER, authenticateAccount, requiredHeader } from './account-auth.js';
import { parseBulk, type BulkItem } from './bulk-request.js';
import { EXPIRY_HINT, parseExpiry } from '../util/expiry.js';
import { filenameProblem, headerToUtf8 } from './filename.js';
import { JSON_PLAIN, assertDirectories, issuerFor, providersFor } from './issue.js';
import type { Account } from './queries.js';
import type { StorageProvider } from './providers/types.js';
import { andThen, type MaybePromise } from '../util/maybe-promise.js';

// Every valid request fits: 1000 elements whose 1024-byte keys and 63-character provider names are written
// entirely as \uXXXX escapes (6 bytes a character) come to about 6.6 MB.
export const BULK_BODY_LIMIT = 8 * 1024 * 1024;

const EXPIRY_HEADER = HEADER.expiry.toLowerCase();
const PROVIDER_HEADER = HEADER.provider.toLowerCase();

/**
 * The JSON string literal of the URL for the single-file request these headers describe; throws the request's
 * ApiError. A string at once when the row cache can answer for the account and the provider, else a promise.
 * `filenameRepeated`: the filename header came more than once (Node joins the copies with ", " into one value that
 * names no file that was asked for).
 */
export function issueSingle(
  app: FastifyInstance,
  headers: IncomingHttpHeaders,
  baseUrl: () => string,
  filenameRepeated = false,
): MaybePromise<string> {
  const rawName = requiredHeader(headers, HEADER.fileName);
  // The header overrides the account's default provider (as a bulk element's `provider` does); an empty one is a
  // mistake (an unset variable), not a request for the default.
  const providerName = headers[PROVIDER_HEADER] === undefined ? undefined : requiredHeader(headers, HEADER.provider);
  if (providerName?.includes(', ')) {
    // Node joins a repeated header's copies with ", ", which no provider name contains.
    throw new ApiError(
      400,
      'unknown_provider',
      `${HEADER.provider}: send one provider (the header came more than once)`,
      { header: HEADER.provider },
    );
  }
  requiredHeader(headers, HEADER.accessKey);
  requiredHeader(headers, HEADER.secret);
  return andThen(authenticateAccount(app.store, headers), (account) => {
    const name = providerName ?? account.defaultProvider;
    return andThen(providersFor(app, account, [name]), (providers) =>
      urlFor(app, account, providers.get(name)!, headers, rawName, filenameRepeated, baseUrl),
    );
  });
}

function urlFor(
  app: FastifyInstance,
  account: Account,
  provider: StorageProvider,
  headers: IncomingHttpHeaders,
  rawName: string,
  filenameRepeated: boolean,
  baseUrl: () => string,
): string {
  const filename = headerToUtf8(rawName);
  const bad = filenameRepeated
    ? 'send one filename (the header came more than once)'
    : filename === undefined
      ? 'the filename is not valid UTF-8'
      : filenameProblem(filename);
  if (bad) throw new ApiError(400, 'invalid_filename', `${HEADER.fileName}: ${bad}`, { header: HEADER.fileName });
  const rawExpiry = headers[EXPIRY_HEADER];
  let seconds = app.config.storage.defaultUriExpirySeconds;
  // Present but empty is refused like any unparsable value (an unset shell variable must not mean "a day").
  if (typeof rawExpiry === 'string') {
    const parsed = parseExpiry(rawExpiry);
    if (parsed === undefined)
      throw new ApiError(400, 'invalid_expiry', `${HEADER.expiry}: ${EXPIRY_HINT}`, { header: HEADER.expiry });
    seconds = parsed;
  }
  assertDirectories(account, [filename!]);
  const issuer = issuerFor(app, account, baseUrl);
  const url = issuer.issue(provider, filename!, seconds);
  return issuer.plain ? `"${url}"` : JSON.stringify(url);
}

/** Fastify also parses text/plain; only JSON is a bulk request. */
export function isJsonContentType(contentType: string | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(contentType ?? '');
}

/**
 * The `data` member's JSON for an authenticated bulk request's parsed body: a JSON string literal whose content is a
 * JSON map of filename → URL (the spec's double encoding).
 */
export function issueBulk(
  app: FastifyInstance,
  account: Account,
  body: unknown,
  baseUrl: () => string,
): MaybePromise<string> {
  const parsed = parseBulk(body);
  if (!parsed.ok) throw new ApiError(400, 'invalid_bulk_request', parsed.detail, { errors: parsed.errors });
  const names = parsed.items.map((i) => i.provider ?? account.defaultProvider);
  return andThen(providersFor(app, account, names), (providers) =>
    bulkMap(app, account, parsed.items, names, providers, baseUrl),
  );
}

function bulkMap(
  app: FastifyInstance,
  account: Account,
  items: BulkItem[],
  names: string[],
  providers: Map<string, StorageProvider>,
  baseUrl: () => string,
): string {
  assertDirectories(
    account,
    items.map((i) => i.filename),
  );
  const defaultSeconds = app.config.storage.defaultUriExpirySeconds;
  const issuer = issuerFor(app, account, baseUrl);
  // A Map keeps a duplicate's first position and its last value, as an object would; "__proto__" stays an entry.
  const urls = new Map<string, string>();
  items.forEach((item, i) => {
    urls.set(item.filename, issuer.issue(providers.get(names[i]!)!, item.filename, item.seconds ?? defaultSeconds));
  });
  return doublyEncodedMap(urls, issuer.plain);
}

/**
 * The map as a JSON object with its members in the map's order (the request's order). Not Object.fromEntries: an
 * object puts integer-like keys ("0", "12") first, and the answer's order would depend on the filenames.
 */
function mapJson(urls: Map<string, string>): string {
  let out = '';
  for (const [key, url] of urls) out += `${out === '' ? '' : ','}${JSON.stringify(key)}:${JSON.stringify(url)}`;
  return `{${out}}`;
}

/**
 * The JSON string literal of mapJson(map), written in one pass when every key and URL is plain ASCII (URLs nearly
 * always are, keys mostly): the second encoding escapes every quote of a 300 KB map, ~1.5 ms of a 1000-URL answer.
 * `urlsPlain`: the issuer vouches that every URL is (Issuer.plain), and only the keys are scanned.
 */
export function doublyEncodedMap(urls: Map<string, string>, urlsPlain = false): string {
  let out = '';
  for (const [key, url] of urls) {
    if (!JSON_PLAIN.test(key) || (!urlsPlain && !JSON_PLAIN.test(url))) return JSON.stringify(mapJson(urls));
    out += `${out === '' ? '"{' : ','}\\"${key}\\":\\"${url}\\"`;
  }
  return out === '' ? '"{}"' : `${out}}"`;
}
