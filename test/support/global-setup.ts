// One test run's PostgreSQL schemas are dropped when the whole run ends, not by each test file as it finishes:
// Kysely's migrator reads the catalog of every schema in the database, and a schema dropped by another file in
// the middle of that read fails it with "schema … does not exist" (seen about once in ten runs).
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export default function setup(): () => Promise<void> {
  const run = randomBytes(4).toString('hex');
  // Read by test/support/store.ts in the workers, which start after this and inherit the environment.
  process.env.SIGHTLINE_TEST_RUN = run;
  return async () => {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) return;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ nspname: string }>(
        'select nspname from pg_namespace where nspname like $1',
        [`t\\_${run}\\_%`],
      );
      for (const { nspname } of rows) await client.query(`drop schema if exists "${nspname}" cascade`);
    } finally {
      await client.end();
    }
  };
}
