// OpenAPI shapes of the storage routes. Validation itself happens in code so that every failure gets the spec's code.
import { Type } from 'typebox';
import { named } from '../http/openapi-components.js';

export const UrlResult = Type.Object({ data: Type.String({ description: 'The signed URL' }) });
export const BulkResult = Type.Object({
  data: Type.String({
    description: 'JSON text of an object mapping filename → URL; parse it a second time',
    contentMediaType: 'application/json',
    contentSchema: Type.Record(Type.String(), Type.String({ format: 'uri' })),
  }),
});

/** The account's two credential headers, as OpenAPI security schemes (Swagger UI's Authorize asks for them once). */
export const STORAGE_SECURITY_SCHEMES = {
  storageAccessKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Service-Storage-AccessKey',
    description: "The storage account's access key",
  },
  storageSecret: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Service-Storage-SecretAccessKey',
    description: "The storage account's secret",
  },
} as const;
export const storageSecurity = [{ storageAccessKey: [], storageSecret: [] }];
const lifetime =
  "Seconds or a duration (90, 90s, 30m, 1h30m, 7d): from 1 s to 7 days (604800 s); the account's default when absent";

export const StorageHeaders = Type.Object({
  'x-service-storage-filename': Type.String({
    minLength: 1,
    description:
      "Object key, e.g. alice/1700000000_cam1.mp4, as raw UTF-8 bytes, not percent-encoded. HTTP drops a value's leading and " +
      'trailing spaces: ask for such keys (and any key a client cannot send as UTF-8 bytes) through the bulk route.',
  }),
  'x-service-storage-provider': Type.String({
    minLength: 1,
    description: 'Provider name; must be bound to the account',
  }),
  'x-service-storage-uriexpirytime': Type.Optional(
    Type.String({ minLength: 1, pattern: '^(\\d+|(\\d+[smhd])+)$', description: lifetime }),
  ),
});

export const BulkBody = named(
  'SignedUrlRequests',
  Type.Array(
    Type.Object(
      {
        filename: Type.String({ minLength: 1, maxLength: 1024, description: 'Object key; 1 to 1024 bytes (UTF-8)' }),
        provider: Type.Optional(
          Type.String({
            minLength: 1,
            description: "Bound to the account; the account's default provider when absent",
          }),
        ),
        uriExpiryTime: Type.Optional(
          Type.Union(
            [Type.Integer({ minimum: 1, maximum: 604800 }), Type.String({ pattern: '^(\\d+|(\\d+[smhd])+)$' })],
            { description: lifetime },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    {
      maxItems: 1000,
      description: 'Unknown members are refused (a typo such as fileName must not sign nothing)',
      examples: [[{ filename: 'demo/cam1.mp4', uriExpiryTime: '1h' }, { filename: 'demo/cam1_thumbnail.jpg' }]],
    },
  ),
);

export const SignedQuery = Type.Object({
  a: Type.String({ description: 'Account name' }),
  p: Type.String({ description: 'Provider name' }),
  f: Type.String({ description: 'Filename (URL-encoded)' }),
  e: Type.String({ description: 'Expiry, Unix seconds' }),
  s: Type.String({ description: 'HMAC-SHA256 token, base64url' }),
});

/** The same members as SignedQuery, none required: the validate route judges what it is given. */
export const ValidateQuery = Type.Partial(SignedQuery);

export const ValidateResult = Type.Object({
  data: Type.Object({
    valid: Type.Boolean(),
    reason: Type.Union([
      Type.Null(),
      Type.Literal('expired'),
      Type.Literal('bad_signature'),
      Type.Literal('malformed'),
      Type.Literal('account_disabled'),
    ]),
    expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    expiresIn: Type.Union([Type.Integer(), Type.Null()]),
    account: Type.Union([Type.String(), Type.Null()]),
    provider: Type.Union([Type.String(), Type.Null()]),
    filename: Type.Union([Type.String(), Type.Null()]),
  }),
});

// The storage admin API (documentation only: the routes check their bodies in code, with the spec's codes).
const Timestamps = { createdAt: Type.String({ format: 'date-time' }), updatedAt: Type.String({ format: 'date-time' }) };
const ProviderType = Type.Union([Type.Literal('fs'), Type.Literal('s3'), Type.Literal('azure'), Type.Literal('gcs')]);
const ProviderConfig = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'Per type: s3 {bucket, region?, accessKeyId, secretAccessKey, sessionToken?, pathStyle?}; azure {container, account and accountKey, or connectionString}; gcs {bucket, serviceAccountKey, or clientEmail and privateKey}; fs {} (a folder of its own in the data directory). Credentials are write-only. endpoint (and an fs root) are for the operator (CLI) only: 403 forbidden here.',
  },
);
const Provider = named(
  'StorageProvider',
  Type.Object({
    name: Type.String(),
    type: ProviderType,
    config: Type.Object({}, { additionalProperties: true, description: 'Without credentials' }),
    hasCredentials: Type.Boolean(),
    enabled: Type.Boolean(),
    ...Timestamps,
  }),
);
const Account = named(
  'StorageAccount',
  Type.Object({
    name: Type.String(),
    accessKey: Type.String(),
    defaultProvider: Type.String(),
    providers: Type.Array(Type.String()),
    directories: Type.Array(Type.String({ description: 'Key prefixes the account may sign for; "*" for all' })),
    enabled: Type.Boolean(),
    ...Timestamps,
  }),
);
const AccountWithSecret = Type.Object({
  ...Account.properties,
  secretAccessKey: Type.String({ description: 'Shown only in this answer' }),
});

export const ProviderList = Type.Object({ data: Type.Array(Provider) });
export const ProviderResult = Type.Object({ data: Provider });
export const AccountList = Type.Object({ data: Type.Array(Account) });
export const AccountResult = Type.Object({ data: Account });
export const AccountSecretResult = Type.Object({ data: AccountWithSecret });
export const NewProviderBody = Type.Object(
  { name: Type.String(), type: ProviderType, config: ProviderConfig, enabled: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, examples: [{ name: 'archive', type: 'fs', config: {} }] },
);
export const ProviderPatchBody = Type.Object(
  { enabled: Type.Boolean() },
  { additionalProperties: false, examples: [{ enabled: true }] },
);
export const NewAccountBody = Type.Object(
  {
    name: Type.String(),
    defaultProvider: Type.String(),
    providers: Type.Optional(Type.Array(Type.String())),
    directories: Type.Optional(Type.Array(Type.String(), { description: 'Default ["*"]' })),
  },
  {
    additionalProperties: false,
    examples: [{ name: 'archive-reader', defaultProvider: 'archive', directories: ['demo'] }],
  },
);
export const AccountPatchBody = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    defaultProvider: Type.Optional(Type.String()),
    providers: Type.Optional(Type.Array(Type.String())),
    directories: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false, examples: [{ directories: ['demo', 'archive'] }] },
);
export const NameParam = Type.Object({ name: Type.String() });

// The answers of the signed stream (documentation only: the body is the object's bytes as the provider streams them).
const header = (description: string, pattern?: string) => Type.String({ description, ...(pattern ? { pattern } : {}) });
const ObjectHeaders = {
  'Content-Type': header(
    "The provider's type, else the key's extension's (video/mp4, image/jpeg…; unknown: application/octet-stream)",
  ),
  ETag: header("The object's entity tag (fs: size, mtime and ctime in hex)"),
  'Last-Modified': header('An HTTP-date'),
  'Accept-Ranges': Type.String({ enum: ['bytes'] }),
  'Cache-Control': header(
    'The whole seconds left until the URL expires: no cache keeps the answer past it',
    '^private, max-age=\\d+$',
  ),
  'X-Content-Type-Options': Type.String({ enum: ['nosniff'] }),
  'Content-Security-Policy': Type.String({
    enum: ['sandbox'],
    description: 'An HTML or SVG object opened from the URL runs no script on this origin',
  }),
};
const BodyHeaders = {
  ...ObjectHeaders,
  'Content-Length': header('The length of the object, or of the range (HEAD: what GET would send)', '^\\d+$'),
  'Content-Disposition': header('`inline; filename="…"; filename*=UTF-8\'\'…`, the last segment of the key'),
};
const RangeHeaders = {
  ...BodyHeaders,
  'Content-Range': header('`bytes <first>-<last>/<size>`', '^bytes \\d+-\\d+/\\d+$'),
};
const objectBytes = (description: string) => ({ '*/*': { schema: Type.String({ format: 'binary', description }) } });
const NOT_MODIFIED = {
  description: 'Not modified (If-None-Match, else If-Modified-Since): no body',
  type: 'null',
  headers: ObjectHeaders,
};

export const SignedStreamAnswers = {
  200: {
    description: 'The whole object, never compressed (an empty object: no body)',
    headers: BodyHeaders,
    content: objectBytes("The object's bytes, of its own Content-Type"),
  },
  206: {
    description:
      'The one range asked for (`Range: bytes=…`; If-Range honoured with an ETag; an If-Range date gets the whole object)',
    headers: RangeHeaders,
    content: objectBytes("The range's bytes"),
  },
  304: NOT_MODIFIED,
};
export const SignedHeadAnswers = {
  200: { description: 'The headers GET would send, without a body', type: 'null', headers: BodyHeaders },
  206: {
    description: 'The headers GET would send for the range asked for, without a body',
    type: 'null',
    headers: RangeHeaders,
  },
  304: NOT_MODIFIED,
};
