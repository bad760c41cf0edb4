import type { FastifyReply } from 'fastify';
import { accessFields } from './access-log.js';

/** Below this, compressing costs more than it saves. */
const COMPRESS_FROM_BYTES = 16 * 1024;

/**
 * Serialises once, by hand (no schema serializer walks 250 000 boxes), and compresses only large bodies
 * for clients that ask: the compression plugin is not global, because its hooks cost every small request.
 */
export function sendJson(reply: FastifyReply, status: number, value: unknown) {
  const body = JSON.stringify(value);
  reply.code(status).type('application/json; charset=utf-8');
  if (body.length >= COMPRESS_FROM_BYTES) return sendMaybeCompressed(reply, body);
  return reply.send(body);
}

/**
 * A body that is compressed for clients that ask. Every answer says it varies by Accept-Encoding, also the plain one
 * (no header, identity, an unknown coding): a shared cache must not hand it to a client that asked for br, nor a br
 * answer to one that did not. The plugin's own check skips a Vary that already names accept-encoding.
 */
export function sendMaybeCompressed(reply: FastifyReply, body: string | NodeJS.ReadableStream) {
  // A streamed answer the client drops half-way never finishes, so no onResponse runs and no access line is written.
  if (typeof body !== 'string') {
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished)
        reply.request.log.info(
          accessFields(reply.request, reply.statusCode),
          'request: the client went away during the answer',
        );
    });
  }
  // reply.compress exists only inside the scope that registers the plugin (see app.ts); elsewhere the body goes as is.
  if (typeof reply.compress !== 'function') return reply.send(body);
  const vary = reply.getHeader('vary');
  if (!vary) reply.header('Vary', 'accept-encoding');
  else if (!String(vary).toLowerCase().includes('accept-encoding'))
    reply.header('Vary', `${String(vary)}, accept-encoding`);
  return reply.request.headers['accept-encoding'] ? reply.compress(body) : reply.send(body);
}
