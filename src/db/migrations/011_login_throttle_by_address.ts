// Login throttling by (username, client address) and by address, with a lock that doubles each time a key reaches
// its limit (auth/throttle.ts). `lockouts` remembers how many times a key was locked, `locked_until` when its current
// lock ends (0: none). Counters of the old per-username kind (keyed by the lower-cased name) refused the right
// password from anywhere; they count nothing any more and go.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../column-types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .alterTable('login_failures')
    .addColumn('locked_until', t.bigint, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('login_failures')
    .addColumn('lockouts', t.int, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.deleteFrom('login_failures').where('key', 'like', 'user:%').execute();
}
