// sightline admin org|user|token …
import {
  createAccessToken,
  createOrganisation,
  createUser,
  deleteUser,
  findOrganisationByName,
  listAccessTokens,
  listUsers,
  revokeAccessToken,
  setUserPassword,
  setUserRole,
} from '../../auth/queries.js';
import { USER_ROLES, isUserRole, type UserRole } from '../../auth/roles.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { parseDuration } from '../../util/duration.js';
import { UsageError, envSecret, nameFlag, numberFlag, stringFlag, type ParsedArgs } from '../args.js';
import type { CommandTable } from '../command.js';
import { printResult } from '../output.js';

const MAX_TOKEN_SECONDS = 36_500 * 86_400;

export async function requireOrganisation(db: Kysely<Database>, name: string) {
  const org = await findOrganisationByName(db, name);
  if (!org)
    throw new Error(`no organisation named "${name}" (create it with: sightline admin org create --name ${name})`);
  return org;
}

/** `change` applied to the organisation's user; a missing organisation or user fails naming it (exit 1). */
async function changeUser<T>(
  db: Kysely<Database>,
  orgName: string,
  username: string,
  change: (orgId: string) => Promise<T | undefined>,
): Promise<T> {
  const org = await requireOrganisation(db, orgName);
  const changed = await change(org.id);
  if (!changed) throw new Error(`no user named "${username}" in ${orgName}`);
  return changed;
}

const PASSWORD_USAGE =
  '--password <p>   (or SIGHTLINE_USER_PASSWORD instead of --password, out of ps and shell history)';

/** A user's password: --password, else SIGHTLINE_USER_PASSWORD; at least 8 characters, not all blank. */
function passwordFlag(flags: ParsedArgs['flags']): string {
  const fromEnv = flags.password === undefined ? envSecret('SIGHTLINE_USER_PASSWORD') : undefined;
  const password = fromEnv ?? stringFlag(flags, 'password', true);
  if (!/\S/.test(password)) throw new UsageError('--password must not be blank');
  if (password.length < 8) throw new UsageError('--password must have at least 8 characters');
  return password;
}

function roleFlag(flags: ParsedArgs['flags']): UserRole {
  const role = stringFlag(flags, 'role', true);
  if (!isUserRole(role)) throw new UsageError(`--role must be one of ${USER_ROLES.join(', ')}`);
  return role;
}

export const authCommands: CommandTable = {
  'admin org create': {
    usage: 'admin org create --name <name> [--retention-days 30] [--keep-recordings]',
    async run({ flags, json, withStore }) {
      const name = nameFlag(flags, 'name');
      // Far beyond any real retention; the bound keeps the value within both databases' integer column.
      const retentionDays = numberFlag(flags, 'retention-days', { integer: true, min: 1, max: 1_000_000 }) ?? 30;
      const org = await withStore(async ({ db }) => {
        if (await findOrganisationByName(db, name)) throw new Error(`an organisation named "${name}" already exists`);
        return createOrganisation(db, name, retentionDays, flags['keep-recordings'] === true);
      });
      printResult(
        json,
        { id: org.id, name: org.name, retentionDays: org.retentionDays },
        `organisation ${org.name} created (id ${org.id}, retention ${org.retentionDays} days)`,
      );
    },
  },
  'admin user create': {
    usage: `admin user create --org <name> --username <u> --role <${USER_ROLES.join('|')}> ${PASSWORD_USAGE}`,
    async run({ flags, json, withStore }) {
      const orgName = stringFlag(flags, 'org', true);
      const username = nameFlag(flags, 'username');
      const password = passwordFlag(flags);
      const role = roleFlag(flags);
      const user = await withStore(async ({ db }) => {
        const org = await requireOrganisation(db, orgName);
        const taken = await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
        if (taken) throw new Error(`the username "${username}" is taken`);
        return createUser(db, org.id, username, password, role);
      });
      printResult(json, user, `user ${user.username} (${user.role}) created in ${orgName} (id ${user.id})`);
    },
  },
  'admin token create': {
    usage:
      'admin token create --org <name> --name <label> [--expires-in <duration such as 90d; default: never expires>]',
    async run({ flags, json, withStore }) {
      const orgName = stringFlag(flags, 'org', true);
      const name = nameFlag(flags, 'name');
      const expiresIn = stringFlag(flags, 'expires-in');
      const seconds = expiresIn === undefined ? undefined : parseDuration(expiresIn.trim());
      if (expiresIn !== undefined && (seconds === undefined || seconds <= 0))
        throw new UsageError('--expires-in must be a duration such as 90d, 12h or 3600');
      // Leave out --expires-in for a token that never expires; past 100 years a date is a typo.
      if (seconds !== undefined && seconds > MAX_TOKEN_SECONDS)
        throw new UsageError('--expires-in must be at most 36500d (leave it out for a token that does not expire)');
      const token = await withStore(async ({ db }) => {
        const org = await requireOrganisation(db, orgName);
        return createAccessToken(db, org.id, name, seconds === undefined ? null : Date.now() + seconds * 1000);
      });
      const expiresAt = token.expiresAt === null ? null : new Date(token.expiresAt).toISOString();
      printResult(
        json,
        { id: token.id, name: token.name, token: token.token, expiresAt },
        `token ${token.name} (id ${token.id}) created; it is shown only now:\n${token.token}`,
      );
    },
  },
  'admin user delete': {
    usage: 'admin user delete --org <name> --username <u>   (its sessions end at once)',
    async run({ flags, json, withStore }) {
      const orgName = stringFlag(flags, 'org', true);
      const username = stringFlag(flags, 'username', true);
      const user = await withStore(({ db }) =>
        changeUser(db, orgName, username, (orgId) => deleteUser(db, orgId, username)),
      );
      printResult(
        json,
        { id: user.id, username, deleted: true },
        `user ${username} (id ${user.id}) deleted from ${orgName}; its sessions are over`,
      );
    },
  },
  'admin user list': {
    usage: 'admin user list --org <name>   (usernames, roles and dates; never a password hash)',
    async run({ flags, json, withStore }) {
      const orgName = stringFlag(flags, 'org', true);
      const users = await withStore(async ({ db }) => listUsers(db, (await requireOrganisation(db, orgName)).id));
      printResult(
        json,
        { users },
        users.length === 0
          ? `no users in ${orgName}`
          : users.map((u) => `${u.id}  ${u.username}  ${u.role}  (created ${u.createdAt})`).join('\n'),
      );
    },
  },
  'admin user set-password': {
    usage: `admin user set-password --org <name> --username <u> ${PASSWORD_USAGE}; its sessions end at once`,
    async run({ flags, json, withStore }) {
      const orgName = stringFlag(flags, 'org', true);
      const username = stringFlag(flags, 'username', true);
      const password = passwordFlag(flags);
      const changed = await withStore(({ db }) =>
        changeUser(db, orgName, username, (orgId) => setUserPassword(db, orgId, username, password)),
      );
      printResult(
        json,
        { id: changed.id, username, sessionsEnded: changed.sessionsEnded },
        `password of ${username} (id ${changed.id}) changed; ${changed.sessionsEnded} session${changed.sessionsEnded === 1 ? '' : 's'} ended`,
      );
    },
  },
  'admin user set-role': {
    usage: `admin user set-role --org <name> --username <u> --role <${USER_ROLES.join('|')}>   (its sessions carry the new role at once)`,
    async run({ flags, json, withStore }) {
      const orgName = stringFlag(flags, 'org', true);
      const username = stringFlag(flags, 'username', true);
      const role = roleFlag(flags);
      const changed = await withStore(({ db }) =>
        changeUser(db, orgName, username, (orgId) => setUserRole(db, orgId, username, role)),
      );
      printResult(
        json,
        { id: changed.id, username, role },
        `${username} (id ${changed.id}) is now ${role} in ${orgName}`,
      );
    },
  },
  'admin token list': {
    usage: 'admin token list --org <name>   (ids, names and dates; never a secret)',
    async run({ flags, json, withStore }) {
      const orgName = stringFlag(flags, 'org', true);
      const tokens = await withStore(async ({ db }) =>
        listAccessTokens(db, (await requireOrganisation(db, orgName)).id),
      );
      const state = (t: (typeof tokens)[number]) =>
        t.revokedAt
          ? `revoked ${t.revokedAt}`
          : t.expiresAt
            ? `${Date.parse(t.expiresAt) <= Date.now() ? 'expired' : 'expires'} ${t.expiresAt}`
            : 'never expires';
      printResult(
        json,
        { tokens },
        tokens.length === 0
          ? `no tokens in ${orgName}`
          : tokens.map((t) => `${t.id}  ${t.name}  (${state(t)})`).join('\n'),
      );
    },
  },
  'admin token revoke': {
    usage: 'admin token revoke --org <name> --id <id>',
    async run({ flags, json, withStore }) {
      const orgName = stringFlag(flags, 'org', true);
      const id = stringFlag(flags, 'id', true);
      await withStore(async ({ db }) => {
        const org = await requireOrganisation(db, orgName);
        if (!(await revokeAccessToken(db, org.id, id)))
          throw new Error(`no active token with id "${id}" in ${orgName}`);
      });
      printResult(json, { id, revoked: true }, `token ${id} revoked`);
    },
  },
};
