// OpenAPI shapes of the storage routes. Validation itself happens in code so that every failure gets the spec's code.
import { Type } from 'typebox';

export const UrlResult = Type.Object({ data: Type.String({ description: 'The signed URL' }) });
export const BulkResult = Type.Object({ data: Type.String({ description: 'JSON text of an object mapping filename → URL; parse it a second time' }) });

export const StorageHeaders = Type.Object({
  'x-service-storage-filename': Type.String({ description: 'Object key, e.g. alice/1700000000_cam1.mp4 (UTF-8)' }),
  'x-service-storage-provider': Type.String({ description: 'Provider name; must be bound to the account' }),
  'x-service-storage-accesskey': Type.String(),
  'x-service-storage-secretaccesskey': Type.String(),
  'x-service-storage-uriexpirytime': Type.Optional(Type.String({ description: 'Seconds or a duration (90s, 30m, 1h30m, 7d); 1 s to 7 days' })),
});
export const CredentialHeaders = Type.Object({
  'x-service-storage-accesskey': Type.String(),
  'x-service-storage-secretaccesskey': Type.String(),
});

export const BulkBody = Type.Array(Type.Object({
  filename: Type.String(),
  provider: Type.Optional(Type.String()),
  uriExpiryTime: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
}), { maxItems: 1000 });

export const SignedQuery = Type.Object({
  a: Type.String({ description: 'Account name' }),
  p: Type.String({ description: 'Provider name' }),
  f: Type.String({ description: 'Filename (URL-encoded)' }),
  e: Type.String({ description: 'Expiry, Unix seconds' }),
  s: Type.String({ description: 'HMAC-SHA256 token, base64url' }),
});

export const ValidateResult = Type.Object({
  data: Type.Object({
    valid: Type.Boolean(),
    reason: Type.Union([Type.Null(), Type.Literal('expired'), Type.Literal('bad_signature'), Type.Literal('malformed'), Type.Literal('account_disabled')]),
    expiresAt: Type.Union([Type.String(), Type.Null()]),
    expiresIn: Type.Union([Type.Integer(), Type.Null()]),
    account: Type.Union([Type.String(), Type.Null()]),
    provider: Type.Union([Type.String(), Type.Null()]),
    filename: Type.Union([Type.String(), Type.Null()]),
  }),
});
