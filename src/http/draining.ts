// How a closing server treats the connections it still has: what is in flight is answered, a request that follows
// on the same connection is refused with a 503 (never a reset), and the connections go once they stay idle.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { PROBLEM_CONTENT_TYPE, problem } from './problem.js';
import { idleOf } from '../runtime/idle-connections.js';

export interface Draining {
  closing: boolean;
}

/**
 * How long a connection must have been idle, once the server closes, before it is dropped. Node drops idle
 * connections the moment the server closes; a client that has just had an answer on one sends its next request a
 * moment later and meets a reset, which it cannot tell from a request lost mid-way (a POST cannot be retried
 * safely). Kept this long instead, that request gets the 503 below, with `Connection: close`.
 */
export const IDLE_BEFORE_DROP_MS = 500;

/** Marks the server closing before Fastify closes it, and drops its connections only once they stay idle. */
export function drainOnClose(app: FastifyInstance): Draining {
  const state: Draining = { closing: false };
  // Per connection, not per request: a keep-alive client opens one and sends many.
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  app.addHook('preClose', (done) => {
    state.closing = true;
    // Both Node's close and Fastify's call this to drop idle connections at once: from now on the reaper decides.
    app.server.closeIdleConnections = () => {};
    const idleSince = new Map<Socket, number>();
    const reaper = setInterval(() => {
      // The listener is closed: no connection comes any more, and once none is left there is nothing to watch.
      if (sockets.size === 0) {
        clearInterval(reaper);
        return;
      }
      const now = Date.now();
      const idle = idleOf(app.server, sockets);
      for (const socket of sockets) {
        if (!idle.has(socket)) {
          idleSince.delete(socket);
          continue;
        }
        const since = idleSince.get(socket);
        if (since === undefined) idleSince.set(socket, now);
        else if (now - since >= IDLE_BEFORE_DROP_MS) socket.destroy();
      }
    }, 50);
    reaper.unref();
    done();
  });
  return state;
}

/**
 * The answer to a request that reaches a closing server on a connection it already had: 503, to be sent again to
 * another instance. Routine during a deploy, so it is the access line's (at info), not a failure with a stack.
 */
export function refuseWhileClosing(request: FastifyRequest, reply: FastifyReply): void {
  request.problemCode = 'service_unavailable';
  reply
    .code(503)
    .headers({ Connection: 'close', 'Retry-After': '1', 'Cache-Control': 'no-store' })
    .type(PROBLEM_CONTENT_TYPE)
    .send(
      JSON.stringify(
        problem(
          503,
          'service_unavailable',
          'The server is shutting down: send the request again (to another instance)',
        ),
      ),
    );
}
