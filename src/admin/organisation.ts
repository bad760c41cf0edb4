// The organisation's settings, one implementation for the admin HTTP API and the CLI: retention, whether
// recordings outlive their runs, and which storage account signs the editor's videos.
import type { Kysely } from 'kysely';
import { byCodePoint } from '../db/code-point-order.js';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/problem.js';
import type { Actor } from './actor.js';
import { recordAudit } from './audit.js';
import { checkMembers, checkRetentionDays, fieldError } from './validate.js';

type Db = Kysely<Database>;

export interface OrganisationSettings {
  id: string;
  name: string;
  retentionDays: number;
  keepRecordings: boolean;
  /** The organisation's account for the editor's asset URLs; null: the server's EDITOR_STORAGE_ACCOUNT decides. */
  editorStorageAccount: string | null;
  createdAt: string;
}

type OrgRow = {
  id: string;
  name: string;
  retention_days: number;
  keep_recordings: number;
  editor_storage_account: string | null;
  created_at: number;
};

const view = (r: OrgRow): OrganisationSettings => ({
  id: r.id,
  name: r.name,
  retentionDays: r.retention_days,
  keepRecordings: r.keep_recordings === 1,
  editorStorageAccount: r.editor_storage_account,
  createdAt: new Date(Number(r.created_at)).toISOString(),
});

export async function getOrganisation(db: Db, orgId: string): Promise<OrganisationSettings> {
  const row = await db.selectFrom('organisations').selectAll().where('id', '=', orgId).executeTakeFirst();
  if (!row) throw new ApiError(404, 'organisation_not_found', 'No such organisation');
  return view(row);
}

/** Every organisation by name, with how many users, tokens and recordings it has (the CLI's `admin org list`). */
export async function listOrganisations(db: Db) {
  const rows = await db
    .selectFrom('organisations as o')
    .selectAll('o')
    .select((eb) => [
      eb.selectFrom('users').select(eb.fn.countAll<number>().as('n')).whereRef('users.org_id', '=', 'o.id').as('users'),
      eb
        .selectFrom('recordings')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('recordings.org_id', '=', 'o.id')
        .as('recordings'),
    ])
    .orderBy(byCodePoint(db, 'o.name'))
    .execute();
  return rows.map((r) => ({ ...view(r), users: Number(r.users), recordings: Number(r.recordings) }));
}

export const ORGANISATION_FIELDS = ['retentionDays', 'keepRecordings', 'editorStorageAccount'] as const;

export async function updateOrganisation(
  db: Db,
  orgId: string,
  actor: Actor,
  patch: Record<string, unknown>,
): Promise<OrganisationSettings> {
  checkMembers(patch, ORGANISATION_FIELDS);
  if (Object.keys(patch).length === 0)
    throw new ApiError(400, 'invalid_field', `Nothing to change: send one of ${ORGANISATION_FIELDS.join(', ')}`);
  const set: Partial<{ retention_days: number; keep_recordings: number; editor_storage_account: string | null }> = {};
  if (patch.retentionDays !== undefined) set.retention_days = checkRetentionDays(patch.retentionDays);
  if (patch.keepRecordings !== undefined) {
    if (typeof patch.keepRecordings !== 'boolean') throw fieldError('keepRecordings', 'must be true or false');
    set.keep_recordings = patch.keepRecordings ? 1 : 0;
  }
  const account = patch.editorStorageAccount;
  if (account !== undefined) {
    if (account !== null && (typeof account !== 'string' || account === ''))
      throw fieldError('editorStorageAccount', 'must name a storage account of the organisation, or be null');
    set.editor_storage_account = account;
  }
  return db.transaction().execute(async (trx) => {
    const before = await getOrganisation(trx, orgId);
    if (typeof account === 'string') {
      // Only an account of this organisation signs its recordings' keys (storage/asset-signer.ts).
      const found = await trx
        .selectFrom('storage_accounts')
        .select(['name', 'enabled'])
        .where('name', '=', account)
        .where('org_id', '=', orgId)
        .executeTakeFirst();
      if (!found)
        throw new ApiError(
          400,
          'unknown_account',
          `The organisation has no storage account named "${account}": create one under storage accounts first`,
          { field: 'editorStorageAccount' },
        );
    }
    await trx.updateTable('organisations').set(set).where('id', '=', orgId).execute();
    const after = await getOrganisation(trx, orgId);
    const changes: Record<string, unknown> = {};
    for (const field of ORGANISATION_FIELDS) {
      if (before[field] !== after[field]) changes[field] = { from: before[field], to: after[field] };
    }
    if (Object.keys(changes).length > 0)
      await recordAudit(
        trx,
        orgId,
        actor,
        'organisation.updated',
        { type: 'organisation', id: orgId, name: after.name },
        changes,
      );
    return after;
  });
}
