// Who a change of a run is shown as made by (spec §9 editedBy): a person signed in, by username; an application
// token makes no person's change.
import type { Kysely } from 'kysely';
import type { Principal } from '../auth/queries.js';
import type { Database } from '../db/schema.js';

/** The session user's username (as it is at the time of the change), or null for an access token. */
export async function editorOf(db: Kysely<Database>, principal: Principal): Promise<string | null> {
  if (principal.kind !== 'session' || principal.userId === undefined) return null;
  const user = await db
    .selectFrom('users')
    .select('username')
    .where('id', '=', principal.userId)
    .where('org_id', '=', principal.orgId)
    .executeTakeFirst();
  return user?.username ?? null;
}
