// sightline admin provider …, admin account … and storage put: the same functions as the admin HTTP API.
// Without --org, providers and accounts are service-wide (the storage service authenticates by account alone);
// with --org they belong to that organisation, as those made through the admin HTTP API do. The list commands
// without --org list every owner's, each row naming its organisation ("-" for service-wide).
import fs from 'node:fs';
import type { Store } from '../../db/store.js';
import { ApiError } from '../../http/problem.js';
import { accountsOf, providersOf } from '../../storage/admin.js';
import {
  auditedChangeAccount,
  auditedCreateAccount,
  auditedCreateProvider,
  auditedEnableProvider,
  auditedRotateAccount,
} from '../../admin/storage.js';
import { accountsEverywhere, providersEverywhere } from '../../admin/everywhere.js';
import { cliActor } from './admin-cli.js';
import { uploadFile } from '../../storage/upload.js';
import type { Owner } from '../../storage/queries.js';
import { UsageError, envSecret, listFlag, stringFlag, type FlagValue } from '../args.js';
import type { CommandContext, CommandTable } from '../command.js';
import { printResult } from '../output.js';
import { requireOrganisation } from './admin-auth.js';

// The shared validation speaks of the API's config fields; on the command line they are flags.
const FLAG_OF_FIELD: Record<string, string> = {
  accessKeyId: 'access-key-id',
  secretAccessKey: 'secret-access-key',
  sessionToken: 'session-token',
  pathStyle: 'path-style',
  accountKey: 'account-key',
  connectionString: 'connection-string',
  serviceAccountKey: 'service-account-key',
  clientEmail: 'client-email',
  privateKey: 'private-key-file',
};
const FIELD_NAMES = new RegExp(`\\b(${Object.keys(FLAG_OF_FIELD).join('|')})\\b`, 'g');

/** Admin failures are ApiErrors; the CLI shows their detail only. */
async function cli<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const message = err.message.replace(FIELD_NAMES, (field) => `--${FLAG_OF_FIELD[field]}`);
    // A 400 is a flag's value the admin API refused; anything else (not found, taken) is about the store, and so is
    // a --provider naming none: the flag is well formed, the store lacks it (exit 1, as for a missing organisation).
    throw err.status === 400 && err.code !== 'unknown_provider' ? new UsageError(message) : new Error(message);
  }
}

async function ownerOf(store: Store, flags: Record<string, FlagValue>): Promise<Owner> {
  const org = stringFlag(flags, 'org');
  return org === undefined ? null : (await requireOrganisation(store.db, org)).id;
}

const FLAGS_BY_TYPE: Record<string, string[]> = {
  fs: ['root'],
  s3: ['bucket', 'region', 'endpoint', 'path-style', 'access-key-id', 'secret-access-key', 'session-token'],
  azure: ['account', 'container', 'account-key', 'connection-string', 'endpoint'],
  gcs: ['bucket', 'service-account-key', 'client-email', 'private-key-file', 'endpoint'],
};
const COMMON_FLAGS = new Set(['name', 'type', 'org', 'json', 'data', 'database-url', 'log-level', 'port', 'host']);

function providerConfig(type: string, flags: Record<string, FlagValue>): Record<string, unknown> {
  const allowed = FLAGS_BY_TYPE[type];
  if (!allowed) throw new UsageError(`--type must be one of ${Object.keys(FLAGS_BY_TYPE).join(', ')}`);
  // A flag of another type (say --bucket on fs) is a mistake worth stopping for.
  const stray = Object.keys(flags).filter((f) => !COMMON_FLAGS.has(f) && !allowed.includes(f));
  if (stray.length > 0)
    throw new UsageError(
      `${stray.map((f) => `--${f}`).join(', ')} ${stray.length > 1 ? 'do' : 'does'} not apply to --type ${type} (its flags: ${allowed.map((f) => `--${f}`).join(' ')})`,
    );
  const s = (name: string) => stringFlag(flags, name);
  const c: Record<string, unknown> = {};
  const put = (key: string, value: unknown) => {
    if (value !== undefined) c[key] = value;
  };
  const readFile = (flag: string) => {
    const file = s(flag);
    if (file === undefined) return undefined;
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      throw new Error(`--${flag}: cannot read "${file}"`);
    }
  };
  switch (type) {
    case 'fs':
      put('root', s('root'));
      break;
    case 's3':
      put('bucket', s('bucket'));
      put('region', s('region'));
      put('endpoint', s('endpoint'));
      if (flags['path-style'] === true) c.pathStyle = true;
      put('accessKeyId', s('access-key-id'));
      put('sessionToken', s('session-token') ?? envSecret('STORAGE_PROVIDER_SESSION_TOKEN'));
      put('secretAccessKey', s('secret-access-key') ?? envSecret('STORAGE_PROVIDER_SECRET'));
      break;
    case 'azure': {
      put('account', s('account'));
      put('container', s('container'));
      put('endpoint', s('endpoint'));
      // STORAGE_PROVIDER_SECRET holds the account key, or the whole connection string (which has a ";"; a base64 key
      // never does), so that neither needs to be on a command line.
      const accountKey = s('account-key');
      const secret = envSecret('STORAGE_PROVIDER_SECRET');
      const connectionString =
        s('connection-string') ?? (accountKey === undefined && secret?.includes(';') ? secret : undefined);
      put('accountKey', accountKey ?? (connectionString ? undefined : secret));
      put('connectionString', connectionString);
      break;
    }
    case 'gcs':
      put('bucket', s('bucket'));
      put('endpoint', s('endpoint'));
      put('serviceAccountKey', readFile('service-account-key'));
      put('clientEmail', s('client-email'));
      put('privateKey', readFile('private-key-file'));
      break;
  }
  return c;
}

const ORG = '[--org <organisation>]';
type Ctx = CommandContext;

function accountVerb(verb: 'enable' | 'disable') {
  return {
    usage: `admin account ${verb} --name <n> ${ORG}`,
    async run({ flags, json, withStore }: Ctx) {
      const name = stringFlag(flags, 'name', true);
      const view = await withStore(async (store) =>
        cli(async () =>
          auditedChangeAccount(store, cliActor(), await ownerOf(store, flags), name, { enabled: verb === 'enable' }),
        ),
      );
      printResult(json, { name: view.name, enabled: view.enabled }, `account ${view.name} ${verb}d`);
    },
  };
}

function providerVerb(verb: 'enable' | 'disable') {
  return {
    usage: `admin provider ${verb} --name <n> ${ORG}`,
    async run({ flags, json, withStore }: Ctx) {
      const name = stringFlag(flags, 'name', true);
      const view = await withStore(async (store) =>
        cli(async () => auditedEnableProvider(store, cliActor(), await ownerOf(store, flags), name, verb === 'enable')),
      );
      printResult(json, view, `provider ${view.name} ${verb}d`);
    },
  };
}

export const storageCommands: CommandTable = {
  'admin provider create': {
    usage:
      'admin provider create --name <n> --type fs|s3|azure|gcs ' +
      '[fs: --root <dir>] [s3: --bucket <b> --region <r> [--endpoint <url>] [--path-style] --access-key-id <k> --secret-access-key <s>] ' +
      '[azure: --account <a> --container <c> --account-key <k> | --connection-string <cs> [--endpoint <url>]] ' +
      `[gcs: --bucket <b> --service-account-key <key.json> [--endpoint <url>]] ${ORG}  (secrets may come from STORAGE_PROVIDER_SECRET and STORAGE_PROVIDER_SESSION_TOKEN instead, out of ps and shell history)`,
    // Every type's flags: which ones apply to the given --type is checked by providerConfig.
    flags: [...new Set(['name', 'type', 'org', ...Object.values(FLAGS_BY_TYPE).flat()])],
    async run({ flags, json, withStore, config }) {
      const name = stringFlag(flags, 'name', true);
      const type = stringFlag(flags, 'type', true);
      const providerConfigInput = providerConfig(type, flags);
      const view = await withStore(async (store) =>
        cli(async () =>
          auditedCreateProvider(
            store,
            config,
            cliActor(),
            await ownerOf(store, flags),
            { name, type, config: providerConfigInput },
            'operator',
          ),
        ),
      );
      printResult(
        json,
        view,
        `provider ${view.name} (${view.type}) created${view.hasCredentials ? '; its credentials are encrypted at rest' : ''}`,
      );
    },
  },
  'admin provider list': {
    usage: `admin provider list ${ORG}   (never prints a credential; without --org every organisation's and the service-wide ones, each with its organisation)`,
    async run({ flags, json, withStore }) {
      const everywhere = flags.org === undefined;
      const list: Array<Awaited<ReturnType<typeof providersOf>>[number] & { organisation?: string | null }> =
        await withStore(async (store) =>
          everywhere ? providersEverywhere(store.db) : providersOf(store, await ownerOf(store, flags)),
        );
      printResult(
        json,
        { providers: list },
        list.length === 0
          ? everywhere
            ? 'no providers in any organisation nor service-wide'
            : 'no providers'
          : list
              .map(
                (p) =>
                  `${everywhere ? `${p.organisation ?? '-'}\t` : ''}${p.name}\t${p.type}\t${p.enabled ? 'enabled' : 'disabled'}\t${JSON.stringify(p.config)}`,
              )
              .join('\n'),
      );
    },
  },
  'admin provider enable': providerVerb('enable'),
  'admin provider disable': providerVerb('disable'),
  'admin account create': {
    usage: `admin account create --name <n> --provider <default> [--provider <other> …] [--directory <dir> … (default: every directory)] ${ORG}`,
    async run({ flags, json, withStore }) {
      const name = stringFlag(flags, 'name', true);
      const providers = listFlag(flags, 'provider');
      if (providers.length === 0)
        throw new UsageError('--provider is required (the first one is the default provider)');
      const directories = listFlag(flags, 'directory');
      const created = await withStore(async (store) =>
        cli(async () =>
          auditedCreateAccount(store, cliActor(), await ownerOf(store, flags), {
            name,
            defaultProvider: providers[0],
            providers: providers.slice(1),
            ...(directories.length > 0 ? { directories } : {}),
          }),
        ),
      );
      // The account as spec §2 shapes it (and as the admin API answers), with its secret this once.
      printResult(
        json,
        created,
        `account ${created.name} created (default provider ${created.defaultProvider}; providers ${created.providers.join(', ')}; ` +
          `directories ${created.directories.join(', ')}). The secret is shown only now:\n` +
          `X-Service-Storage-AccessKey: ${created.accessKey}\nX-Service-Storage-SecretAccessKey: ${created.secretAccessKey}`,
      );
    },
  },
  'admin account list': {
    usage: `admin account list ${ORG}   (never prints a secret; without --org every organisation's and the service-wide ones, each with its organisation)`,
    async run({ flags, json, withStore }) {
      const everywhere = flags.org === undefined;
      const list: Array<Awaited<ReturnType<typeof accountsOf>>[number] & { organisation?: string | null }> =
        await withStore(async (store) =>
          everywhere ? accountsEverywhere(store.db) : accountsOf(store, await ownerOf(store, flags)),
        );
      printResult(
        json,
        { accounts: list },
        list.length === 0
          ? everywhere
            ? 'no accounts in any organisation nor service-wide'
            : 'no accounts'
          : list
              .map(
                (a) =>
                  `${everywhere ? `${a.organisation ?? '-'}\t` : ''}${a.name}\t${a.accessKey}\t${a.enabled ? 'enabled' : 'disabled'}\tdefault ${a.defaultProvider}\tproviders ${a.providers.join(',')}\tdirectories ${a.directories.join(',')}`,
              )
              .join('\n'),
      );
    },
  },
  'admin account disable': accountVerb('disable'),
  'admin account enable': accountVerb('enable'),
  'admin account rotate': {
    usage: `admin account rotate --name <n> ${ORG}   (a new secret; the old one stops working at once)`,
    async run({ flags, json, withStore }) {
      const name = stringFlag(flags, 'name', true);
      const rotated = await withStore(async (store) =>
        cli(async () => auditedRotateAccount(store, cliActor(), await ownerOf(store, flags), name)),
      );
      printResult(
        json,
        rotated,
        `account ${rotated.name} has a new secret, shown only now:\nX-Service-Storage-AccessKey: ${rotated.accessKey}\nX-Service-Storage-SecretAccessKey: ${rotated.secretAccessKey}`,
      );
    },
  },
  'storage put': {
    usage: `storage put --provider <n> --file <local file> --key <filename> ${ORG}   (uploads through the provider)`,
    async run({ flags, json, withStore, config }) {
      const provider = stringFlag(flags, 'provider', true);
      const file = stringFlag(flags, 'file', true);
      const key = stringFlag(flags, 'key', true);
      const result = await withStore(async (store) =>
        cli(async () => uploadFile(store, config, await ownerOf(store, flags), provider, file, key)),
      );
      printResult(json, result, `uploaded ${file} to ${provider}:${result.key} (${result.size} bytes)`);
    },
  },
};
