import type { IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';

// Only ids that are safe to echo into headers and log lines are honoured.
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// A random per-process prefix and a counter: unique across instances, and no random bytes per request.
const PREFIX = randomBytes(6).toString('base64url');
let counter = 0;

export function requestIdFrom(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : `${PREFIX}-${(counter++).toString(36)}`;
}
