import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { extendEach, serverTests } from '../support/fixtures.js';
import { insertProvider } from '../../src/storage/queries.js';
import { newProviderRow } from '../../src/storage/registry.js';
import { runCli } from '../support/cli.js';
import { DIALECTS } from '../support/store.js';
import { bearer, getJson } from '../support/server.js';

// `bucket` is `org`'s fs provider 'disk' over a folder of recordings, made before the file's first test.
const tests = extendEach(serverTests(), (test) =>
  test.extend('bucket', { scope: 'file', auto: true }, async ({ server, org }) => {
    const root = path.join(server.testStore.location.dataDir, 'bucket');
    // 1000 recordings over 10 user directories, each with the assets the pipeline writes beside it.
    for (let i = 0; i < 1000; i++) {
      const dir = path.join(root, `user${i % 10}`);
      fs.mkdirSync(dir, { recursive: true });
      const base = `${1_700_000_000 + i}_6-967003_cam${i % 4}_24_769`;
      fs.writeFileSync(path.join(dir, `${base}.mp4`), 'x');
      if (i % 3 === 0) {
        fs.writeFileSync(path.join(dir, `${base}_redacted.mp4`), 'x');
        fs.writeFileSync(path.join(dir, `${base}_thumbnail.jpg`), 'x');
      }
    }
    // A file without a time in its name falls back to its modification time.
    fs.writeFileSync(path.join(root, 'user0', 'untimed.mp4'), 'x');
    const when = new Date('2024-01-02T03:04:05Z');
    fs.utimesSync(path.join(root, 'user0', 'untimed.mp4'), when, when);
    await insertProvider(
      server.store.db,
      newProviderRow(server.config, org.orgId, 'disk', 'fs', { settings: { root } }),
    );
    return root;
  }),
);

describe.each(DIALECTS)('admin recording import on %s', (dialect) => {
  const it = tests[dialect];

  it('registers every .mp4 but not the redacted copies, and is idempotent', async ({ server, org }) => {
    const first = await runCli(
      ['admin', 'recording', 'import', '--org', org.name, '--provider', 'disk', '--json'],
      server.testStore.location,
    );
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ found: 1001, created: 1001, existing: 0, failed: 0 });
    const count = await server.store.db
      .selectFrom('recordings')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('org_id', '=', org.orgId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1002); // with the seeded recording
    const one = await getJson(
      `${server.url}/recordings/${encodeURIComponent('user7/1700000007_6-967003_cam3_24_769.mp4')}`,
      bearer(org.token),
    );
    expect(one.body.data).toMatchObject({ startTimestamp: 1_700_000_007, provider: 'disk' });
    const untimed = await getJson(`${server.url}/recordings/user0/untimed.mp4`, bearer(org.token));
    expect(untimed.body.data.startTimestamp).toBe(Math.floor(Date.parse('2024-01-02T03:04:05Z') / 1000));
    expect(
      (
        await getJson(
          `${server.url}/recordings/${encodeURIComponent('user0/1700000000_6-967003_cam0_24_769_redacted.mp4')}`,
          bearer(org.token),
        )
      ).status,
    ).toBe(404);

    const again = await runCli(
      ['admin', 'recording', 'import', '--org', org.name, '--provider', 'disk', '--prefix', 'user3'],
      server.testStore.location,
    );
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/100 recording files, 0 registered, 100 already registered, 0 failed/);
    // 1001 files registered one by one: 2 s on SQLite, past 20 s on PostgreSQL on a machine shared six ways.
  }, 40_000);

  it('imports from a service-wide provider (created without --org) too', async ({ server, org }) => {
    const shared = path.join(server.testStore.location.dataDir, 'shared');
    fs.mkdirSync(path.join(shared, 'cams'), { recursive: true });
    fs.writeFileSync(path.join(shared, 'cams', '1700000000_shared.mp4'), 'x');
    await insertProvider(
      server.store.db,
      newProviderRow(server.config, null, 'common', 'fs', { settings: { root: shared } }),
    );
    const res = await runCli(
      ['admin', 'recording', 'import', '--org', org.name, '--provider', 'common', '--json'],
      server.testStore.location,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ found: 1, created: 1 });
    expect(
      (await getJson(`${server.url}/recordings/cams/1700000000_shared.mp4`, bearer(org.token))).body.data,
    ).toMatchObject({ provider: 'common' });
  });

  it('fails clearly for an unknown provider', async ({ server, org }) => {
    const res = await runCli(
      ['admin', 'recording', 'import', '--org', org.name, '--provider', 'nope'],
      server.testStore.location,
    );
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/no storage provider named "nope"/);
  });
});
