// A request answered before its whole body arrived (a 413, 401, 415, 408…) closes its connection. Closed at once,
// the bytes the client is still sending make the kernel reset the connection, and a reset can throw away the answer
// already on its way: the client sees EPIPE or ECONNRESET instead of the 413. So the answer goes out with a FIN,
// and what still comes is read and dropped for a while before the socket is destroyed, as nginx's lingering close.
// It replaces the socket's destroySoon, an undocumented method Node's HTTP server calls to close after an answer.
// Not gated on the Node major: the HTTP tests rely on it; where a Node has no destroySoon it leaves the socket alone.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

const LINGER_MS = 2000;
const lingering = new WeakSet<Socket>();

/** Whether the socket's request was answered early and the socket is being closed. */
export function isLingering(socket: Socket): boolean {
  return lingering.has(socket);
}

/** Call before answering: Node's own close after the answer (destroySoon) becomes a lingering one. */
export function lingerAfterAnswer(request: IncomingMessage): void {
  const socket = request.socket;
  if (!socket || socket.destroyed || lingering.has(socket) || typeof socket.destroySoon !== 'function') return;
  lingering.add(socket);
  socket.destroySoon = function lingeringClose(this: Socket) {
    if (this.destroyed) return;
    this.end();
    // The HTTP parser hands what still arrives to the request: let it flow to nowhere.
    request.removeAllListeners('data');
    request.resume();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
  };
}
