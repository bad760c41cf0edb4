// The admin API's shapes, for the OpenAPI document (bodies are checked by validate.ts, which answers the fields'
// codes; these schemas document them).
import { Type } from 'typebox';
import { named } from '../http/openapi-components.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const Time = Type.String({ format: 'date-time' });
const Role = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('editor'), Type.Literal('viewer')]);

export const IdParam = Type.Object({ id: Type.String() });
export const TokenParam = Type.Object({ token: Type.String({ description: 'The invitation secret (sli_…)' }) });

export const User = named(
  'User',
  Type.Object({
    id: Type.String(),
    username: Type.String(),
    role: Role,
    status: Type.Union([Type.Literal('active'), Type.Literal('invited')]),
    invitationExpiresAt: Nullable(Time),
    createdAt: Time,
  }),
);
export const UserResult = Type.Object({ data: User });
export const UserList = Type.Object({ data: Type.Array(User) });
export const CreatedUserResult = Type.Object({
  data: Type.Intersect([
    User,
    Type.Object({
      invitation: Type.Optional(
        Type.Object({
          token: Type.String({
            description: 'Shown only in this answer; the user redeems it at POST /invitations/{token}',
          }),
          expiresAt: Time,
        }),
      ),
    }),
  ]),
});
export const NewUserBody = named(
  'UserRequest',
  Type.Object(
    {
      username: Type.String({ minLength: 1, maxLength: 256 }),
      role: Role,
      password: Type.Optional(
        Type.String({ minLength: 8, maxLength: 1024, description: 'Leave out with invite: true' }),
      ),
      invite: Type.Optional(Type.Boolean({ description: 'No password: answer a one-time invitation instead' })),
      expiresIn: Type.Optional(
        Type.Union([Type.String(), Type.Integer()], {
          description: "The invitation's lifetime: 7d by default, at most 30d",
        }),
      ),
    },
    { examples: [{ username: 'analyst', role: 'editor', password: 'a long passphrase of her own' }] },
  ),
);
export const UserPatchBody = Type.Object({ role: Role }, { examples: [{ role: 'viewer' }] });
export const PasswordBody = Type.Object(
  { password: Type.String({ minLength: 8, maxLength: 1024 }) },
  { examples: [{ password: 'another long passphrase' }] },
);
export const PasswordResult = Type.Object({
  data: Type.Object({ id: Type.String(), username: Type.String(), sessionsEnded: Type.Integer() }),
});
export const DeletedUserResult = Type.Object({
  data: Type.Object({ id: Type.String(), username: Type.String(), deleted: Type.Literal(true) }),
});

export const Invitation = named(
  'Invitation',
  Type.Object({
    username: Type.String(),
    role: Role,
    organisation: Type.Object({ id: Type.String(), name: Type.String() }),
    expiresAt: Time,
  }),
);
export const InvitationResult = Type.Object({ data: Invitation });

const Token = named(
  'AccessToken',
  Type.Object({
    id: Type.String(),
    name: Type.String(),
    role: Type.Literal('application'),
    createdAt: Time,
    expiresAt: Nullable(Time),
    revokedAt: Nullable(Time),
    status: Type.Union([Type.Literal('active'), Type.Literal('expired'), Type.Literal('revoked')]),
  }),
);
export const TokenList = Type.Object({ data: Type.Array(Token) });
export const TokenResult = Type.Object({ data: Token });
export const CreatedTokenResult = Type.Object({
  data: Type.Intersect([Token, Type.Object({ token: Type.String({ description: 'Shown only in this answer' }) })]),
});
export const NewTokenBody = named(
  'AccessTokenRequest',
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 256 }),
      expiresIn: Type.Optional(Type.Union([Type.String(), Type.Integer()], { description: '90d, 12h, 3600 …' })),
      expiresAt: Type.Optional(Time),
    },
    { examples: [{ name: 'detector pipeline', expiresIn: '90d' }] },
  ),
);

export const Organisation = named(
  'Organisation',
  Type.Object({
    id: Type.String(),
    name: Type.String(),
    retentionDays: Type.Integer({ minimum: 1 }),
    keepRecordings: Type.Boolean(),
    editorStorageAccount: Nullable(Type.String()),
    createdAt: Time,
  }),
);
export const OrganisationResult = Type.Object({ data: Organisation });
export const OrganisationPatchBody = Type.Object(
  {
    retentionDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    keepRecordings: Type.Optional(Type.Boolean()),
    editorStorageAccount: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
  },
  { examples: [{ retentionDays: 3650 }] },
);

export const AuditQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  cursor: Type.Optional(Type.String()),
});
export const AuditResult = Type.Object({
  data: Type.Object({
    entries: Type.Array(
      Type.Object({
        id: Type.String(),
        at: Time,
        actor: Type.Object({ kind: Type.String(), id: Nullable(Type.String()), name: Nullable(Type.String()) }),
        address: Nullable(Type.String()),
        action: Type.String(),
        target: Type.Object({ type: Type.String(), id: Nullable(Type.String()), name: Nullable(Type.String()) }),
        details: Type.Record(Type.String(), Type.Unknown()),
      }),
    ),
    nextCursor: Nullable(Type.String()),
  }),
});
