// Reading from a cloud backend through a short-lived presigned URL of its own: one code path for S3, Azure and GCS,
// with conditional and range headers forwarded and the backend's answer mapped onto the spec's codes.
import { Readable } from 'node:stream';
import { ApiError } from '../../http/problem.js';
import { parseHttpDate, preconditionFailed, type ConditionalHeaders } from '../http-range.js';
import type { ReadRequest, ReadResponse } from './types.js';

const PASSED_HEADERS = ['content-type', 'content-length', 'etag', 'last-modified', 'content-range'] as const;

function preconditionError(providerName: string): ApiError {
  return new ApiError(
    412,
    'precondition_failed',
    'The object is not the version the request names (If-Match / If-Unmodified-Since)',
    { provider: providerName },
  );
}

/**
 * If-Match / If-Unmodified-Since checked again on the backend's 200 or 206: some S3-compatible servers (s3rver)
 * ignore them and answer another version's bytes, which a resumed download would splice onto its own.
 */
function failsPreconditions(request: ConditionalHeaders, headers: Record<string, string>): boolean {
  if (request.ifMatch === undefined && request.ifUnmodifiedSince === undefined) return false;
  const etag = headers.etag;
  const lastModified = parseHttpDate(headers['last-modified'] ?? '');
  if (request.ifMatch !== undefined && etag === undefined) return false;
  if (request.ifMatch === undefined && lastModified === undefined) return false;
  return preconditionFailed(request, { etag: etag ?? '', lastModified: new Date(lastModified ?? 0) });
}

/** The entity tag of an If-Range value when it can match at all: strong comparison (RFC 9110 §13.1.5). */
function strongTag(ifRange: string): string | undefined {
  const tag = ifRange.trim();
  return /^"[^"]*"$/.test(tag) ? tag : undefined;
}

/**
 * `headUrl`: a URL for a HEAD of the same object, asked only when the backend leaves out what the answer needs (some
 * S3-compatible servers send a 416 without `Content-Range` and a 304 without `ETag`/`Last-Modified`).
 *
 * If-Range is decided here, never by the backend: some backends (s3rver, and Azure in some versions) answer a Range
 * whatever If-Range says, and a resumed download then spliced the new version's bytes onto the old one's. The Range
 * goes to the backend with `If-Match: <the If-Range tag>`; its 412, or a 206 of another ETag (a backend that
 * ignores If-Match too), turns into the whole object, as RFC 9110 has it. An If-Range date, or a weak tag, never
 * matches (as for `fs`: a date cannot tell two versions written in one second apart), so the whole object is asked.
 */
export async function readThroughUrl(
  providerName: string,
  url: string,
  request: ReadRequest,
  timeoutMs: number,
  headUrl?: () => string,
): Promise<ReadResponse> {
  const { ifRange, ...plain } = request;
  if (!request.range || ifRange === undefined) return readOnce(providerName, url, plain, timeoutMs, headUrl);
  const whole = () => readOnce(providerName, url, { ...plain, range: undefined }, timeoutMs, headUrl);
  const tag = strongTag(ifRange);
  if (tag === undefined) return whole();
  // The client's own If-Match still decides 412 at the backend; the If-Range tag is then checked on the answer.
  const ours = plain.ifMatch === undefined;
  let answer: ReadResponse;
  try {
    answer = await readOnce(providerName, url, ours ? { ...plain, ifMatch: tag } : plain, timeoutMs, headUrl);
  } catch (err) {
    if (ours && err instanceof ApiError && err.status === 412) return whole();
    throw err;
  }
  if (answer.status !== 206 || answer.headers.etag === tag) return answer;
  answer.body?.destroy();
  return whole();
}

async function readOnce(
  providerName: string,
  url: string,
  request: Omit<ReadRequest, 'ifRange'>,
  timeoutMs: number,
  headUrl?: () => string,
): Promise<ReadResponse> {
  const headers: Record<string, string> = {};
  if (request.range) headers.range = request.range;
  if (request.ifNoneMatch) headers['if-none-match'] = request.ifNoneMatch;
  if (request.ifModifiedSince) headers['if-modified-since'] = request.ifModifiedSince;
  if (request.ifMatch) headers['if-match'] = request.ifMatch;
  if (request.ifUnmodifiedSince) headers['if-unmodified-since'] = request.ifUnmodifiedSince;

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onClientGone = () => controller.abort();
  request.signal.addEventListener('abort', onClientGone, { once: true });
  let response: Response;
  try {
    response = await fetch(url, { method: request.method, headers, signal: controller.signal, redirect: 'manual' });
  } catch (err) {
    request.signal.removeEventListener('abort', onClientGone);
    if (timedOut)
      throw new ApiError(504, 'provider_timeout', `Provider "${providerName}" did not answer within ${timeoutMs} ms`, {
        provider: providerName,
      });
    if (request.signal.aborted) throw err;
    throw new ApiError(502, 'provider_unavailable', `Provider "${providerName}" cannot be reached`, {
      provider: providerName,
    }).withCause(err);
  } finally {
    clearTimeout(timer);
  }

  const status = response.status;
  if (status === 200 || status === 206 || status === 304) {
    const out: Record<string, string> = {};
    for (const name of PASSED_HEADERS) {
      const v = response.headers.get(name);
      if (v !== null) out[name] = v;
    }
    if (status !== 304 && failsPreconditions(request, out)) {
      await response.body?.cancel().catch(() => {});
      request.signal.removeEventListener('abort', onClientGone);
      throw preconditionError(providerName);
    }
    if (request.method === 'HEAD' || status === 304 || !response.body) {
      await response.body?.cancel().catch(() => {});
      request.signal.removeEventListener('abort', onClientGone);
      if (status === 304 && (!out.etag || !out['last-modified']) && headUrl) {
        // A 304 carries the validators the 200 would have (RFC 9110 §15.4.5).
        const head = await headHeaders(headUrl(), timeoutMs);
        for (const name of ['etag', 'last-modified', 'content-type'] as const)
          if (!out[name] && head?.get(name)) out[name] = head.get(name)!;
      }
      return { status, headers: out };
    }
    const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
    body.once('close', () => request.signal.removeEventListener('abort', onClientGone));
    return { status, headers: out, body };
  }
  await response.body?.cancel().catch(() => {});
  request.signal.removeEventListener('abort', onClientGone);
  if (status === 404) throw new ApiError(404, 'object_not_found', 'No such object', { provider: providerName });
  if (status === 412) throw preconditionError(providerName);
  if (status === 416) {
    let range = response.headers.get('content-range');
    if (!range && headUrl) {
      const size = Number((await headHeaders(headUrl(), timeoutMs))?.get('content-length') ?? NaN);
      if (Number.isSafeInteger(size)) range = `bytes */${size}`;
    }
    throw new ApiError(
      416,
      'range_not_satisfiable',
      'The requested range is outside the object',
      { provider: providerName },
      range ? { 'Content-Range': range } : {},
    );
  }
  if (status >= 500)
    throw new ApiError(
      502,
      'provider_unavailable',
      `Provider "${providerName}" answered with a server error (${status})`,
      { provider: providerName },
    );
  throw new ApiError(
    502,
    'provider_error',
    `Provider "${providerName}" refused the request (${status}); check its configuration and credentials`,
    { provider: providerName },
  );
}

/** The headers of a HEAD of the object, or undefined when the backend does not answer it with 200 in time. */
async function headHeaders(url: string, timeoutMs: number): Promise<Headers | undefined> {
  try {
    const response = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    return response.status === 200 ? response.headers : undefined;
  } catch {
    return undefined;
  }
}
