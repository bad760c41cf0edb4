// Which of a closing server's connections are idle, read from Node's private list of HTTP connections (the one its own
// closeIdleConnections reads) and each socket's private current response. Not gated on the Node major: shutdown
// tests rely on it, and where the list is missing it falls back to "no answer is being written".
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Of `sockets`, those with no request under way. Node's own list (what its closeIdleConnections reads) counts a
 * request whose headers are still arriving as under way, which a socket's current response alone would not show;
 * where that list is missing (another Node), a connection is idle when no answer is being written on it.
 */
export function idleOf(server: Server, sockets: Set<Socket>): Set<Socket> {
  const answering = (socket: Socket) => {
    const res = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    return res != null && !res.writableFinished;
  };
  const key = Object.getOwnPropertySymbols(server).find((s) => s.description === 'http.server.connections');
  const list =
    key && (server as unknown as Record<symbol, { idle?: () => Array<{ socket?: Socket }> } | undefined>)[key];
  const idle =
    typeof list?.idle === 'function'
      ? list.idle().flatMap((parser) => (parser.socket ? [parser.socket] : []))
      : [...sockets];
  return new Set(idle.filter((socket) => !answering(socket)));
}
