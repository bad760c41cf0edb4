// Organisations, users, sessions, access tokens and login counters: every query the auth domain makes.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { newId } from '../util/ids.js';
import { hashPassword } from './password.js';
import { ACCESS_TOKEN_PREFIX, SESSION_PREFIX, hashSecret, newSecret, sameHash } from './secrets.js';
import { TOKEN_ROLE, type UserRole } from './roles.js';
import { MAX_LOCK_MS, userAddressPrefix, userFailureKey, type FailureCounter } from './throttle.js';
import { batchedLookup } from '../db/lookup-batcher.js';
import { byKey, firstRow, preparedQuery } from '../db/prepared-query.js';
import { holdsNul } from '../db/unstorable-text.js';

type Db = Kysely<Database>;

export interface Organisation {
  id: string;
  name: string;
  retentionDays: number;
  keepRecordings: boolean;
}

export interface Principal {
  orgId: string;
  role: string;
  kind: 'session' | 'access_token';
  userId?: string;
  tokenId?: string;
}

export async function createOrganisation(
  db: Db,
  name: string,
  retentionDays = 30,
  keepRecordings = false,
): Promise<Organisation> {
  const org = {
    id: newId(),
    name,
    retention_days: retentionDays,
    keep_recordings: keepRecordings ? 1 : 0,
    created_at: Date.now(),
  };
  await db.insertInto('organisations').values(org).execute();
  return { id: org.id, name, retentionDays, keepRecordings };
}

export async function findOrganisationByName(db: Db, name: string): Promise<Organisation | undefined> {
  const row = await db.selectFrom('organisations').selectAll().where('name', '=', name).executeTakeFirst();
  return (
    row && { id: row.id, name: row.name, retentionDays: row.retention_days, keepRecordings: row.keep_recordings === 1 }
  );
}

export async function createUser(db: Db, orgId: string, username: string, password: string, role: UserRole) {
  const user = {
    id: newId(),
    org_id: orgId,
    username,
    password_hash: await hashPassword(password),
    role,
    created_at: Date.now(),
  };
  await db.insertInto('users').values(user).execute();
  return { id: user.id, username, role };
}

/**
 * Forgets a username's failed logins, from every address: after a new password the user can log in at once.
 * Run inside the transaction that changes the password.
 */
export async function forgetLoginFailures(trx: Db, username: string): Promise<void> {
  await trx
    .deleteFrom('login_failures')
    .where((eb) =>
      eb.or([
        eb('key', '=', userFailureKey(username)),
        // LIKE would read % and _ in the prefix as wildcards; the prefix is hex, but compare it exactly anyway.
        eb(sql`substr(key, 1, ${userAddressPrefix(username).length})`, '=', userAddressPrefix(username)),
      ]),
    )
    .execute();
}

export async function findUserForLogin(db: Db, username: string) {
  if (holdsNul(username)) return undefined;
  return db
    .selectFrom('users')
    .innerJoin('organisations', 'organisations.id', 'users.org_id')
    .select([
      'users.id',
      'users.username',
      'users.password_hash',
      'users.role',
      'users.org_id',
      'organisations.name as org_name',
    ])
    .where('users.username', '=', username)
    .executeTakeFirst();
}

export async function createSession(db: Db, userId: string, orgId: string, ttlSeconds: number) {
  const token = newSecret(SESSION_PREFIX);
  const now = Date.now();
  const expiresAt = now + ttlSeconds * 1000;
  await db
    .insertInto('sessions')
    .values({
      id: newId(now),
      token_hash: hashSecret(token),
      user_id: userId,
      org_id: orgId,
      expires_at: expiresAt,
      created_at: now,
    })
    .execute();
  return { token, expiresAt };
}

export async function createAccessToken(db: Db, orgId: string, name: string, expiresAt: number | null) {
  const token = newSecret(ACCESS_TOKEN_PREFIX);
  const row = {
    id: newId(),
    org_id: orgId,
    name,
    token_hash: hashSecret(token),
    role: TOKEN_ROLE,
    expires_at: expiresAt,
    revoked_at: null,
    created_at: Date.now(),
  };
  await db.insertInto('access_tokens').values(row).execute();
  return { id: row.id, name, token, expiresAt };
}

/** True when a token of that organisation was revoked now (false when unknown or already revoked). */
export async function revokeAccessToken(db: Db, orgId: string, id: string): Promise<boolean> {
  const result = await db
    .updateTable('access_tokens')
    .set({ revoked_at: Date.now() })
    .where('id', '=', id)
    .where('org_id', '=', orgId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The principal behind a Bearer token, or undefined when unknown, expired or revoked. */
export async function findPrincipal(db: Db, token: string, now = Date.now()): Promise<Principal | undefined> {
  const hash = hashSecret(token);
  if (token.startsWith(SESSION_PREFIX)) {
    const row = await sessionByHash(db, hash);
    if (!row || !sameHash(row.token_hash, hash) || row.expires_at <= now) return undefined;
    return { orgId: row.org_id, role: row.role, kind: 'session', userId: row.user_id };
  }
  if (token.startsWith(ACCESS_TOKEN_PREFIX)) {
    const row = await accessTokenByHash(db, hash);
    if (!row || !sameHash(row.token_hash, hash) || row.revoked_at !== null) return undefined;
    if (row.expires_at !== null && row.expires_at <= now) return undefined;
    return { orgId: row.org_id, role: row.role, kind: 'access_token', tokenId: row.id };
  }
  return undefined;
}

// Every authenticated request runs one of these: compiled once, not built per request; on PostgreSQL the
// lookups of concurrent requests share a query (lookup-batcher.ts).
const SESSION_COLUMNS = [
  'sessions.token_hash',
  'sessions.expires_at',
  'sessions.org_id',
  'users.id as user_id',
  'users.role',
] as const;
const sessionsFrom = (db: Db) =>
  db.selectFrom('sessions').innerJoin('users', 'users.id', 'sessions.user_id').select(SESSION_COLUMNS);
const sessionByHash = batchedLookup(
  byKey(
    preparedQuery((db: Db) => sessionsFrom(db).where(sql<boolean>`sessions.token_hash = any(${[]}::text[])`)),
    (r) => r.token_hash,
  ),
  firstRow(preparedQuery((db: Db) => sessionsFrom(db).where('sessions.token_hash', '=', ''))),
);
const TOKEN_COLUMNS = ['id', 'token_hash', 'org_id', 'role', 'expires_at', 'revoked_at'] as const;
const accessTokenByHash = batchedLookup(
  byKey(
    preparedQuery((db: Db) =>
      db.selectFrom('access_tokens').select(TOKEN_COLUMNS).where(sql<boolean>`token_hash = any(${[]}::text[])`),
    ),
    (r) => r.token_hash,
  ),
  firstRow(
    preparedQuery((db: Db) => db.selectFrom('access_tokens').select(TOKEN_COLUMNS).where('token_hash', '=', '')),
  ),
);

export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', hashSecret(token)).execute();
}

/**
 * Counts one attempt per key before it is tried, atomically, and answers each key's counter as it was just before
 * this attempt: concurrent attempts each see the ones ahead of them, so a burst cannot all pass a check made
 * before any of them is counted. A key whose window has passed moves on to the next window (the one that passed
 * becomes its previous), or starts afresh after two. A window that starts more than a window ahead (written by an
 * instance whose clock ran ahead) starts afresh too: kept, it would lock the key out for as long as that clock was
 * ahead. A few milliseconds ahead is only another request that read the clock later and reached the database
 * first: starting afresh then would wipe the burst it belongs to.
 * Keys are claimed in sorted order, as every statement on these rows takes them, so that two claims cannot deadlock.
 */
export async function claimAttempt(
  db: Db,
  keys: string[],
  windowSeconds: number,
  now = Date.now(),
): Promise<Map<string, ClaimedCounter>> {
  const w = windowSeconds * 1000;
  // Every SET expression reads the row as it was before this statement (both dialects). A counter rolls by the
  // window it was counted with; a new LOGIN_WINDOW_SECONDS (a restart, an instance set otherwise) takes over only
  // when it rolls, so counters that a shorter window had already let go of do not lock anyone out.
  const own = sql`login_failures.window_ms`;
  const fresh = sql`login_failures.window_start > ${now} + ${own} or login_failures.window_start <= ${now} - 2 * ${own}`;
  const next = sql`login_failures.window_start <= ${now} - ${own}`;
  const rows = await db
    .insertInto('login_failures')
    .values(
      [...keys].sort().map((key) => ({
        key,
        failures: 1,
        previous_failures: 0,
        window_start: now,
        window_ms: w,
        locked_until: 0,
        lockouts: 0,
      })),
    )
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failures: sql`case when ${fresh} then 1 when ${next} then 1 else login_failures.failures + 1 end`,
        previous_failures: sql`case when ${fresh} then 0 when ${next} then login_failures.failures else login_failures.previous_failures end`,
        // The next window follows this one; under a new length it starts now (following, it could be over already).
        window_start: sql`case when ${fresh} then ${now} when ${next} and ${own} = ${w} then login_failures.window_start + ${own} when ${next} then ${now} else login_failures.window_start end`,
        window_ms: sql`case when ${fresh} or ${next} then ${w} else ${own} end`,
        // A lock from a clock that ran ahead (its window starts in the future, or it ends later than any lock may)
        // goes with it.
        locked_until: sql`case when login_failures.window_start > ${now} + ${own} or login_failures.locked_until > ${now + MAX_LOCK_MS} then 0 else login_failures.locked_until end`,
      }),
    )
    .returning(['key', 'failures', 'previous_failures', 'window_start', 'window_ms', 'locked_until', 'lockouts'])
    .execute();
  return new Map(
    rows.map((r) => [
      r.key,
      {
        failures: r.failures - 1,
        previous: r.previous_failures,
        windowStart: Number(r.window_start),
        windowSeconds: Number(r.window_ms) / 1000,
        lockedUntil: Number(r.locked_until),
        lockouts: Number(r.lockouts),
      },
    ]),
  );
}

/** A counter as a claim found it, with the window it is counted in (which is not always the configured one). */
export type ClaimedCounter = FailureCounter & { windowSeconds: number; lockedUntil: number; lockouts: number };

/**
 * Locks a key that a failure brought to its limit until `until`, one more lockout. Concurrent failures each lock it;
 * the later end wins, so a lock is never shortened.
 */
export async function lockKey(db: Db, key: string, until: number): Promise<void> {
  await db
    .updateTable('login_failures')
    .set({
      lockouts: sql`lockouts + 1`,
      locked_until: sql`case when locked_until > ${until} then locked_until else ${until} end`,
    })
    .where('key', '=', key)
    .execute();
}

/**
 * A claimed attempt that succeeded, or was never tried (429, a failure on this side), was no failure. A counter left
 * with nothing to remember goes: refused attempts under a thousand made-up usernames left a thousand empty rows.
 */
export async function unclaimAttempt(db: Db, keys: string[]): Promise<void> {
  // One row per statement: a statement holding one row's lock cannot deadlock with a claim holding the other's.
  for (const key of [...keys].sort()) {
    // Only this claim in it (a concurrent claim would make it 2): nothing is left to count.
    const gone = await db
      .deleteFrom('login_failures')
      .where('key', '=', key)
      .where('failures', '<=', 1)
      .where('previous_failures', '=', 0)
      // A key that was locked keeps its row: the next lock must be longer.
      .where('lockouts', '=', 0)
      .executeTakeFirst();
    if (Number(gone.numDeletedRows) > 0) continue;
    await db
      .updateTable('login_failures')
      .set({ failures: sql`case when failures > 0 then failures - 1 else 0 end` })
      .where('key', '=', key)
      .execute();
  }
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.deleteFrom('login_failures').where('key', '=', key).execute();
}

/**
 * Login counters two of their own windows old count nothing any more (the next attempt starts afresh), unless they
 * were locked within the last day: without
 * this, every username ever guessed and every address that ever tried would keep a row for good. Each row's own
 * window decides, not the sweeping process's setting.
 */
export async function deleteStaleLoginCounters(db: Db, now = Date.now()): Promise<number> {
  const r = await db
    .deleteFrom('login_failures')
    .where(sql<boolean>`window_start + 2 * window_ms <= ${now}`)
    // A locked key is remembered for a day after its lock ends, so that the next lock doubles.
    .where('locked_until', '<=', now - MAX_LOCK_MS)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

export async function deleteExpiredSessions(db: Db, now = Date.now()): Promise<number> {
  const r = await db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
  return Number(r.numDeletedRows);
}
