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

// The storage admin API (documentation only: the routes check their bodies in code, with the spec's codes).
const Timestamps = { createdAt: Type.String({ format: 'date-time' }), updatedAt: Type.String({ format: 'date-time' }) };
const ProviderType = Type.Union([Type.Literal('fs'), Type.Literal('s3'), Type.Literal('azure'), Type.Literal('gcs')]);
const ProviderConfig = Type.Object({}, {
  additionalProperties: true,
  description: 'Per type: s3 {bucket, region?, accessKeyId, secretAccessKey, sessionToken?, pathStyle?}; azure {container, account and accountKey, or connectionString}; gcs {bucket, serviceAccountKey, or clientEmail and privateKey}; fs {} (a folder of its own in the data directory). Credentials are write-only. endpoint (and an fs root) are for the operator (CLI) only: 403 forbidden here.',
});
const Provider = Type.Object({
  name: Type.String(), type: ProviderType, config: Type.Object({}, { additionalProperties: true, description: 'Without credentials' }),
  hasCredentials: Type.Boolean(), enabled: Type.Boolean(), ...Timestamps,
});
const Account = Type.Object({
  name: Type.String(), accessKey: Type.String(), defaultProvider: Type.String(), providers: Type.Array(Type.String()),
  directories: Type.Array(Type.String({ description: 'Key prefixes the account may sign for; "*" for all' })), enabled: Type.Boolean(), ...Timestamps,
});
const AccountWithSecret = Type.Object({ ...Account.properties, secretAccessKey: Type.String({ description: 'Shown only in this answer' }) });

export const ProviderList = Type.Object({ data: Type.Array(Provider) });
export const ProviderResult = Type.Object({ data: Provider });
export const AccountList = Type.Object({ data: Type.Array(Account) });
export const AccountResult = Type.Object({ data: Account });
export const AccountSecretResult = Type.Object({ data: AccountWithSecret });
export const NewProviderBody = Type.Object({ name: Type.String(), type: ProviderType, config: ProviderConfig, enabled: Type.Optional(Type.Boolean()) }, { additionalProperties: false });
export const ProviderPatchBody = Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false });
export const NewAccountBody = Type.Object({
  name: Type.String(), defaultProvider: Type.String(), providers: Type.Optional(Type.Array(Type.String())),
  directories: Type.Optional(Type.Array(Type.String(), { description: 'Default ["*"]' })),
}, { additionalProperties: false });
export const AccountPatchBody = Type.Object({
  enabled: Type.Optional(Type.Boolean()), defaultProvider: Type.Optional(Type.String()),
  providers: Type.Optional(Type.Array(Type.String())), directories: Type.Optional(Type.Array(Type.String())),
}, { additionalProperties: false });
export const NameParam = Type.Object({ name: Type.String() });
