import type { IncomingMessage } from 'node:http';
import { newId } from '../util/ids.js';

// Only ids that are safe to echo into headers and log lines are honoured.
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFrom(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : newId();
}
