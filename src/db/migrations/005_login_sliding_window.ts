// Login counters become a sliding window (auth/throttle.ts): each keeps the previous window's failures beside the
// current one's, and the window length it was counted with, so that a sweep run with another LOGIN_WINDOW_SECONDS
// (a CLI on a cron) cannot delete counters that still count for the server.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../column-types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .alterTable('login_failures')
    .addColumn('previous_failures', t.int, (c) => c.notNull().defaultTo(0))
    .execute();
  // 900 s: the default window, which every counter made before this column was counted with unless configured.
  await db.schema
    .alterTable('login_failures')
    .addColumn('window_ms', t.bigint, (c) => c.notNull().defaultTo(900_000))
    .execute();
}
