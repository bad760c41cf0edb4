import type { FastifyReply } from 'fastify';

/** Below this, compressing costs more than it saves. */
const COMPRESS_FROM_BYTES = 16 * 1024;

/**
 * Serialises once, by hand (no schema serializer walks 250 000 boxes), and compresses only large bodies
 * for clients that ask: the compression plugin is not global, because its hooks cost every small request.
 */
export function sendJson(reply: FastifyReply, status: number, value: unknown) {
  const body = JSON.stringify(value);
  reply.code(status).type('application/json; charset=utf-8');
  // reply.compress exists only inside the scope that registers the plugin (see app.ts); elsewhere the body goes as is.
  if (body.length >= COMPRESS_FROM_BYTES && reply.request.headers['accept-encoding'] && typeof reply.compress === 'function') return reply.compress(body);
  return reply.send(body);
}
