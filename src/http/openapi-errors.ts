// The refusals each operation documents: one response per status (not 4XX/5XX ranges), each an
// application/problem+json `Problem`, with the codes that status carries on that route. Statuses every route shares
// (the global hooks, authentication, a body) are added from the route's shape; the table below holds what the
// route's own code and its domain answer, as read from the handlers and the contract.
import { Type } from 'typebox';
import { named } from './openapi-components.js';

export const Problem = named(
  'Problem',
  Type.Object(
    {
      type: Type.String({ description: 'urn:sightline:problem:<code>' }),
      title: Type.String(),
      status: Type.Integer(),
      detail: Type.String({ description: 'For people; may change between versions' }),
      code: Type.String({ description: 'Stable and machine-readable: each response lists the codes it carries' }),
    },
    {
      additionalProperties: true,
      description:
        'RFC 9457 problem details. Some codes carry extension members, e.g. `errors`, `field`, `header`, `mediaKeys` (ambiguous_run_id), `currentRevision` (revision_conflict), `rejected` and `warnings` (all_boxes_rejected)',
    },
  ),
);

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Not authenticated',
  403: 'Not allowed',
  404: 'Not found',
  406: 'Unsupported API version',
  408: 'The body arrived too slowly',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition failed',
  413: 'Body too large',
  415: 'Unsupported media type',
  416: 'Range not satisfiable',
  421: 'Misdirected request',
  429: 'Too many requests',
  500: 'Internal error',
  502: 'Storage provider error',
  503: 'Unavailable',
  504: 'Storage provider timeout',
};

/** Codes per status, as one string: `a, b`. */
type Refusals = Record<number, string>;

const WRITE = { 403: 'forbidden (a role without write access)' };
const RECORDING_WRITE = { 403: 'forbidden (only owners, admins and access tokens)' };
const ADMIN = { 403: 'forbidden (only owners and admins)' };
const RUN_LOOKUP = {
  400: 'run_id_missing',
  404: 'run_not_found',
  409: 'ambiguous_run_id (the runId is on several recordings: the problem lists `mediaKeys`; add ?mediaKey=)',
};
const RUN_BODY = {
  400: 'invalid_body, target_missing, schema_version_missing, unsupported_schema_version, unsupported_task, invalid_source, invalid_run_id, invalid_coordinate_space, media_required, invalid_media, invalid_field, tracks_missing, too_many_tracks, invalid_track, duplicate_track_id, track_without_boxes, too_many_boxes, all_boxes_rejected, malformed_body (a coded body that does not decode)',
  408: 'request_timeout (a large body stopped arriving at the minimum rate)',
  413: 'payload_too_large (over 32 MiB, as sent or once decoded)',
  415: 'unsupported_media_type (not application/json, or a Content-Encoding other than gzip, deflate, br)',
};
const STORAGE_URL = {
  400: 'missing_header, invalid_filename, invalid_expiry, bad_request',
  401: 'provider_not_allowed (the provider is not bound to the account, or disabled)',
  403: 'directory_not_allowed',
  421: 'host_not_allowed (a service-signed URL for a Host that is not allowed)',
};
const STORAGE_DOWNLOAD = {
  400: 'invalid_signed_url',
  401: 'invalid_credentials, provider_not_allowed (the account was disabled or lost the provider)',
  403: 'bad_signature, url_expired, directory_not_allowed',
  404: 'object_not_found',
  412: 'precondition_failed',
  416: 'range_not_satisfiable',
  502: 'provider_unavailable, provider_error',
  504: 'provider_timeout',
};

/** What each operation answers beyond the shared statuses, by method and documented path. */
export const OPERATION_REFUSALS: Record<string, Refusals> = {
  'GET /api/health': {},
  'GET /api/health/live': {},
  'GET /api/health/ready': {},
  'POST /login': {
    400: 'invalid_body, invalid_field (missing or empty username or password)',
    401: 'invalid_credentials',
    429: 'too_many_requests (repeated failures for the username or the address; see Retry-After)',
  },
  'POST /logout': {},
  'POST /detections': { ...RUN_BODY, ...WRITE, 404: 'recording_not_found' },
  'GET /detections': { 400: 'media_key_missing, invalid_field', 404: 'recording_not_found' },
  'GET /detections/{runId}': { ...RUN_LOOKUP, 404: 'run_not_found, revision_not_found' },
  'DELETE /detections/{runId}': { ...RUN_LOOKUP, ...WRITE },
  'PATCH /detections/{runId}': {
    ...RUN_BODY,
    ...WRITE,
    400: 'invalid_body, invalid_field, nothing_to_change, all_boxes_rejected, track_not_found, malformed_body, and the track and box codes of POST /detections',
    404: 'run_not_found',
    409: 'revision_conflict (baseRevision is not current: the problem carries `currentRevision`), ambiguous_run_id',
  },
  'GET /detections/{runId}/revisions': RUN_LOOKUP,
  'POST /detections/{runId}/revisions/{revision}/restore': {
    ...RUN_LOOKUP,
    ...WRITE,
    404: 'run_not_found, revision_not_found',
  },
  'POST /detections/import': {
    ...RUN_BODY,
    ...WRITE,
    400: 'invalid_field (a query parameter), target_missing, invalid_file (with the position of the first problem), media_required, all_boxes_rejected, and the run codes of POST /detections',
    404: 'recording_not_found',
    415: "unsupported_media_type (not the format's content type, or a charset other than UTF-8)",
  },
  'GET /detections/{runId}/export': { ...RUN_LOOKUP, 400: 'invalid_field, run_id_missing, media_required' },
  'POST /recordings': {
    ...RECORDING_WRITE,
    400: 'invalid_body, media_key_missing, invalid_field',
    409: 'recording_conflict (the mediaKey or analysisId is taken)',
  },
  'GET /recordings': { 400: 'invalid_field' },
  'POST /recordings/events': { ...RECORDING_WRITE, 400: 'invalid_body, invalid_field', 409: 'recording_conflict' },
  'POST /recordings/search': { 400: 'invalid_body, invalid_field' },
  'GET /recordings/{key}': { 404: 'recording_not_found' },
  'DELETE /recordings/{key}': { ...RECORDING_WRITE, 404: 'recording_not_found' },
  'GET /recordings/{id}/assets': { 404: 'recording_not_found', 502: 'provider_error' },
  'POST /evaluations': {
    400: 'invalid_body, invalid_field',
    404: 'recording_not_found, run_not_found',
    409: 'ambiguous_run_id (a groundTruth runId on several recordings: add mediaKey)',
  },
  'GET /evaluations': { 400: 'invalid_field' },
  'GET /evaluations/{id}': { 404: 'evaluation_not_found' },
  'DELETE /evaluations/{id}': { ...WRITE, 404: 'evaluation_not_found' },
  'GET /api/storage': STORAGE_URL,
  'POST /api/storage/bulk': { ...STORAGE_URL, 400: 'invalid_bulk_request, invalid_filename, invalid_expiry' },
  'GET /api/storage/signed': STORAGE_DOWNLOAD,
  'HEAD /api/storage/signed': STORAGE_DOWNLOAD,
  'GET /api/storage/signed/validate': {},
  'GET /api/storage/admin/providers': ADMIN,
  'POST /api/storage/admin/providers': {
    ...ADMIN,
    400: 'invalid_body, invalid_provider',
    409: 'provider_exists',
    502: 'provider_error (the provider refused the configuration)',
  },
  'PATCH /api/storage/admin/providers/{name}': { ...ADMIN, 400: 'invalid_body', 404: 'provider_not_found' },
  'GET /api/storage/admin/accounts': ADMIN,
  'POST /api/storage/admin/accounts': {
    ...ADMIN,
    400: 'invalid_body, invalid_account, unknown_provider',
    409: 'account_exists',
  },
  'PATCH /api/storage/admin/accounts/{name}': {
    ...ADMIN,
    400: 'invalid_body, invalid_account, unknown_provider',
    404: 'account_not_found',
  },
  'POST /api/storage/admin/accounts/{name}/rotate': { ...ADMIN, 404: 'account_not_found' },
  'GET /admin/users': ADMIN,
  'POST /admin/users': {
    400: 'invalid_body, invalid_field',
    403: 'forbidden (only owners and admins; only an owner creates an owner)',
    409: 'username_taken',
  },
  'GET /admin/users/{id}': { ...ADMIN, 404: 'user_not_found' },
  'PATCH /admin/users/{id}': {
    400: 'invalid_body, invalid_field',
    403: 'forbidden (only owners and admins; only an owner gives or takes the owner role)',
    404: 'user_not_found',
    409: 'last_owner',
  },
  'DELETE /admin/users/{id}': {
    403: 'forbidden (only owners and admins; only an owner deletes an owner)',
    404: 'user_not_found',
    409: 'last_owner',
  },
  'POST /admin/users/{id}/password': {
    400: 'invalid_body, invalid_field',
    403: "forbidden (only owners and admins; only an owner resets an owner's password)",
    404: 'user_not_found',
  },
  'GET /admin/tokens': ADMIN,
  'POST /admin/tokens': { ...ADMIN, 400: 'invalid_body, invalid_field' },
  'DELETE /admin/tokens/{id}': { ...ADMIN, 404: 'token_not_found', 409: 'token_revoked' },
  'GET /admin/organisation': ADMIN,
  'PATCH /admin/organisation': { ...ADMIN, 400: 'invalid_body, invalid_field, unknown_account' },
  'GET /admin/audit': { ...ADMIN, 400: 'invalid_field' },
  'GET /invitations/{token}': { 404: 'invitation_not_found', 410: 'invitation_used, invitation_expired' },
  'POST /invitations/{token}': {
    400: 'invalid_body, invalid_field',
    404: 'invitation_not_found',
    410: 'invitation_used, invitation_expired',
  },
};

interface Shape {
  bearer: boolean;
  storageAccount: boolean;
  body: boolean;
}

/** The statuses every route of this shape can answer, whatever its handler does. */
function sharedRefusals({ bearer, storageAccount, body }: Shape): Refusals {
  const refusals: Refusals = {
    400: 'invalid_field (a broken query string), bad_request (a missing or repeated Host)',
    406: 'unsupported_api_version (the version pinned in Accept is unknown: the problem lists the supported ones)',
    500: 'internal_error',
    503: 'service_unavailable (the database is unreachable, or the instance is shutting down; see Retry-After)',
  };
  if (bearer) refusals[401] = 'unauthorized (no token, or an unknown, expired or revoked one; see WWW-Authenticate)';
  if (storageAccount) refusals[401] = 'invalid_credentials';
  if (body) {
    refusals[400] = `malformed_json, ${refusals[400]}`;
    refusals[413] = 'payload_too_large';
    refusals[415] = 'unsupported_media_type';
  }
  return refusals;
}

/** Joins two code lists, each code once. */
const joinCodes = (a: string | undefined, b: string): string => {
  if (a === undefined) return b;
  const seen = new Set(a.split(/, (?![^(]*\))/).map((code) => code.split(' ')[0]));
  const more = b.split(/, (?![^(]*\))/).filter((code) => code !== '' && !seen.has(code.split(' ')[0]));
  return more.length === 0 ? a : `${a}, ${more.join(', ')}`;
};

/** The error responses of one operation, each a problem with its codes; undefined for an operation not listed. */
export function errorResponses(operation: string, shape: Shape): Record<string, object> | undefined {
  const own = OPERATION_REFUSALS[operation];
  if (own === undefined) return undefined;
  const shared = sharedRefusals(shape);
  const statuses = [...new Set([...Object.keys(shared), ...Object.keys(own)].map(Number))].sort((a, b) => a - b);
  return Object.fromEntries(
    statuses.map((status) => {
      const codes = own[status] === undefined ? shared[status]! : joinCodes(own[status], shared[status] ?? '');
      return [
        String(status),
        {
          description: `${TITLES[status] ?? 'Refused'}: ${codes}`,
          content: { 'application/problem+json': { schema: Problem } },
        },
      ];
    }),
  );
}
