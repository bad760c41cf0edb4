// Large request bodies go gzip-compressed, to the routes that decode a compressed body (every other route answers
// 415 to one). A run's JSON shrinks to about a tenth, which is most of a large upload's time on a slow link.
import type { Middleware } from 'openapi-fetch';

/** The routes that take `Content-Encoding: gzip`, by method and documented path. */
const DECODING_ROUTES = new Set(['POST /detections', 'POST /detections/import']);

/** Bodies above this many bytes are compressed unless the client is told otherwise: 1 MiB. */
export const DEFAULT_COMPRESS_ABOVE = 1024 * 1024;

// Compression is the platform's (Node ≥ 18, every current browser): native zlib, and no dependency to ship.
// Server code is typed without the DOM, so the constructor is named here.
type GzipStream = new (format: 'gzip') => TransformStream<Uint8Array, Uint8Array>;
const { CompressionStream } = globalThis as unknown as { CompressionStream: GzipStream };

export async function gzip(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const compressed = new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(compressed).arrayBuffer());
}

/** A middleware that gzips a body of more than `threshold` bytes sent to a route that decodes one. */
export function gzipLargeBodies(threshold: number): Middleware {
  return {
    async onRequest({ request, schemaPath }) {
      if (request.body === null || !DECODING_ROUTES.has(`${request.method} ${schemaPath}`)) return undefined;
      if (request.headers.has('content-encoding')) return undefined;
      const bytes = new Uint8Array(await request.arrayBuffer());
      const headers = new Headers(request.headers);
      let body = bytes;
      if (bytes.byteLength > threshold) {
        body = await gzip(bytes);
        headers.set('content-encoding', 'gzip');
      }
      // The body was read: the request goes on as a new one with the same parts.
      return new Request(request.url, {
        method: request.method,
        headers,
        body,
        signal: request.signal,
        redirect: request.redirect,
        credentials: request.credentials,
        keepalive: request.keepalive,
      });
    },
  };
}
