// The fields of an access line, shared by the app's onResponse hook, the error handler and streamed answers.
import type { FastifyRequest } from 'fastify';
import { redactUrl } from './log-redaction.js';

/** What an access line says of a request (app.ts writes most of them, once the answer is sent). */
export function accessFields(request: FastifyRequest, status: number, ms?: number): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    status,
    ...(ms === undefined ? {} : { ms }),
    ip: request.ip,
    ...(request.problemCode === undefined ? {} : { code: request.problemCode }),
  };
}
