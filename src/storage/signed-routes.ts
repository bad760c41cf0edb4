// The public service-signed routes: stream (GET), headers only (HEAD), and a JSON verdict (validate).
import { skipSchemaValidation } from '../http/skip-validation.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../http/problem.js';
import { DOCUMENTED_REQUEST, DOCUMENTED_RESPONSES, jsonResponse } from '../http/openapi-docs.js';
import { SignedHeadAnswers, SignedQuery, SignedStreamAnswers, ValidateQuery, ValidateResult } from './api-schemas.js';
import { contentTypeFor } from './content-type.js';
import { directoryAllowed } from './filename.js';
import { toAccount, type Account } from './queries.js';
import { accountByName, providersNamed } from './row-cache.js';
import { providerFromRow } from './registry.js';
import { signingKeys } from './signing-keys.js';
import { parseSignedQuery, verifyToken, type SignedTuple } from './url-token.js';
import type { ReadResponse, StorageProvider } from './providers/types.js';
import { addSignedCorsHeaders, signedPreflightRoute } from './signed-cors.js';

type Verdict =
  | { ok: true; tuple: SignedTuple; account: Account; provider: StorageProvider }
  | {
      ok: false;
      reason: 'malformed' | 'bad_signature' | 'expired' | 'account_disabled';
      error: ApiError;
      tuple?: SignedTuple;
      partial: Record<string, string | null>;
    };

async function verify(request: FastifyRequest): Promise<Verdict> {
  const q = request.url.indexOf('?');
  const parsed = parseSignedQuery(request.query as Record<string, unknown>, q < 0 ? '' : request.url.slice(q + 1));
  if (!parsed.ok) {
    const { account, provider, filename } = parsed.partial;
    return {
      ok: false,
      reason: 'malformed',
      error: new ApiError(400, 'invalid_signed_url', parsed.detail),
      partial: { account, provider, filename },
    };
  }
  const { tuple } = parsed;
  const partial = { account: tuple.account, provider: tuple.provider, filename: tuple.filename };
  if (!parsed.exact || !verifyToken(signingKeys(request.server.config), tuple, parsed.token)) {
    return {
      ok: false,
      reason: 'bad_signature',
      error: new ApiError(403, 'bad_signature', 'The URL signature is not valid'),
      partial,
    };
  }
  if (Date.now() > tuple.expiresAt * 1000) {
    return {
      ok: false,
      reason: 'expired',
      tuple,
      partial,
      error: new ApiError(403, 'url_expired', `The URL expired at ${new Date(tuple.expiresAt * 1000).toISOString()}`),
    };
  }
  const store = request.server.store;
  const row = await accountByName(store, tuple.account);
  if (row?.enabled !== 1) {
    return {
      ok: false,
      reason: 'account_disabled',
      tuple,
      partial,
      error: new ApiError(401, 'invalid_credentials', 'The account of this URL is disabled'),
    };
  }
  const account = toAccount(row);
  const providerRow = account.providers.includes(tuple.provider)
    ? (await providersNamed(store, account.orgId, [tuple.provider]))[0]
    : undefined;
  if (providerRow?.enabled !== 1) {
    return {
      ok: false,
      reason: 'account_disabled',
      tuple,
      partial,
      error: new ApiError(401, 'provider_not_allowed', `The account may no longer use provider "${tuple.provider}"`, {
        provider: tuple.provider,
      }),
    };
  }
  if (!directoryAllowed(account.directories, tuple.filename)) {
    return {
      ok: false,
      reason: 'account_disabled',
      tuple,
      partial,
      error: new ApiError(403, 'directory_not_allowed', 'The account may no longer use this file'),
    };
  }
  return { ok: true, tuple, account, provider: providerFromRow(request.server.config, providerRow) };
}

function conditionalHeaders(request: FastifyRequest) {
  const h = request.headers;
  const one = (v: string | string[] | undefined) => (typeof v === 'string' ? v : undefined);
  return {
    range: one(h.range),
    ifRange: one(h['if-range']),
    ifNoneMatch: one(h['if-none-match']),
    ifModifiedSince: one(h['if-modified-since']),
    ifMatch: one(h['if-match']),
    ifUnmodifiedSince: one(h['if-unmodified-since']),
  };
}

/**
 * How a browser names the file it saves: the key's last segment, as an ASCII fallback and exactly (RFC 6266 /
 * RFC 8187); `inline`, so that a video still plays in place.
 */
function contentDisposition(filename: string): string {
  const base = filename.slice(filename.lastIndexOf('/') + 1);
  const ascii = base.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const exact = encodeURIComponent(base).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `inline; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

async function serve(request: FastifyRequest, reply: FastifyReply, method: 'GET' | 'HEAD') {
  const verdict = await verify(request);
  if (!verdict.ok) throw verdict.error;
  const { tuple, provider } = verdict;
  const controller = new AbortController();
  let ending = 'the client went away';
  reply.raw.once('close', () => {
    if (reply.raw.writableFinished) return;
    controller.abort();
    // No access line is written for an answer that never finished: this is its line.
    // A status only once one was sent: a client that left while the provider was still to answer got none.
    request.log.info(
      {
        status: reply.raw.headersSent ? reply.statusCode : undefined,
        provider: tuple.provider,
        sent: reply.raw.socket?.bytesWritten,
      },
      `signed download cut short: ${ending}`,
    );
  });
  let result: ReadResponse;
  try {
    result = await provider.read(tuple.filename, { method, signal: controller.signal, ...conditionalHeaders(request) });
  } catch (err) {
    // The client left before the provider answered, which aborted the read: nobody is left to answer, and the line
    // above says what happened (this is no server error).
    if (controller.signal.aborted) {
      reply.hijack();
      return;
    }
    throw err;
  }
  // Whole seconds left, rounded down: a cache must not keep the answer after the URL died.
  const secondsLeft = wholeSecondsLeft(tuple.expiresAt);
  reply.code(result.status).headers(result.headers);
  // Spec §5: the provider's type, else the extension's (a backend may keep none).
  if (!result.headers['content-type']) reply.header('content-type', contentTypeFor(tuple.filename));
  reply.header('accept-ranges', 'bytes');
  reply.header('cache-control', `private, max-age=${secondsLeft}`);
  reply.header('x-content-type-options', 'nosniff');
  // Objects are uploaded by anyone with a provider's keys and served from this service's origin: an HTML or SVG
  // file opened from a signed URL must not run scripts here. A sandboxed document has an opaque origin and no
  // scripts; video, images and downloads are unaffected.
  reply.header('content-security-policy', 'sandbox');
  if (result.status !== 304) reply.header('content-disposition', contentDisposition(tuple.filename));
  if (!result.body) return reply.send();
  // A client that stops reading holds a descriptor and a provider read: after STORAGE_SEND_IDLE_TIMEOUT_MS without
  // taking a byte it is dropped, as nginx's send_timeout does.
  reply.raw.setTimeout(request.server.config.storage.sendIdleTimeoutMs, () => {
    ending =
      'no byte moved for STORAGE_SEND_IDLE_TIMEOUT_MS (a client that stopped reading, or a provider that stalled)';
    reply.raw.destroy();
  });
  // The code only: a provider error's message may quote its presigned URL.
  result.body.once('error', (err: Error & { code?: unknown }) => {
    ending = `the provider's stream failed${typeof err.code === 'string' ? ` (${err.code})` : ''}`;
  });
  return reply.send(result.body);
}

/** Whole seconds until `e`, rounded down like max-age: a client that trusts it never uses the URL after it died. */
function wholeSecondsLeft(expiresAt: number): number {
  return Math.max(0, Math.floor((expiresAt * 1000 - Date.now()) / 1000));
}

export async function signedRoutes(app: FastifyInstance): Promise<void> {
  signedPreflightRoute(app, '/api/storage/signed', 'GET, HEAD');
  signedPreflightRoute(app, '/api/storage/signed/validate', 'GET');
  const docs = (summary: string) => ({
    tags: ['storage'],
    summary,
    querystring: SignedQuery,
    security: [],
    description:
      'No headers needed: the query carries the authorisation. Errors: 400 invalid_signed_url, 403 bad_signature / url_expired, ' +
      '401 when the account is disabled or lost the provider, 404 object_not_found, 416 range_not_satisfiable, 502/504 provider failures.',
  });

  app.get(
    '/api/storage/signed',
    {
      exposeHeadRoute: false,
      compress: false,
      onSend: addSignedCorsHeaders,
      validatorCompiler: skipSchemaValidation,
      schema: {
        ...docs('Stream the object of a service-signed URL (Range and conditional requests supported)'),
        [DOCUMENTED_RESPONSES]: SignedStreamAnswers,
      },
    },
    (request, reply) => serve(request, reply, 'GET'),
  );

  app.head(
    '/api/storage/signed',
    {
      compress: false,
      onSend: addSignedCorsHeaders,
      validatorCompiler: skipSchemaValidation,
      // Listed in /docs: swagger leaves HEAD routes out unless told.
      config: { swagger: { exposeHeadRoute: true } },
      schema: {
        ...docs('Validate a service-signed URL and answer the object headers without a body'),
        [DOCUMENTED_RESPONSES]: SignedHeadAnswers,
      },
    },
    (request, reply) => serve(request, reply, 'HEAD'),
  );

  app.get(
    '/api/storage/signed/validate',
    {
      onSend: addSignedCorsHeaders,
      validatorCompiler: skipSchemaValidation,
      schema: {
        tags: ['storage'],
        summary: 'Whether a service-signed URL is valid, and when it expires; never streams',
        security: [],
        description:
          'Answers 200 for any query: a missing or malformed member gives `valid: false` with reason `malformed`.',
        querystring: SignedQuery,
        [DOCUMENTED_REQUEST]: { querystring: ValidateQuery },
        response: { 200: ValidateResult },
        [DOCUMENTED_RESPONSES]: {
          200: jsonResponse('The verdict; `reason` says why a URL is not valid', ValidateResult),
        },
      },
    },
    async (request, reply) => {
      const verdict = await verify(request);
      const tuple = verdict.ok ? verdict.tuple : verdict.tuple;
      reply.header('Cache-Control', 'no-store');
      return {
        data: {
          valid: verdict.ok,
          reason: verdict.ok ? null : verdict.reason,
          expiresAt: tuple ? new Date(tuple.expiresAt * 1000).toISOString() : null,
          expiresIn: tuple ? wholeSecondsLeft(tuple.expiresAt) : null,
          account: verdict.ok ? tuple!.account : (verdict.partial.account ?? null),
          provider: verdict.ok ? tuple!.provider : (verdict.partial.provider ?? null),
          filename: verdict.ok ? tuple!.filename : (verdict.partial.filename ?? null),
        },
      };
    },
  );
}
