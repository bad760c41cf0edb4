import type { IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';
import { headerCount } from './raw-headers.js';

// Any ASCII id a client may send is honoured (UUIDs, `{…}`, paths, inner spaces) as long as it can be echoed as a
// header value unchanged: no control characters, no leading or trailing space, at most 256 characters. (Bytes past
// ASCII would not come back as they were sent.) Log lines are JSON, so the id cannot forge one.
const SAFE_ID = /^[\x21-\x7e](?:[\x20-\x7e]{0,254}[\x21-\x7e])?$/;

// A random per-process prefix and a counter: unique across instances, and no random bytes per request.
const PREFIX = randomBytes(6).toString('base64url');
let counter = 0;

export function requestIdFrom(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  if (typeof incoming !== 'string' || !SAFE_ID.test(incoming)) return newId();
  // Node joins repeated headers with ", ": two ids are no id of the client's, so the request gets its own.
  return incoming.includes(', ') && headerCount(req.rawHeaders, 'x-request-id') > 1 ? newId() : incoming;
}

/**
 * The id a request the HTTP parser refused should be answered with: the client's own when its header line arrived
 * in the refused bytes, else a new one (the log has no line for such a request, so the answer is where it shows).
 */
export function requestIdFromRaw(raw: unknown): string {
  if (Buffer.isBuffer(raw)) {
    const head = raw.toString('latin1');
    const m = /\r\nx-request-id:[ \t]*([^\r\n]*?)[ \t]*\r\n/i.exec(head.slice(0, (head.indexOf('\r\n\r\n') >>> 0) + 2));
    if (m && SAFE_ID.test(m[1]!)) return m[1]!;
  }
  return newId();
}

function newId(): string {
  return `${PREFIX}-${(counter++).toString(36)}`;
}
