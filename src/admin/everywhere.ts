// Listings across every organisation, for the operator's CLI (`admin … list` without --org): each row names its
// organisation (null for the service-wide providers and accounts). Never a secret or credential.
import type { Kysely } from 'kysely';
import { byCodePoint } from '../db/code-point-order.js';
import type { Database } from '../db/schema.js';
import { accountView } from '../storage/admin.js';
import { toAccount } from '../storage/queries.js';
import { providerView } from '../storage/registry.js';
import { listOrgTokens } from './tokens.js';
import { listOrgUsers } from './users.js';

type Db = Kysely<Database>;

async function organisations(db: Db) {
  return db.selectFrom('organisations').select(['id', 'name']).orderBy(byCodePoint(db, 'name')).execute();
}

export async function usersEverywhere(db: Db) {
  const out = [];
  for (const org of await organisations(db))
    for (const user of await listOrgUsers(db, org.id)) out.push({ organisation: org.name, ...user });
  return out;
}

export async function tokensEverywhere(db: Db) {
  const out = [];
  for (const org of await organisations(db))
    for (const token of await listOrgTokens(db, org.id)) out.push({ organisation: org.name, ...token });
  return out;
}

/** Service-wide ones first (organisation null), then by organisation and name. */
export async function providersEverywhere(db: Db) {
  const rows = await db
    .selectFrom('storage_providers as p')
    .leftJoin('organisations as o', 'o.id', 'p.org_id')
    .selectAll('p')
    .select('o.name as org_name')
    .execute();
  return rows
    .map((r) => ({ organisation: r.org_name, ...providerView(r) }))
    .sort((a, b) => order(a.organisation, b.organisation) || order(a.name, b.name));
}

export async function accountsEverywhere(db: Db) {
  const rows = await db
    .selectFrom('storage_accounts as a')
    .leftJoin('organisations as o', 'o.id', 'a.org_id')
    .selectAll('a')
    .select('o.name as org_name')
    .execute();
  return rows
    .map((r) => ({ organisation: r.org_name, ...accountView(toAccount(r)) }))
    .sort((a, b) => order(a.organisation, b.organisation) || order(a.name, b.name));
}

/** Null first, then code point order (as the per-organisation listings sort). */
function order(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}
