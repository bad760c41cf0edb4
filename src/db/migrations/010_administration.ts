// Administration over HTTP: the audit log of every admin change, invitations (a one-time link that lets a new user
// choose a password), and the organisation's choice of the storage account that signs the editor's videos.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../column-types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('audit_log')
    // Sortable ids (util/ids.ts): newest first is id order, and a cursor is the last id seen.
    .addColumn('id', 'text', (c) => c.primaryKey())
    // Null for the operator's changes to service-wide storage providers and accounts (the CLI without --org).
    .addColumn('org_id', 'text', (c) => c.references('organisations.id').onDelete('cascade'))
    .addColumn('at', t.bigint, (c) => c.notNull())
    // Who: a user (its id and username at the time), an access token, or the operator's CLI.
    .addColumn('actor_kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text')
    .addColumn('address', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text')
    .addColumn('target_name', 'text')
    // JSON of what changed, never a secret.
    .addColumn('details', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_org_id').on('audit_log').columns(['org_id', 'id']).execute();
  await db.schema.createIndex('audit_log_org_at').on('audit_log').columns(['org_id', 'at']).execute();

  await db.schema
    .createTable('invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', t.bigint, (c) => c.notNull())
    .addColumn('redeemed_at', t.bigint)
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invitations_user').on('invitations').column('user_id').execute();

  await db.schema.alterTable('organisations').addColumn('editor_storage_account', 'text').execute();
}
