import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, PROBLEM_CONTENT_TYPE, problem, statusTitle, type ProblemBody } from './problem.js';
import { LATEST_API_VERSION } from './versioning.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { requestIdFromRaw } from './request-id.js';
import { jsonStream, streamsAnyMember } from './json-chunks.js';
import { isLingering, lingerAfterAnswer } from '../runtime/lingering-close.js';
import { sendMaybeCompressed } from './send-json.js';
import { accessFields } from './access-log.js';
import type { AllowedMethods } from './allowed-methods.js';

interface Mapped {
  status: number;
  body: ProblemBody;
  headers?: Record<string, string>;
}

/** Turns any thrown thing into a problem; unknown errors become 500 without leaking their message. */
export function toProblem(error: unknown, validationCode = 'invalid_body'): Mapped {
  if (error instanceof ApiError) return { status: error.status, body: error.toProblem(), headers: error.headers };
  const e = error as FastifyError & { validation?: unknown[]; validationContext?: string };
  switch (e?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        status: 413,
        body: problem(413, 'payload_too_large', 'The request body is larger than the limit for this route'),
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? { status: 415, body: problem(415, 'unsupported_media_type', 'Send the body as application/json') }
        : { status: 400, body: problem(400, 'malformed_json', 'The body length does not match Content-Length') };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, body: problem(400, 'malformed_json', 'The body is not valid JSON') };
  }
  if (e?.validation) {
    const where = e.validationContext ?? 'body';
    if (where === 'body') return { status: 400, body: problem(400, validationCode, `Invalid body: ${e.message}`) };
    // A query parameter or path segment (a repeated ?mediaKey=, a number that is not one): the specs' code for a bad
    // field, naming it.
    const first = e.validation[0] as { instancePath?: string; params?: { missingProperty?: string } } | undefined;
    const field = first?.params?.missingProperty ?? first?.instancePath?.replace(/^\//, '').split('/')[0];
    return {
      status: 400,
      body: problem(400, 'invalid_field', `Invalid ${where}: ${e.message}`, field ? { field } : undefined),
    };
  }
  if (e instanceof SyntaxError || e?.code === 'malformed_json') {
    return { status: 400, body: problem(400, 'malformed_json', 'The body is not valid JSON') };
  }
  // PostgreSQL text holds no U+0000 (22021; 22P05 inside JSON): a value with one can be neither stored nor found.
  if (e?.code === '22021' || e?.code === '22P05') {
    return {
      status: 400,
      body: problem(
        400,
        'invalid_field',
        'A text value contains the character U+0000, which cannot be stored or looked up',
      ),
    };
  }
  // First: Fastify marks what it blames on the request with a 4xx, such as a body whose client went away mid-upload
  // (`aborted`, code ECONNRESET), which is no database outage although its code is a socket's.
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return { status: e.statusCode, body: problem(e.statusCode, 'bad_request', e.message) };
  }
  if (isDatabaseUnavailable(e)) {
    // Nothing was written (a statement that failed rolled back its transaction): the same request may be sent again.
    return {
      status: 503,
      body: problem(503, 'service_unavailable', 'The database is not reachable: send the request again shortly'),
      headers: { 'Retry-After': '2' },
    };
  }
  return { status: 500, body: problem(500, 'internal_error', 'The server failed to handle the request') };
}

/**
 * A request answered before its body was read (401, 413, 415…) must not keep the connection: the client would go
 * on uploading into a socket nobody reads, and shutdown would wait for it. Every error answer passes through one of
 * the two handlers below, so this is checked there rather than in a hook that every request would run.
 */
function errorAnswerHeaders(request: FastifyRequest, reply: FastifyReply): void {
  if (!request.raw.complete) {
    reply.header('Connection', 'close');
    lingerAfterAnswer(request.raw);
  }
  // A 404 is cacheable by default (RFC 9110 §15.1): a shared cache must not keep "no such thumbnail" after the
  // thumbnail is made, nor any other refusal that holds only for this moment.
  reply.header('Cache-Control', 'no-store');
}

export function installErrorHandlers(app: FastifyInstance, allowedMethods: AllowedMethods): void {
  app.setErrorHandler((error, request, reply) => {
    errorAnswerHeaders(request, reply);
    const config = request.routeOptions?.config as { validationCode?: string } | undefined;
    const mapped = toProblem(error, config?.validationCode);
    // A refusal is the access line's (with its code); a failure gets a line of its own with the error.
    request.problemCode = mapped.body.code;
    if (mapped.status >= 500) request.log.error({ err: error }, 'request failed');
    // No answer finishes on a socket that is gone (a client leaving mid-upload), and so no access line comes.
    else if (request.raw.socket?.destroyed)
      request.log.info(accessFields(request, mapped.status), 'request: the client went away');
    if (mapped.headers) reply.headers(mapped.headers);
    // A problem may list millions of rejected boxes: that one is written piece by piece.
    reply.code(mapped.status).type(PROBLEM_CONTENT_TYPE);
    if (streamsAnyMember(mapped.body)) sendMaybeCompressed(reply, jsonStream(mapped.body));
    else reply.send(JSON.stringify(mapped.body));
  });
  app.setNotFoundHandler((request, reply) => {
    errorAnswerHeaders(request, reply);
    const allowed = allowedMethods(request.url);
    // A route that takes this method and still found nothing (a static file that is not there) is a plain 404.
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      request.problemCode = 'method_not_allowed';
      reply
        .code(405)
        .header('Allow', allowed.join(', '))
        .type(PROBLEM_CONTENT_TYPE)
        .send(
          JSON.stringify(
            problem(
              405,
              'method_not_allowed',
              `${request.method} is not one of this path's methods: ${allowed.join(', ')}`,
              { allow: allowed },
            ),
          ),
        );
      return;
    }
    request.problemCode = 'route_not_found';
    reply
      .code(404)
      .type(PROBLEM_CONTENT_TYPE)
      .send(JSON.stringify(problem(404, 'route_not_found', `No route ${request.method} ${request.url.split('?')[0]}`)));
  });
}

/**
 * Errors Fastify meets before any hook runs: a path whose percent-encoding is broken (`/detections/%ZZ`). Still a
 * problem, with the headers every answer carries.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const body =
    error.code === 'FST_ERR_BAD_URL'
      ? problem(400, 'bad_request', 'The request path is not valid percent-encoded UTF-8')
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? problem(400, 'bad_request', 'A path segment is longer than any id or name this API has')
        : problem(500, 'internal_error', 'The server failed to handle the request');
  // No onResponse hook runs for these: this is their access line.
  if (body.status >= 500) request.log.error({ err: error }, 'request failed');
  request.problemCode = body.code;
  request.log.info(accessFields(request, body.status), 'request');
  reply
    .code(body.status)
    .headers({ 'X-Request-Id': request.id, 'API-Version': LATEST_API_VERSION, 'X-Content-Type-Options': 'nosniff' })
    .type(PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify(body));
}

const FILENAME_HEADER = 'X-Service-Storage-FileName';
const FILENAME_LINE = /^x-service-storage-filename:([\s\S]*)$/i;

/** Whether a refused request to a storage route carries a control character in its filename header. */
function controlCharInFilenameHeader(raw: Buffer): boolean {
  const text = raw.toString('latin1');
  if (!/^[A-Z]+ \/api\/storage[/?\s]/.test(text)) return false;
  const head = text.slice(0, text.indexOf('\r\n\r\n') >>> 0);
  // Each header line ends at CRLF; a bare LF or CR inside a value is itself the control character.
  for (const line of head.split('\r\n')) {
    const m = FILENAME_LINE.exec(line);
    if (m && /[\x00-\x08\x0a-\x1f\x7f]/.test(m[1]!)) return true;
  }
  return false;
}

// How the parser names a control character inside a header value: most as an invalid token, a bare CR or LF as a
// line ending it did not expect.
const HEADER_VALUE_REFUSALS = new Set(['HPE_INVALID_HEADER_TOKEN', 'HPE_CR_EXPECTED', 'HPE_LF_EXPECTED']);

/**
 * Requests Node's HTTP parser refuses (a control character in a header value, a broken request line): no request
 * object exists, so the answer is written to the socket directly, as problem+json like every other error.
 */
export function clientErrorHandler(
  this: FastifyInstance,
  error: Error & { code?: string; rawPacket?: unknown },
  socket: Socket,
): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // Already answered (an early 401, 413…) and closing: what the parser makes of the rest (a body cut short by the
  // client's FIN) is no request of its own.
  if (isLingering(socket)) {
    socket.destroy();
    return;
  }
  // A code of its own per status: a client told `bad_request` for headers over the limit would look for a syntax error.
  const [status, code, detail] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', 'The request headers are too large (at most 16 KiB in all)']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request took too long to arrive']
        : [400, 'bad_request', 'The request is not valid HTTP (for example a control character in a header value)'];
  // The storage spec's answer to a filename with a control character is invalid_filename; in a header, the parser
  // refuses it before any route sees it.
  const answer =
    HEADER_VALUE_REFUSALS.has(error.code ?? '') &&
    Buffer.isBuffer(error.rawPacket) &&
    controlCharInFilenameHeader(error.rawPacket)
      ? problem(400, 'invalid_filename', `${FILENAME_HEADER}: a filename has no control characters`, {
          header: FILENAME_HEADER,
        })
      : problem(status, code, detail);
  const body = JSON.stringify(answer);
  const reqId = requestIdFromRaw(error.rawPacket);
  // The access line of a request that never became one: its method, path and forwarded address cannot be trusted,
  // the parser's verdict and the connection's address can.
  this.log.info(
    { reqId, status, code: answer.code, parserError: error.code, remoteAddress: socket.remoteAddress },
    'request',
  );
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${statusTitle(status)}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `API-Version: ${LATEST_API_VERSION}\r\nX-Request-Id: ${reqId}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
