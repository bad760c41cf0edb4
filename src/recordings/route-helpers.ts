// What the routes under /recordings share, whichever domain answers them.
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/problem.js';

export function requireJson(request: FastifyRequest) {
  if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
    throw new ApiError(415, 'unsupported_media_type', 'Send the body as application/json');
  }
}

/** The id or mediaKey after /recordings/: URL-encoded (%2F) or as plain path segments. */
export function recordingRef(request: FastifyRequest): string {
  const raw = (request.params as Record<string, string>)['*'] ?? '';
  if (raw === '') throw new ApiError(404, 'recording_not_found', 'Name the recording: /recordings/{id or mediaKey}');
  return raw;
}
