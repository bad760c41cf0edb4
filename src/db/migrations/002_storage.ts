// Storage providers and the accounts that sign URLs for them. The storage service authenticates by account
// alone, so both are service-wide (org_id NULL, made by the CLI) or, when made through the admin HTTP API,
// owned by one organisation (org_id set). An account binds only providers of its own owner.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../column-types.js';

export async function up(db: Kysely<any>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('storage_providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.references('organisations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    // Non-secret settings (bucket, region, root…) as JSON; credentials live only in `secret`, encrypted.
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('secret', 'text')
    .addColumn('enabled', t.int, (c) => c.notNull())
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addColumn('updated_at', t.bigint, (c) => c.notNull())
    .execute();
  // Names are unique per owner; NULLs are distinct in a plain unique constraint, hence the expression.
  await db.schema
    .createIndex('storage_providers_owner_name')
    .on('storage_providers')
    .unique()
    .expression(sql`coalesce(org_id, '')`)
    .column('name')
    .execute();

  await db.schema
    .createTable('storage_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.references('organisations.id').onDelete('cascade'))
    // Globally unique: a service-signed URL names its account by `a` alone.
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('access_key', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('secret_salt', 'text', (c) => c.notNull())
    .addColumn('default_provider', 'text', (c) => c.notNull())
    /** JSON array of provider names, the default included. */
    .addColumn('providers', 'text', (c) => c.notNull())
    /** JSON array: ["*"] or allowed top-level directories. */
    .addColumn('directories', 'text', (c) => c.notNull())
    .addColumn('enabled', t.int, (c) => c.notNull())
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addColumn('updated_at', t.bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('storage_accounts_org').on('storage_accounts').column('org_id').execute();
}
