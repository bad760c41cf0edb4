// Writing to a cloud backend through a short-lived presigned URL of its own (PUT with an exact Content-Length,
// DELETE), with the backend's answer mapped onto the spec's provider codes.
import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { ApiError } from '../../http/problem.js';

export interface SendRequest {
  method: 'PUT' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: Readable;
  timeoutMs: number;
}

export function sendThroughUrl(
  providerName: string,
  req: SendRequest,
): Promise<{ status: number; etag: string | undefined }> {
  const url = new URL(req.url);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = client.request(
      url,
      { method: req.method, headers: req.headers, timeout: req.timeoutMs },
      (res) => {
        res.resume();
        res.once('end', () => {
          const status = res.statusCode ?? 0;
          const etag = typeof res.headers.etag === 'string' ? res.headers.etag : undefined;
          if (status >= 200 && status < 300) return resolve({ status, etag });
          if (req.method === 'DELETE' && status === 404) return resolve({ status, etag });
          if (status >= 500)
            return reject(
              new ApiError(
                502,
                'provider_unavailable',
                `Provider "${providerName}" answered with a server error (${status})`,
                { provider: providerName },
              ),
            );
          reject(
            new ApiError(
              502,
              'provider_error',
              `Provider "${providerName}" refused the ${req.method} (${status}); check its configuration and credentials`,
              { provider: providerName },
            ),
          );
        });
      },
    );
    outgoing.once('timeout', () =>
      outgoing.destroy(
        new ApiError(504, 'provider_timeout', `Provider "${providerName}" did not answer within ${req.timeoutMs} ms`, {
          provider: providerName,
        }),
      ),
    );
    outgoing.once('error', (err) =>
      reject(
        err instanceof ApiError
          ? err
          : new ApiError(502, 'provider_unavailable', `Provider "${providerName}" cannot be reached`, {
              provider: providerName,
            }).withCause(err),
      ),
    );
    if (req.body) {
      req.body.once('error', (err) => outgoing.destroy(err));
      req.body.pipe(outgoing);
    } else {
      outgoing.end();
    }
  });
}
