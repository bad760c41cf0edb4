// Admin changes to one organisation run one at a time: the last-owner rule reads the owners and then changes one,
// and two demotions at once must not each see the other owner still there.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Locks the organisation's row for the rest of the transaction (PostgreSQL's row lock; on SQLite the write lock,
 * taken before anything is read). False when there is no such organisation.
 */
export async function lockOrganisation(trx: Kysely<Database>, orgId: string): Promise<boolean> {
  const r = await trx
    .updateTable('organisations')
    .set({ retention_days: sql`retention_days` })
    .where('id', '=', orgId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
