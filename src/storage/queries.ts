// Every query of the storage domain. Admin reads and writes are scoped to one owner (an organisation, or null
// for the service-wide providers and accounts the CLI makes); the public routes find an account by its access
// key (or, for a signed URL, its name) and then stay inside its owner.
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database, StorageAccountsTable, StorageProvidersTable } from '../db/schema.js';
import { newId } from '../util/ids.js';
import { hashAccountSecret, newAccessKey, newSalt, newSecretAccessKey } from './account-secret.js';
import { holdsNul, withoutNul } from '../db/unstorable-text.js';
import { byCodePoint } from '../db/code-point-order.js';

type Db = Kysely<Database>;
/** An organisation id, or null for service-wide rows. */
export type Owner = string | null;

/** `org_id = owner`, or `org_id is null` for service-wide rows (SQL's `= null` never matches). */
function ownedBy<Q>(q: Q, owner: Owner): Q {
  const b = q as unknown as SelectQueryBuilder<Database, 'storage_accounts', object>;
  return (owner === null ? b.where('org_id', 'is', null) : b.where('org_id', '=', owner)) as unknown as Q;
}

export interface Account {
  id: string;
  orgId: Owner;
  name: string;
  accessKey: string;
  defaultProvider: string;
  providers: string[];
  directories: string[];
  enabled: boolean;
  createdAt: number;
  updatedAt: number;
}
export type AccountRow = StorageAccountsTable;
export type ProviderRow = StorageProvidersTable;

export function toAccount(row: StorageAccountsTable): Account {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    accessKey: row.access_key,
    defaultProvider: row.default_provider,
    providers: JSON.parse(row.providers) as string[],
    directories: JSON.parse(row.directories) as string[],
    enabled: row.enabled === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function findAccountByAccessKey(db: Db, accessKey: string): Promise<AccountRow | undefined> {
  if (holdsNul(accessKey)) return undefined;
  return db.selectFrom('storage_accounts').selectAll().where('access_key', '=', accessKey).executeTakeFirst();
}

/** By name: any owner when `owner` is undefined, else only that owner's. */
export async function findAccountByName(db: Db, name: string, owner?: Owner): Promise<AccountRow | undefined> {
  if (holdsNul(name)) return undefined;
  let q = db.selectFrom('storage_accounts').selectAll().where('name', '=', name);
  if (owner !== undefined) q = ownedBy(q, owner);
  return q.executeTakeFirst();
}

/** Of these accounts, the first (by the order given) that belongs to the organisation: an enabled one if any. */
export async function findOrganisationAccount(db: Db, names: string[], orgId: string): Promise<AccountRow | undefined> {
  if (names.length === 0) return undefined;
  const rows = await db
    .selectFrom('storage_accounts')
    .selectAll()
    .where('name', 'in', names)
    .where('org_id', '=', orgId)
    .execute();
  const owned = names.flatMap((name) => rows.filter((row) => row.name === name));
  return owned.find((row) => row.enabled === 1) ?? owned[0];
}

export async function listAccounts(db: Db, owner: Owner): Promise<Account[]> {
  const rows = await ownedBy(db.selectFrom('storage_accounts').selectAll(), owner)
    .orderBy(byCodePoint(db, 'name'))
    .execute();
  return rows.map(toAccount);
}

export interface NewAccount {
  name: string;
  defaultProvider: string;
  providers: string[];
  directories: string[];
}

/** The new account and its secret, which exists in clear only in this return value. */
export async function insertAccount(
  db: Db,
  orgId: Owner,
  input: NewAccount,
): Promise<{ account: Account; secretAccessKey: string }> {
  const secret = newSecretAccessKey();
  const salt = newSalt();
  const now = Date.now();
  const row: StorageAccountsTable = {
    id: newId(now),
    org_id: orgId,
    name: input.name,
    access_key: newAccessKey(),
    secret_hash: hashAccountSecret(salt, secret),
    secret_salt: salt,
    default_provider: input.defaultProvider,
    providers: JSON.stringify(input.providers),
    directories: JSON.stringify(input.directories),
    enabled: 1,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('storage_accounts').values(row).execute();
  return { account: toAccount(row), secretAccessKey: secret };
}

export interface AccountPatch {
  enabled?: boolean;
  defaultProvider?: string;
  providers?: string[];
  directories?: string[];
}

export async function updateAccount(
  db: Db,
  orgId: Owner,
  name: string,
  patch: AccountPatch,
): Promise<Account | undefined> {
  if (holdsNul(name)) return undefined;
  const set: Partial<StorageAccountsTable> = { updated_at: Date.now() };
  if (patch.enabled !== undefined) set.enabled = patch.enabled ? 1 : 0;
  if (patch.defaultProvider !== undefined) set.default_provider = patch.defaultProvider;
  if (patch.providers !== undefined) set.providers = JSON.stringify(patch.providers);
  if (patch.directories !== undefined) set.directories = JSON.stringify(patch.directories);
  await ownedBy(db.updateTable('storage_accounts').set(set), orgId).where('name', '=', name).execute();
  const row = await findAccountByName(db, name, orgId);
  return row && toAccount(row);
}

/** A new secret for the account; the old one stops working at once. */
export async function rotateAccountSecret(
  db: Db,
  orgId: Owner,
  name: string,
): Promise<{ account: Account; secretAccessKey: string } | undefined> {
  if (holdsNul(name)) return undefined;
  const secret = newSecretAccessKey();
  const salt = newSalt();
  const result = await ownedBy(
    db
      .updateTable('storage_accounts')
      .set({ secret_hash: hashAccountSecret(salt, secret), secret_salt: salt, updated_at: Date.now() }),
    orgId,
  )
    .where('name', '=', name)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return undefined;
  const row = await findAccountByName(db, name, orgId);
  return { account: toAccount(row!), secretAccessKey: secret };
}

export async function findProviders(db: Db, orgId: Owner, names: string[]): Promise<ProviderRow[]> {
  const storable = withoutNul(names);
  if (storable.length === 0) return [];
  return ownedBy(db.selectFrom('storage_providers').selectAll(), orgId).where('name', 'in', storable).execute();
}

export async function listProviders(db: Db, orgId: Owner): Promise<ProviderRow[]> {
  return ownedBy(db.selectFrom('storage_providers').selectAll(), orgId).orderBy(byCodePoint(db, 'name')).execute();
}

export async function insertProvider(db: Db, row: ProviderRow): Promise<void> {
  await db.insertInto('storage_providers').values(row).execute();
}

export async function setProviderEnabled(
  db: Db,
  orgId: Owner,
  name: string,
  enabled: boolean,
): Promise<ProviderRow | undefined> {
  if (holdsNul(name)) return undefined;
  await ownedBy(db.updateTable('storage_providers').set({ enabled: enabled ? 1 : 0, updated_at: Date.now() }), orgId)
    .where('name', '=', name)
    .execute();
  return ownedBy(db.selectFrom('storage_providers').selectAll(), orgId).where('name', '=', name).executeTakeFirst();
}

/** Disabled ones count too: enabling one later must not leave a running server unable to sign its URLs. */
export async function fsProviderExists(db: Db): Promise<boolean> {
  const row = await db.selectFrom('storage_providers').select('id').where('type', '=', 'fs').executeTakeFirst();
  return row !== undefined;
}
