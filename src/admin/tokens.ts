// The organisation's access tokens, one implementation for the admin HTTP API and the CLI: list (never a secret),
// create (the secret shown once), revoke. Each change and its audit entry share a transaction.
import type { Kysely } from 'kysely';
import { ACCESS_TOKEN_PREFIX, hashSecret, newSecret } from '../auth/secrets.js';
import { TOKEN_ROLE } from '../auth/roles.js';
import type { Database } from '../db/schema.js';
import { holdsNul } from '../db/unstorable-text.js';
import { ApiError } from '../http/problem.js';
import { newId } from '../util/ids.js';
import type { Actor } from './actor.js';
import { recordAudit } from './audit.js';
import { lockOrganisation } from './org-lock.js';
import { checkTokenExpiry, checkTokenName } from './validate.js';

type Db = Kysely<Database>;

export interface TokenView {
  id: string;
  name: string;
  role: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  status: 'active' | 'expired' | 'revoked';
}

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

function view(
  r: {
    id: string;
    name: string;
    role: string;
    created_at: number;
    expires_at: number | null;
    revoked_at: number | null;
  },
  now: number,
): TokenView {
  return {
    id: r.id,
    name: r.name,
    role: r.role,
    createdAt: iso(r.created_at)!,
    expiresAt: iso(r.expires_at),
    revokedAt: iso(r.revoked_at),
    status:
      r.revoked_at !== null ? 'revoked' : r.expires_at !== null && Number(r.expires_at) <= now ? 'expired' : 'active',
  };
}

const COLUMNS = ['id', 'name', 'role', 'created_at', 'expires_at', 'revoked_at'] as const;

/** Newest first; never a secret (only its hash is stored). */
export async function listOrgTokens(db: Db, orgId: string, now = Date.now()): Promise<TokenView[]> {
  const rows = await db
    .selectFrom('access_tokens')
    .select(COLUMNS)
    .where('org_id', '=', orgId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => view(r, now));
}

export async function createOrgToken(
  db: Db,
  orgId: string,
  actor: Actor,
  input: { name?: unknown; expiresIn?: unknown; expiresAt?: unknown },
  now = Date.now(),
): Promise<TokenView & { token: string }> {
  const name = checkTokenName(input.name);
  const expiresAt = checkTokenExpiry(input.expiresIn, input.expiresAt, now);
  const token = newSecret(ACCESS_TOKEN_PREFIX);
  const row = {
    id: newId(now),
    org_id: orgId,
    name,
    token_hash: hashSecret(token),
    role: TOKEN_ROLE,
    expires_at: expiresAt,
    revoked_at: null,
    created_at: now,
  };
  await db.transaction().execute(async (trx) => {
    if (!(await lockOrganisation(trx, orgId)))
      throw new ApiError(404, 'organisation_not_found', 'No such organisation');
    await trx.insertInto('access_tokens').values(row).execute();
    await recordAudit(
      trx,
      orgId,
      actor,
      'token.created',
      { type: 'access_token', id: row.id, name },
      {
        expiresAt: iso(expiresAt),
      },
      now,
    );
  });
  return { ...view(row, now), token };
}

/** Revokes a token of the organisation at once (every instance refuses it on its next request). */
export async function revokeOrgToken(
  db: Db,
  orgId: string,
  actor: Actor,
  id: string,
  now = Date.now(),
): Promise<TokenView> {
  if (typeof id !== 'string' || holdsNul(id)) throw new ApiError(404, 'token_not_found', `No token with id "${id}"`);
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('access_tokens')
      .select(COLUMNS)
      .where('id', '=', id)
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    if (!row) throw new ApiError(404, 'token_not_found', `No token with id "${id}"`);
    if (row.revoked_at !== null)
      throw new ApiError(409, 'token_revoked', `The token "${row.name}" was revoked already`);
    const done = await trx
      .updateTable('access_tokens')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('org_id', '=', orgId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0)
      throw new ApiError(409, 'token_revoked', `The token "${row.name}" was revoked already`);
    await recordAudit(trx, orgId, actor, 'token.revoked', { type: 'access_token', id, name: row.name }, {}, now);
    return view({ ...row, revoked_at: now }, now);
  });
}
