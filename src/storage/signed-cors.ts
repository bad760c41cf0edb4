// CORS for service-signed URLs. The URL is its own credential (no cookie, no header authorises it), so any origin may
// read it: `*` without credentials, which browsers refuse to combine with cookies. Players on another origin (fetch,
// hls.js, dash.js, canvas capture) need the range headers exposed and their preflight for Range and the conditional
// headers answered.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const SIGNED_CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Content-Range, Accept-Ranges, Content-Length, ETag, Last-Modified, Content-Type',
} as const;

/** The request headers a preflight may ask for: Range and the conditional ones (CORS-safelisted ones need none). */
const ALLOWED_REQUEST_HEADERS = [
  'Range',
  'If-Range',
  'If-Match',
  'If-None-Match',
  'If-Modified-Since',
  'If-Unmodified-Since',
];
/** A day: browsers cap it lower (Chromium at two hours) and keep their own shorter limit. */
const PREFLIGHT_MAX_AGE_SECONDS = 86_400;

/** onSend hook: every answer of a signed route, errors included (a player must be able to read a 403 or a 416). */
export function addSignedCorsHeaders(_request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  reply.headers(SIGNED_CORS_HEADERS);
  return Promise.resolve(payload);
}

/** OPTIONS for a signed path: 204 whatever the preflight asks; the browser compares what it needs itself. */
export function signedPreflightRoute(app: FastifyInstance, url: string, methods: string): void {
  app.options(url, { schema: { hide: true } }, (_request, reply) => {
    reply
      .code(204)
      .headers({
        'access-control-allow-origin': '*',
        'access-control-allow-methods': methods,
        'access-control-allow-headers': ALLOWED_REQUEST_HEADERS.join(', '),
        'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
      })
      .send();
  });
}
