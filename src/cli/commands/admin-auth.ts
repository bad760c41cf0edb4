// sightline admin org|user|token …
// The changes go through the admin domain's operations, the same as the admin HTTP API's, and are audited with
// the operator (the CLI and its operating-system user) as their author.
import { createOrganisation, findOrganisationByName } from '../../auth/queries.js';
import { USER_ROLES, isUserRole, type UserRole } from '../../auth/roles.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { parseDuration } from '../../util/duration.js';
import { recordAudit } from '../../admin/audit.js';
import { listOrganisations, updateOrganisation } from '../../admin/organisation.js';
import { createOrgToken, listOrgTokens, revokeOrgToken } from '../../admin/tokens.js';
import {
  changeUserRole,
  createOrgUser,
  deleteOrgUser,
  listOrgUsers,
  resetUserPassword,
  type UserView,
} from '../../admin/users.js';
import { tokensEverywhere, usersEverywhere } from '../../admin/everywhere.js';
import { MAX_TOKEN_SECONDS } from '../../admin/validate.js';
import { UsageError, envSecret, nameFlag, numberFlag, stringFlag, type ParsedArgs } from '../args.js';
import type { CommandTable } from '../command.js';
import { printResult } from '../output.js';
import { adminCli, cliActor } from './admin-cli.js';

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
  change: (orgId: string) => Promise<T>,
): Promise<T> {
  const org = await requireOrganisation(db, orgName);
  return adminCli(() => change(org.id), { user_not_found: `no user named "${username}" in ${orgName}` });
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
        const made = await createOrganisation(db, name, retentionDays, flags['keep-recordings'] === true);
        await recordAudit(db, made.id, cliActor(), 'organisation.created', {
          type: 'organisation',
          id: made.id,
          name,
        });
        return made;
      });
      printResult(
        json,
        { id: org.id, name: org.name, retentionDays: org.retentionDays },
        `organisation ${org.name} created (id ${org.id}, retention ${org.retentionDays} days)`,
      );
    },
  },
  'admin org list': {
    usage: 'admin org list   (every organisation with its settings and how many users and recordings it has)',
    async run({ json, withStore }) {
      const orgs = await withStore(({ db }) => listOrganisations(db));
      printResult(
        json,
        { organisations: orgs },
        orgs.length === 0
          ? 'no organisations (create one with: sightline admin org create --name <name>)'
          : orgs
              .map(
                (o) =>
                  `${o.name}  (id ${o.id}; retention ${o.retentionDays} days${o.keepRecordings ? ', recordings kept' : ''}; ${o.users} user${o.users === 1 ? '' : 's'}, ${o.recordings} recording${o.recordings === 1 ? '' : 's'}${o.editorStorageAccount ? `; editor account ${o.editorStorageAccount}` : ''})`,
              )
              .join('\n'),
      );
    },
  },
  'admin org set': {
    usage:
      'admin org set --org <name> [--retention-days N] [--keep-recordings=true|false] [--editor-storage-account <account>|-]   (- returns to EDITOR_STORAGE_ACCOUNT)',
    flags: ['org', 'retention-days', 'keep-recordings', 'editor-storage-account'],
    async run({ flags, json, withStore }) {
      const orgName = stringFlag(flags, 'org', true);
      const patch: Record<string, unknown> = {};
      const days = numberFlag(flags, 'retention-days', { integer: true, min: 1, max: 1_000_000 });
      if (days !== undefined) patch.retentionDays = days;
      if (typeof flags['keep-recordings'] === 'boolean') patch.keepRecordings = flags['keep-recordings'];
      const account = stringFlag(flags, 'editor-storage-account');
      if (account !== undefined) patch.editorStorageAccount = account === '-' ? null : account;
      if (Object.keys(patch).length === 0)
        throw new UsageError('give at least one of --retention-days, --keep-recordings, --editor-storage-account');
      const org = await withStore(async ({ db }) => {
        const found = await requireOrganisation(db, orgName);
        return adminCli(() => updateOrganisation(db, found.id, cliActor(), patch));
      });
      printResult(
        json,
        org,
        `${org.name}: retention ${org.retentionDays} days${org.keepRecordings ? ', recordings kept' : ''}; editor account ${org.editorStorageAccount ?? "the server's (EDITOR_STORAGE_ACCOUNT)"}`,
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
        return adminCli(() => createOrgUser(db, org.id, cliActor(), { username, password, role }), {
          username_taken: `the username "${username}" is taken`,
        });
      });
      printResult(
        json,
        { id: user.id, username: user.username, role: user.role },
        `user ${user.username} (${user.role}) created in ${orgName} (id ${user.id})`,
      );
    },
  },
  'admin user invite': {
    usage: `admin user invite --org <name> --username <u> --role <${USER_ROLES.join('|')}> [--expires-in <duration, default 7d, at most 30d>]   (prints a one-time invitation: the user chooses a password with it)`,
    async run({ flags, json, withStore }) {
      const orgName = stringFlag(flags, 'org', true);
      const username = nameFlag(flags, 'username');
      const role = roleFlag(flags);
      const expiresIn = stringFlag(flags, 'expires-in');
      const user = await withStore(async ({ db }) => {
        const org = await requireOrganisation(db, orgName);
        return adminCli(() => createOrgUser(db, org.id, cliActor(), { username, role, invite: true, expiresIn }), {
          username_taken: `the username "${username}" is taken`,
        });
      });
      const invitation = user.invitation!;
      printResult(
        json,
        { id: user.id, username: user.username, role: user.role, invitation },
        `user ${user.username} (${user.role}) invited to ${orgName} (id ${user.id}); the invitation is shown only now and works once until ${invitation.expiresAt}:\n` +
          `open /#/invite/${invitation.token} on the server, or POST /invitations/${invitation.token} with {"password": …}`,
      );
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
        return adminCli(() =>
          createOrgToken(db, org.id, cliActor(), { name, ...(seconds === undefined ? {} : { expiresIn: seconds }) }),
        );
      });
      const expiresAt = token.expiresAt;
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
        changeUser(db, orgName, username, (orgId) => deleteOrgUser(db, orgId, cliActor(), { username })),
      );
      printResult(
        json,
        { id: user.id, username, deleted: true },
        `user ${username} (id ${user.id}) deleted from ${orgName}; its sessions are over`,
      );
    },
  },
  'admin user list': {
    usage:
      "admin user list [--org <name>]   (usernames, roles and dates; never a password hash; without --org every organisation's, each with its organisation)",
    async run({ flags, json, withStore }) {
      const orgName = stringFlag(flags, 'org');
      const users: Array<UserView & { organisation?: string }> = await withStore(async ({ db }) =>
        orgName === undefined ? usersEverywhere(db) : listOrgUsers(db, (await requireOrganisation(db, orgName)).id),
      );
      const line = (u: (typeof users)[number]) =>
        `${u.organisation === undefined ? '' : `${u.organisation}  `}${u.id}  ${u.username}  ${u.role}${u.status === 'invited' ? ' (invited)' : ''}  (created ${u.createdAt})`;
      printResult(
        json,
        { users },
        users.length === 0
          ? orgName === undefined
            ? 'no users in any organisation'
            : `no users in ${orgName}`
          : users.map(line).join('\n'),
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
        changeUser(db, orgName, username, (orgId) => resetUserPassword(db, orgId, cliActor(), { username }, password)),
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
        changeUser(db, orgName, username, (orgId) => changeUserRole(db, orgId, cliActor(), { username }, role)),
      );
      printResult(
        json,
        { id: changed.id, username, role },
        `${username} (id ${changed.id}) is now ${role} in ${orgName}`,
      );
    },
  },
  'admin token list': {
    usage:
      "admin token list [--org <name>]   (ids, names and dates; never a secret; without --org every organisation's, each with its organisation)",
    async run({ flags, json, withStore }) {
      const orgName = stringFlag(flags, 'org');
      const tokens: Array<Awaited<ReturnType<typeof listOrgTokens>>[number] & { organisation?: string }> =
        await withStore(async ({ db }) =>
          orgName === undefined ? tokensEverywhere(db) : listOrgTokens(db, (await requireOrganisation(db, orgName)).id),
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
          ? orgName === undefined
            ? 'no tokens in any organisation'
            : `no tokens in ${orgName}`
          : tokens
              .map(
                (t) => `${t.organisation === undefined ? '' : `${t.organisation}  `}${t.id}  ${t.name}  (${state(t)})`,
              )
              .join('\n'),
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
        const gone = `no active token with id "${id}" in ${orgName}`;
        await adminCli(() => revokeOrgToken(db, org.id, cliActor(), id), {
          token_not_found: gone,
          token_revoked: gone,
        });
      });
      printResult(json, { id, revoked: true }, `token ${id} revoked`);
    },
  },
};
