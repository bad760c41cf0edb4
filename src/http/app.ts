// The app factory: one Fastify instance with the shared request handling (errors, versioning, logging, docs), and
// each domain as a plugin registered below. What one domain offers another is a decorator (see the plugin map there).
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import './context.js';
import { clientErrorHandler, frameworkErrors, installErrorHandlers } from './error-handler.js';
import { accessFields } from './access-log.js';
import { buildValidator } from './validators.js';
import { REDACTED_PATHS, redactUrl } from './log-redaction.js';
import { ApiError, PROBLEM_CONTENT_TYPE, problem } from './problem.js';
import { requestIdFrom } from './request-id.js';
import { drainOnClose, refuseWhileClosing } from './draining.js';
import { API_VERSIONS, negotiateVersion, LATEST_API_VERSION } from './versioning.js';
import { adminPlugin } from '../admin/plugin.js';
import { authPlugin } from '../auth/plugin.js';
import { refuseTextBodies, useJsonBodyParser } from './json-body.js';
import { detectionsPlugin } from '../detections/plugin.js';
import { evaluationPlugin } from '../evaluation/plugin.js';
import { evaluationRunnerPlugin } from '../evaluation/runner-plugin.js';
import { MAX_BODY_BYTES } from '../detections/limits.js';
import { recordingsPlugin } from '../recordings/plugin.js';
import { retentionPlugin } from '../retention/plugin.js';
import { searchPlugin } from '../search/plugin.js';
import { storagePlugin } from '../storage/plugin.js';
import { STORAGE_SECURITY_SCHEMES } from '../storage/api-schemas.js';
import { walCheckpointerPlugin } from '../db/wal-checkpointer-plugin.js';
import { webRoutes } from './web.js';
import { asyncStdout } from './log-destination.js';
import { documentRoute, exampleBodies } from './openapi-docs.js';
import { trackAllowedMethods } from './allowed-methods.js';
import { headerCount } from './raw-headers.js';
import { DECODED_CODINGS, bodyCoding } from './content-coding.js';
import { trustProxyOption } from './client-address.js';
import { healthRoutes } from './health.js';
import { metricsPlugin } from './metrics-plugin.js';

export interface AppOptions {
  config: Config;
  store: Store;
  /** false silences logs (tests); a pino logger instance or options otherwise. */
  logger?: boolean | FastifyBaseLogger | Record<string, unknown>;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: NodeJS.WritableStream;
  /** The periodic jobs (retention sweeper, WAL checkpointer), started when the app is ready: a server's, off by default. */
  backgroundJobs?: boolean;
}

// What a route takes unless it says otherwise: a storage account may list 1000 directories of up to 1 KiB each.
// Routes that take less say so (POST /login 16 KiB, the recordings routes 64 KiB and 256 KiB); run bodies take
// 32 MiB. A larger body is 413 before a byte is parsed (from Content-Length, else once the bytes pass the limit).
const DEFAULT_BODY_LIMIT = 1024 * 1024;
const DOCS_CSP = [
  "default-src 'none'",
  "base-uri 'none'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
].join('; ');
type AwaitingContinue = IncomingMessage & { awaitsContinue?: boolean };
// RFC 3986's uri-host (an IP literal, or a reg-name of unreserved, sub-delims and %-escapes, maybe empty) and port.
const HOST_HEADER = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]*)(?::\d*)?$/;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, store } = options;
  const loggerOption =
    options.logger === undefined
      ? { level: config.logLevel, redact: REDACTED_PATHS, stream: options.logStream ?? asyncStdout() }
      : options.logger;
  const app = Fastify({
    ...(typeof loggerOption === 'object' && 'child' in loggerOption
      ? { loggerInstance: loggerOption as FastifyBaseLogger }
      : {
          logger:
            loggerOption === false ? false : { ...(loggerOption as object), serializers: { req: serializeRequest } },
        }),
    // One access-log line per request (onResponse below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestIdFrom,
    bodyLimit: DEFAULT_BODY_LIMIT,
    trustProxy: trustProxyOption(config.trustProxy),
    // A runId may be 128 bytes, up to 384 characters percent-encoded; the router's default stops at 100.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 1024 },
    // A request whose body stops arriving is dropped after 5 minutes (Fastify's default waits for ever); a 32 MiB
    // run still has time on a slow link.
    requestTimeout: 300_000,
    ajv: { customOptions: { removeAdditional: false } },
    schemaController: { compilersFactory: { buildValidator } },
    frameworkErrors,
    clientErrorHandler,
    // Fastify's own 503 while closing is not a problem; the onRequest hook below answers instead.
    return503OnClosing: false,
    // Node answers a request without Host with a bare 400; the onRequest hook below answers with a problem.
    http: { requireHostHeader: false },
  }) as unknown as FastifyInstance;

  // `Expect: 100-continue`: Node would answer 100 to every such request, inviting a client to send 40 MiB that the
  // 413 then refuses, or a body that a 401 then refuses. The body is asked for only once the route is about to read
  // it (its onRequest checks, authentication included, passed) and only when it fits the route's limit; otherwise the
  // route answers 413 from the header.
  app.server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    (req as AwaitingContinue).awaitsContinue = true;
    app.server.emit('request', req, res);
  });
  app.addHook('preParsing', (request, reply, payload, done) => {
    const raw = request.raw as AwaitingContinue;
    if (raw.awaitsContinue) {
      raw.awaitsContinue = false;
      if (!(Number(request.headers['content-length']) > (request.routeOptions.bodyLimit ?? MAX_BODY_BYTES)))
        reply.raw.writeContinue();
    }
    done(null, payload);
  });
  // Any other expectation: Node would answer 417 with an empty body.
  app.server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify(problem(417, 'bad_request', 'The only expectation this server meets is 100-continue'));
    const reqId = requestIdFrom(req);
    app.log.info(
      {
        reqId,
        method: req.method,
        url: redactUrl(req.url ?? ''),
        status: 417,
        remoteAddress: req.socket.remoteAddress,
        code: 'bad_request',
      },
      'request',
    );
    res.writeHead(417, {
      'Content-Type': PROBLEM_CONTENT_TYPE,
      'Content-Length': Buffer.byteLength(body),
      'API-Version': LATEST_API_VERSION,
      'X-Request-Id': reqId,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
      Connection: 'close',
    });
    res.end(body);
  });

  app.decorate('store', store);
  app.decorate('config', config);
  app.decorateRequest('apiVersion', LATEST_API_VERSION);
  app.decorateRequest('problemCode', undefined);
  installErrorHandlers(app, trackAllowedMethods(app));

  useJsonBodyParser(app);
  refuseTextBodies(app);

  // The access line is built only when it would be written: at warn and above the hook is not installed at all.
  const log = app.log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
  // It names the client's address (a lockout or a guessing client must be traceable) and, for an error, its code.
  if (log.isLevelEnabled?.('info')) {
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info(accessFields(request, reply.statusCode, Math.round(reply.elapsedTime * 10) / 10), 'request');
      done();
    });
  }

  // A request that reaches a closing server (on a keep-alive connection it already had) goes to another instance.
  const draining = drainOnClose(app);

  // Callback-style hooks: these run on every request, and an async hook costs a promise and a microtask each.
  app.addHook('onRequest', (request, reply, done) => {
    // First, so that every answer carries them, the refusals just below included (spec §1).
    reply.header('X-Request-Id', request.id);
    // A browser must take every answer as the type it says: a signed download of an HTML-looking .txt, or a problem,
    // is never run as a page or a script.
    reply.header('X-Content-Type-Options', 'nosniff');
    // Set before negotiating, so that a 406 for an unknown version still names the latest one.
    reply.header('API-Version', LATEST_API_VERSION);
    if (draining.closing && request.routeOptions.config.answersWhileDraining !== true) {
      refuseWhileClosing(request, reply);
      return;
    }
    const host = request.headers.host;
    if (
      host === undefined
        ? request.raw.httpVersion === '1.1'
        : !HOST_HEADER.test(host) || headerCount(request.raw.rawHeaders, 'host') > 1
    ) {
      // RFC 9112 §3.2: a server answers 400 to an HTTP/1.1 request without Host, and to any with several Host
      // headers or one that is not a host.
      reply.header('Connection', 'close');
      done(
        new ApiError(
          400,
          'bad_request',
          host === undefined
            ? 'An HTTP/1.1 request needs a Host header'
            : 'Send one Host header: a host name or address with an optional port',
        ),
      );
      return;
    }
    const refused = unreadableRequest(
      request.url,
      request.headers['content-encoding'],
      request.routeOptions.config.decodesBody === true,
    );
    if (refused) {
      done(refused);
      return;
    }
    try {
      request.apiVersion = negotiateVersion(request.headers.accept);
    } catch (err) {
      done(err as Error);
      return;
    }
    if (request.apiVersion !== LATEST_API_VERSION) reply.header('API-Version', request.apiVersion);
    done();
  });

  await app.register(swagger, {
    transform: documentRoute,
    transformObject: exampleBodies,
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Sightline API',
        version: API_VERSIONS[API_VERSIONS.length - 1]!,
        description:
          'Detection runs per recording, and signed URLs for recording assets. Errors are application/problem+json with a stable `code`. ' +
          'Every answer carries `X-Request-Id` (the one sent, or a new one) and `API-Version`. Pin a version with ' +
          '`Accept: application/json; version=<v>`; an unknown version → 406 unsupported_api_version. The storage routes take the ' +
          "account's two credential headers (security schemes storageAccessKey and storageSecret); the others a Bearer token. " +
          'Who may call what: every member of the organisation (viewer, editor, admin, owner) and an access token read runs and recordings; ' +
          'editors, admins, owners and access tokens post and delete runs; admins, owners and access tokens register and delete recordings; ' +
          "only admins and owners use the storage admin routes. A role without the right → 403 forbidden; another organisation's object → 404.",
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      servers: [{ url: '/', description: 'This server' }],
      tags: [
        { name: 'auth', description: 'Sessions for people: log in with a username and password, log out' },
        { name: 'detections', description: 'Detection runs: deliver, list, fetch, delete' },
        { name: 'recordings', description: 'The recording registry, region search and asset URLs' },
        {
          name: 'storage',
          description:
            "Signed URLs for recording files (the storage account's credentials), and the service-signed download",
        },
        {
          name: 'evaluation',
          description: 'Scores of prediction runs against ground truth (HOTA, CLEAR MOT, Identity, COCO)',
        },
        { name: 'storage admin', description: 'Providers and storage accounts of the organisation (owner or admin)' },
        { name: 'health', description: 'For load balancers' },
      ],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, ...STORAGE_SECURITY_SCHEMES } },
    },
  });
  // Swagger UI loads only its own scripts and styles (no inline script; inline styles it sets itself) and calls only
  // this server: everything else is refused, and no other site may frame it.
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: DOCS_CSP });

  await app.register(healthRoutes, { draining });
  await app.register(metricsPlugin);

  // The domains. Plugin dependencies point one way: detections and search need recordings, every domain with
  // routes needs auth; storage decorates the app with `assetSigner`, which the recordings' asset route reads.
  await app.register(authPlugin);
  await app.register(recordingsPlugin);
  await app.register(detectionsPlugin);
  await app.register(searchPlugin);
  await app.register(storagePlugin);
  await app.register(evaluationPlugin);
  await app.register(adminPlugin);
  if (options.backgroundJobs) {
    await app.register(retentionPlugin);
    await app.register(evaluationRunnerPlugin);
    await app.register(walCheckpointerPlugin);
  }
  // The editor last, so that API routes always win.
  await app.register(webRoutes);
  return app;
}

const SIGNED_PREFIX = '/api/storage/signed';

/**
 * What the route could not read: a query whose percent-encoding is broken (the query parser would take `%ZZ`
 * literally and look it up), and a body in a content coding the route does not decode (it would reach the JSON parser
 * compressed). Routes marked `decodesBody` take gzip, deflate and br.
 */
function unreadableRequest(
  url: string,
  contentEncoding: string | undefined,
  decodesBody: boolean,
): ApiError | undefined {
  const q = url.indexOf('?');
  // The signed routes read their own query: there a broken one is 400 invalid_signed_url, or a "malformed" verdict.
  if (q >= 0 && url.includes('%', q) && !url.startsWith(SIGNED_PREFIX)) {
    try {
      decodeURIComponent(url.slice(q + 1));
    } catch {
      return new ApiError(
        400,
        'invalid_field',
        "The query string's percent-encoding is broken (each % starts two hex digits of UTF-8)",
      );
    }
  }
  const coding = bodyCoding(contentEncoding);
  if (coding !== 'identity' && !(decodesBody && coding !== 'other')) {
    return new ApiError(
      415,
      'unsupported_media_type',
      decodesBody
        ? `Content-Encoding "${contentEncoding}" is not supported: send the body uncompressed, or as ${DECODED_CODINGS.join(', ')}`
        : `Content-Encoding "${contentEncoding}" is not supported: send the body uncompressed`,
    );
  }
  return undefined;
}

function serializeRequest(request: { method: string; url: string; ip?: string; id?: string }) {
  return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
}
