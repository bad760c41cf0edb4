// Log lines carry the path and method, never a credential: signed-URL tokens are cut from the query.
const SECRET_QUERY_PARAMS = /([?&](?:s|sig|signature|token|X-Amz-Signature|X-Goog-Signature)=)[^&]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY_PARAMS, '$1[redacted]');
}

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-service-storage-secretaccesskey"]',
  'headers.authorization',
  'password',
  'secretAccessKey',
  'token',
];
