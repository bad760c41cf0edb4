// The organisation's people, one implementation for the admin HTTP API and the CLI: list, create (with a password
// or as an invitation), change role, reset password, delete. Each change and its audit entry share a transaction.
import type { Kysely } from 'kysely';
import { hashPassword } from '../auth/password.js';
import { hashSecret, newSecret } from '../auth/secrets.js';
import { forgetLoginFailures } from '../auth/queries.js';
import type { UserRole } from '../auth/roles.js';
import { byCodePoint } from '../db/code-point-order.js';
import type { Database } from '../db/schema.js';
import { holdsNul } from '../db/unstorable-text.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { ApiError } from '../http/problem.js';
import { newId } from '../util/ids.js';
import type { Actor } from './actor.js';
import { recordAudit } from './audit.js';
import { lockOrganisation } from './org-lock.js';
import {
  DEFAULT_INVITATION_SECONDS,
  MAX_INVITATION_SECONDS,
  checkLifetime,
  checkPassword,
  checkRole,
  checkUsername,
  ownerOnly,
} from './validate.js';

type Db = Kysely<Database>;

/** An invitation's secret: as long as an access token's, with a prefix of its own. */
export const INVITATION_PREFIX = 'sli_';

/** A user by id (HTTP) or by username (CLI); either way only within the organisation. */
export type UserRef = { id: string } | { username: string };

export interface UserView {
  id: string;
  username: string;
  role: string;
  /** `invited` until the user redeems the invitation by choosing a password. */
  status: 'active' | 'invited';
  invitationExpiresAt: string | null;
  createdAt: string;
}

const iso = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString();

function usersOf(db: Db, orgId: string) {
  return db
    .selectFrom('users')
    .leftJoin('invitations', (j) =>
      j.onRef('invitations.user_id', '=', 'users.id').on('invitations.redeemed_at', 'is', null),
    )
    .select([
      'users.id',
      'users.username',
      'users.role',
      'users.created_at',
      'invitations.id as invitation_id',
      'invitations.expires_at as invitation_expires_at',
    ])
    .where('users.org_id', '=', orgId);
}

type UserRow = {
  id: string;
  username: string;
  role: string;
  created_at: number;
  invitation_id: string | null;
  invitation_expires_at: number | null;
};

function view(r: UserRow): UserView {
  return {
    id: r.id,
    username: r.username,
    role: r.role,
    status: r.invitation_id === null ? 'active' : 'invited',
    invitationExpiresAt: iso(r.invitation_expires_at),
    createdAt: iso(r.created_at)!,
  };
}

/** The organisation's users by username (code point order): never a password hash. */
export async function listOrgUsers(db: Db, orgId: string): Promise<UserView[]> {
  const rows = await usersOf(db, orgId).orderBy(byCodePoint(db, 'users.username')).orderBy('users.id').execute();
  // One user has at most one open invitation (a new one replaces it), so the join adds no row.
  return rows.map(view);
}

async function findUser(db: Db, orgId: string, ref: UserRef): Promise<UserView | undefined> {
  const value = 'id' in ref ? ref.id : ref.username;
  if (typeof value !== 'string' || holdsNul(value)) return undefined;
  const q = usersOf(db, orgId);
  const row = await ('id' in ref
    ? q.where('users.id', '=', ref.id)
    : q.where('users.username', '=', ref.username)
  ).executeTakeFirst();
  return row && view(row);
}

function notFound(ref: UserRef): ApiError {
  return new ApiError(
    404,
    'user_not_found',
    'id' in ref ? `No user with id "${ref.id}"` : `No user named "${ref.username}"`,
  );
}

/** One user of the organisation; 404 user_not_found when it has none such (another organisation's included). */
export async function getOrgUser(db: Db, orgId: string, ref: UserRef): Promise<UserView> {
  const user = await findUser(db, orgId, ref);
  if (!user) throw notFound(ref);
  return user;
}

async function ownerCount(trx: Db, orgId: string): Promise<number> {
  const r = await trx
    .selectFrom('users')
    .select(trx.fn.countAll<number>().as('n'))
    .where('org_id', '=', orgId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

function lastOwner(what: string): ApiError {
  return new ApiError(
    409,
    'last_owner',
    `This is the organisation's last owner: ${what} would leave nobody who can administer owners. Make another user owner first.`,
  );
}

/** Within a transaction that locked the organisation: the user, or 404. */
async function lockedUser(trx: Db, orgId: string, ref: UserRef): Promise<UserView> {
  if (!(await lockOrganisation(trx, orgId))) throw notFound(ref);
  return getOrgUser(trx, orgId, ref);
}

export interface NewUserInput {
  username?: unknown;
  role?: unknown;
  password?: unknown;
  /** True: no password; the answer carries a one-time invitation the user redeems by choosing one. */
  invite?: unknown;
  /** The invitation's lifetime (a duration; default 7 days, at most 30). */
  expiresIn?: unknown;
}

export interface CreatedUser extends UserView {
  /** Present for an invitation only, this once: the secret is stored only as a hash. */
  invitation?: { token: string; expiresAt: string };
}

export async function createOrgUser(
  db: Db,
  orgId: string,
  actor: Actor,
  input: NewUserInput,
  now = Date.now(),
): Promise<CreatedUser> {
  const username = checkUsername(input.username);
  const role = checkRole(input.role);
  if (input.invite !== undefined && typeof input.invite !== 'boolean')
    throw new ApiError(400, 'invalid_field', 'invite must be true or false', { field: 'invite' });
  const invite = input.invite === true;
  if (invite && input.password !== undefined)
    throw new ApiError(400, 'invalid_field', 'An invitation has no password: the user chooses one', {
      field: 'password',
    });
  if (!invite && input.expiresIn !== undefined)
    throw new ApiError(400, 'invalid_field', 'expiresIn is the lifetime of an invitation (invite: true)', {
      field: 'expiresIn',
    });
  const password = invite ? undefined : checkPassword(input.password);
  const lifetime = invite
    ? (checkLifetime('expiresIn', input.expiresIn, MAX_INVITATION_SECONDS) ?? DEFAULT_INVITATION_SECONDS)
    : 0;
  ownerOnly(actor.role, role === 'owner', 'make another user an owner');
  // An invited user gets a password nobody knows (a random one, hashed like any): /login then spends the same time
  // on it as on any wrong password, and an invited username cannot be told apart from an active one.
  const passwordHash = await hashPassword(password ?? newSecret(''));
  const token = invite ? newSecret(INVITATION_PREFIX) : undefined;
  const expiresAt = now + lifetime * 1000;
  const id = newId(now);
  try {
    await db.transaction().execute(async (trx) => {
      if (!(await lockOrganisation(trx, orgId)))
        throw new ApiError(404, 'organisation_not_found', 'No such organisation');
      const taken = await trx.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
      if (taken) throw usernameTaken(username);
      await trx
        .insertInto('users')
        .values({ id, org_id: orgId, username, password_hash: passwordHash, role, created_at: now })
        .execute();
      if (token) {
        await trx
          .insertInto('invitations')
          .values({
            id: newId(now),
            org_id: orgId,
            user_id: id,
            token_hash: hashSecret(token),
            expires_at: expiresAt,
            redeemed_at: null,
            created_at: now,
          })
          .execute();
      }
      await recordAudit(
        trx,
        orgId,
        actor,
        invite ? 'user.invited' : 'user.created',
        { type: 'user', id, name: username },
        {
          role,
          ...(invite ? { invitationExpiresAt: iso(expiresAt) } : {}),
        },
        now,
      );
    });
  } catch (err) {
    // Two creations of one username at once: the second meets the unique index.
    if (isUniqueViolation(err)) throw usernameTaken(username);
    throw err;
  }
  return {
    id,
    username,
    role,
    status: invite ? 'invited' : 'active',
    invitationExpiresAt: invite ? iso(expiresAt) : null,
    createdAt: iso(now)!,
    ...(token ? { invitation: { token, expiresAt: iso(expiresAt)! } } : {}),
  };
}

function usernameTaken(username: string): ApiError {
  // Usernames are unique across organisations (a login names no organisation).
  return new ApiError(409, 'username_taken', `The username "${username}" is taken`);
}

export async function changeUserRole(
  db: Db,
  orgId: string,
  actor: Actor,
  ref: UserRef,
  roleInput: unknown,
): Promise<UserView> {
  const role: UserRole = checkRole(roleInput);
  return db.transaction().execute(async (trx) => {
    const user = await lockedUser(trx, orgId, ref);
    if (user.role === role) return user;
    ownerOnly(actor.role, role === 'owner' || user.role === 'owner', 'give or take the owner role');
    if (user.role === 'owner' && (await ownerCount(trx, orgId)) <= 1) throw lastOwner(`making it ${role}`);
    await trx.updateTable('users').set({ role }).where('id', '=', user.id).where('org_id', '=', orgId).execute();
    await recordAudit(
      trx,
      orgId,
      actor,
      'user.role_changed',
      { type: 'user', id: user.id, name: user.username },
      {
        from: user.role,
        to: role,
      },
    );
    return { ...user, role };
  });
}

/**
 * A new password chosen by an administrator: the user's sessions end (a reset usually follows a leak), an open
 * invitation is spent, and the username's failed logins are forgotten so that the user can log in at once.
 */
export async function resetUserPassword(
  db: Db,
  orgId: string,
  actor: Actor,
  ref: UserRef,
  passwordInput: unknown,
): Promise<{ id: string; username: string; sessionsEnded: number }> {
  const password = checkPassword(passwordInput);
  // Hashed before the transaction: scrypt takes tens of milliseconds, and SQLite's one writer would wait that long.
  const passwordHash = await hashPassword(password);
  return db.transaction().execute(async (trx) => {
    const user = await lockedUser(trx, orgId, ref);
    ownerOnly(actor.role, user.role === 'owner', "reset an owner's password");
    await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', user.id).execute();
    const ended = await trx.deleteFrom('sessions').where('user_id', '=', user.id).executeTakeFirst();
    await trx.deleteFrom('invitations').where('user_id', '=', user.id).where('redeemed_at', 'is', null).execute();
    await forgetLoginFailures(trx, user.username);
    const sessionsEnded = Number(ended.numDeletedRows);
    await recordAudit(
      trx,
      orgId,
      actor,
      'user.password_reset',
      { type: 'user', id: user.id, name: user.username },
      {
        sessionsEnded,
      },
    );
    return { id: user.id, username: user.username, sessionsEnded };
  });
}

/** Deletes a user with its sessions and invitations (each refused at once on every instance). */
export async function deleteOrgUser(
  db: Db,
  orgId: string,
  actor: Actor,
  ref: UserRef,
): Promise<{ id: string; username: string; deleted: true }> {
  return db.transaction().execute(async (trx) => {
    const user = await lockedUser(trx, orgId, ref);
    ownerOnly(actor.role, user.role === 'owner', 'delete an owner');
    if (user.role === 'owner' && (await ownerCount(trx, orgId)) <= 1) throw lastOwner('deleting it');
    await trx.deleteFrom('sessions').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('invitations').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('users').where('id', '=', user.id).where('org_id', '=', orgId).execute();
    await recordAudit(
      trx,
      orgId,
      actor,
      'user.deleted',
      { type: 'user', id: user.id, name: user.username },
      {
        role: user.role,
      },
    );
    return { id: user.id, username: user.username, deleted: true as const };
  });
}
