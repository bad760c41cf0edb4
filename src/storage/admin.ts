// Administration shared by the CLI and the admin HTTP API: every failure is an ApiError with a stable code.
import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { ApiError } from '../http/problem.js';
import { checkAccountInput, directoriesProblem, providersProblem } from './account-input.js';
import { checkProviderConfig, isProviderType, providerNameProblem } from './provider-config.js';
import {
  findAccountByName,
  findProviders,
  insertAccount,
  insertProvider,
  listAccounts,
  listProviders,
  rotateAccountSecret,
  setProviderEnabled,
  updateAccount,
  type Account,
  type Owner,
} from './queries.js';
import { fsRoot, newProviderRow, providerView } from './registry.js';
import { invalidateStorageCache } from './row-cache.js';
import { signingKeys } from './signing-keys.js';
import { PROVIDER_TYPES } from './providers/types.js';
import { ensureDirectory } from '../util/ensure-directory.js';

export function accountView(a: Account) {
  return {
    name: a.name,
    accessKey: a.accessKey,
    defaultProvider: a.defaultProvider,
    providers: a.providers,
    directories: a.directories,
    enabled: a.enabled,
    createdAt: new Date(a.createdAt).toISOString(),
    updatedAt: new Date(a.updatedAt).toISOString(),
  };
}

/**
 * `operator`: the caller runs the service (the CLI, the demo) and may point an fs provider at any directory. An
 * organisation's administrator (the HTTP API) may not: a root of "/" would let the organisation read every file
 * the service can, the URL signing key included. Its fs providers live in the data directory, one folder each.
 */
export async function createProvider(
  store: Store,
  config: Config,
  orgId: Owner,
  input: { name?: unknown; type?: unknown; config?: unknown; enabled?: unknown },
  caller: 'operator' | 'organisation' = 'operator',
) {
  if (
    caller === 'organisation' &&
    input.type === 'fs' &&
    typeof input.config === 'object' &&
    input.config !== null &&
    'root' in input.config
  ) {
    throw new ApiError(
      403,
      'forbidden',
      "Only the operator (sightline admin provider create) chooses an fs provider's root; leave config.root out to get a folder of its own in the data directory",
    );
  }
  const nameProblem = providerNameProblem(input.name);
  if (nameProblem) throw new ApiError(400, 'invalid_provider', `provider ${nameProblem}`);
  if (!isProviderType(input.type))
    throw new ApiError(400, 'invalid_provider', `type must be one of ${PROVIDER_TYPES.join(', ')}`);
  if (input.enabled !== undefined && typeof input.enabled !== 'boolean')
    throw new ApiError(400, 'invalid_provider', 'enabled must be true or false');
  const checked = checkProviderConfig(input.type, input.config);
  if (!checked.ok) throw new ApiError(400, 'invalid_provider', checked.detail);
  // An endpoint is where this server connects (to stream in signing mode, to upload): chosen by an organisation,
  // it could be the cloud's metadata service or any internal address, and the answer would stream back to the
  // tenant. Like an fs root, it is the operator's to set; without it the provider talks to AWS, Azure or GCS.
  if (caller === 'organisation' && (checked.value.settings as { endpoint?: unknown }).endpoint !== undefined) {
    throw new ApiError(
      403,
      'forbidden',
      "Only the operator (sightline admin provider create --org …) sets a provider's endpoint: it decides where this server connects. Leave endpoint (and a connection string's BlobEndpoint) out for AWS S3, Azure Blob or Google Cloud Storage",
    );
  }
  if (input.type === 'fs' && signingKeys(config).length === 0) {
    throw new ApiError(
      400,
      'invalid_provider',
      'An fs provider needs service-signed URLs: set STORAGE_URL_SIGNING_KEY first (the server refuses to start without it once an fs provider exists)',
    );
  }
  let row: ReturnType<typeof newProviderRow>;
  try {
    row = newProviderRow(config, orgId, input.name as string, input.type, checked.value, input.enabled !== false);
  } catch (err) {
    throw new ApiError(400, 'invalid_provider', (err as Error).message);
  }
  if ((await findProviders(store.db, orgId, [row.name])).length > 0)
    throw new ApiError(409, 'provider_exists', `A provider named "${row.name}" already exists`);
  // The folder before the row: a folder that cannot be made (a file in the way, no permission) must leave no
  // provider behind whose every upload fails for good; an empty folder left by a refused row is harmless.
  if (row.type === 'fs') ensureDirectory(fsRoot(config, row, JSON.parse(row.settings) as { root?: string }));
  try {
    await insertProvider(store.db, row);
    invalidateStorageCache(store);
  } catch (err) {
    if (isUniqueViolation(err))
      throw new ApiError(409, 'provider_exists', `A provider named "${row.name}" already exists`);
    throw err;
  }
  return providerView(row);
}

export async function providersOf(store: Store, orgId: Owner) {
  return (await listProviders(store.db, orgId)).map(providerView);
}

export async function enableProvider(store: Store, orgId: Owner, name: string, enabled: boolean) {
  const row = await setProviderEnabled(store.db, orgId, name, enabled);
  invalidateStorageCache(store);
  if (!row) throw new ApiError(404, 'provider_not_found', `No provider named "${name}"`);
  return providerView(row);
}

async function assertProvidersExist(store: Store, orgId: Owner, names: string[]) {
  const found = new Set((await findProviders(store.db, orgId, names)).map((r) => r.name));
  const missing = names.filter((n) => !found.has(n));
  if (missing.length > 0)
    throw new ApiError(400, 'unknown_provider', `No provider named ${missing.map((n) => `"${n}"`).join(', ')}`, {
      providers: missing,
    });
}

export async function createAccount(store: Store, orgId: Owner, input: Record<string, unknown>) {
  const checked = checkAccountInput(input);
  if (!checked.ok) throw new ApiError(400, 'invalid_account', checked.detail);
  await assertProvidersExist(store, orgId, checked.value.providers);
  if (await findAccountByName(store.db, checked.value.name))
    throw new ApiError(409, 'account_exists', `An account named "${checked.value.name}" already exists`);
  try {
    const { account, secretAccessKey } = await insertAccount(store.db, orgId, checked.value);
    invalidateStorageCache(store);
    return { ...accountView(account), secretAccessKey };
  } catch (err) {
    if (isUniqueViolation(err))
      throw new ApiError(409, 'account_exists', `An account named "${checked.value.name}" already exists`);
    throw err;
  }
}

export async function accountsOf(store: Store, orgId: Owner) {
  return (await listAccounts(store.db, orgId)).map(accountView);
}

export async function changeAccount(store: Store, orgId: Owner, name: string, patch: Record<string, unknown>) {
  const allowed = new Set(['enabled', 'defaultProvider', 'providers', 'directories']);
  const unknown = Object.keys(patch).filter((k) => !allowed.has(k));
  if (unknown.length > 0) throw new ApiError(400, 'invalid_account', `unknown field(s): ${unknown.join(', ')}`);
  const row = await findAccountByName(store.db, name, orgId);
  if (!row) throw new ApiError(404, 'account_not_found', `No account named "${name}"`);
  if (patch.enabled !== undefined && typeof patch.enabled !== 'boolean')
    throw new ApiError(400, 'invalid_account', 'enabled must be true or false');
  if (patch.providers !== undefined && providersProblem(patch.providers))
    throw new ApiError(400, 'invalid_account', providersProblem(patch.providers)!);
  if (patch.directories !== undefined && directoriesProblem(patch.directories))
    throw new ApiError(400, 'invalid_account', directoriesProblem(patch.directories)!);
  if (
    patch.defaultProvider !== undefined &&
    (typeof patch.defaultProvider !== 'string' || providerNameProblem(patch.defaultProvider))
  ) {
    throw new ApiError(400, 'invalid_account', 'defaultProvider must name a provider');
  }
  const current = JSON.parse(row.providers) as string[];
  const defaultProvider = (patch.defaultProvider as string | undefined) ?? row.default_provider;
  const providers = [...new Set([defaultProvider, ...((patch.providers as string[] | undefined) ?? current)])];
  await assertProvidersExist(store, orgId, providers);
  const updated = await updateAccount(store.db, orgId, name, {
    enabled: patch.enabled as boolean | undefined,
    defaultProvider,
    providers,
    directories: patch.directories === undefined ? undefined : [...new Set(patch.directories as string[])],
  });
  invalidateStorageCache(store);
  return accountView(updated!);
}

export async function rotateAccount(store: Store, orgId: Owner, name: string) {
  const rotated = await rotateAccountSecret(store.db, orgId, name);
  invalidateStorageCache(store);
  if (!rotated) throw new ApiError(404, 'account_not_found', `No account named "${name}"`);
  return { ...accountView(rotated.account), secretAccessKey: rotated.secretAccessKey };
}
