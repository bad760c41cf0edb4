// Log lines carry the path and method, never a credential: signed-URL tokens, and anything a client may have put
// in a query under a credential's name (`access_token`, `password`, `api_key`, X-Amz-Security-Token…), are cut.
const QUERY_PARAM = /([?&])([^=&#]*)=([^&#]*)/g;
const SECRET_NAME =
  /^(?:s|sig|auth|code|key|pass|passphrase)$|token|secret|passw(?:or)?d|pwd|signature|credential|authori[sz]ation|session|jwt|bearer|(?:api|access|private|secret|signing)key/;

function redactParam(match: string, separator: string, name: string): string {
  let key = name;
  try {
    key = decodeURIComponent(name);
  } catch {
    /* the raw name, then */
  }
  return SECRET_NAME.test(key.toLowerCase().replace(/[-_.\s]/g, '')) ? `${separator}${name}=[redacted]` : match;
}

/** An invitation's secret is a path segment (POST /invitations/{token}): the log keeps its route only. */
const INVITATION_PATH = /^\/invitations\/[^/?#]+/;

export function redactUrl(url: string): string {
  const path = url.startsWith('/invitations/') ? url.replace(INVITATION_PATH, '/invitations/[redacted]') : url;
  return path.includes('?') ? path.replace(QUERY_PARAM, redactParam) : path;
}

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-service-storage-secretaccesskey"]',
  'headers.authorization',
  'password',
  'secretAccessKey',
  'token',
];
