// Redeeming an invitation: the invited user chooses a password with the one-time secret an administrator handed
// over. The secret is stored only as its SHA-256 (it has 256 bits of entropy, nothing to brute-force); it works
// once, until it expires.
import type { Kysely } from 'kysely';
import { hashPassword } from '../auth/password.js';
import { hashSecret } from '../auth/secrets.js';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/problem.js';
import { recordAudit } from './audit.js';
import { INVITATION_PREFIX } from './users.js';
import { checkPassword } from './validate.js';

type Db = Kysely<Database>;

export interface InvitationView {
  username: string;
  role: string;
  organisation: { id: string; name: string };
  expiresAt: string;
}

const UNKNOWN = () =>
  new ApiError(404, 'invitation_not_found', 'This invitation link is unknown: ask an administrator for a new one');

async function findOpen(db: Db, token: string, now: number) {
  if (!token.startsWith(INVITATION_PREFIX) || token.length > 200) throw UNKNOWN();
  const row = await db
    .selectFrom('invitations')
    .innerJoin('users', 'users.id', 'invitations.user_id')
    .innerJoin('organisations', 'organisations.id', 'invitations.org_id')
    .select([
      'invitations.id',
      'invitations.org_id',
      'invitations.user_id',
      'invitations.expires_at',
      'invitations.redeemed_at',
      'users.username',
      'users.role',
      'organisations.name as org_name',
    ])
    .where('invitations.token_hash', '=', hashSecret(token))
    .executeTakeFirst();
  if (!row) throw UNKNOWN();
  if (row.redeemed_at !== null)
    throw new ApiError(
      410,
      'invitation_used',
      'This invitation was used already: log in with the password chosen then',
    );
  if (Number(row.expires_at) <= now)
    throw new ApiError(410, 'invitation_expired', 'This invitation has expired: ask an administrator for a new one');
  return row;
}

/** Who an invitation is for, so that the page that redeems it can say so; 404/410 as redeeming would answer. */
export async function readInvitation(db: Db, token: string, now = Date.now()): Promise<InvitationView> {
  const row = await findOpen(db, token, now);
  return {
    username: row.username,
    role: row.role,
    organisation: { id: row.org_id, name: row.org_name },
    expiresAt: new Date(Number(row.expires_at)).toISOString(),
  };
}

export async function redeemInvitation(
  db: Db,
  token: string,
  passwordInput: unknown,
  address: string | null,
  now = Date.now(),
): Promise<InvitationView> {
  const password = checkPassword(passwordInput);
  const found = await findOpen(db, token, now);
  const passwordHash = await hashPassword(password);
  return db.transaction().execute(async (trx) => {
    // Spent in one statement: of two redemptions at once, one finds it open.
    const spent = await trx
      .updateTable('invitations')
      .set({ redeemed_at: now })
      .where('id', '=', found.id)
      .where('redeemed_at', 'is', null)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) === 0)
      throw new ApiError(
        410,
        'invitation_used',
        'This invitation was used already: log in with the password chosen then',
      );
    await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', found.user_id).execute();
    await recordAudit(
      trx,
      found.org_id,
      { kind: 'user', id: found.user_id, name: found.username, role: found.role, address },
      'invitation.redeemed',
      { type: 'user', id: found.user_id, name: found.username },
      {},
      now,
    );
    return {
      username: found.username,
      role: found.role,
      organisation: { id: found.org_id, name: found.org_name },
      expiresAt: new Date(Number(found.expires_at)).toISOString(),
    };
  });
}
