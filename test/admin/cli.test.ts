// The CLI's admin listings and the operations it shares with the admin HTTP API, on both dialects: `admin org
// list`, lists without --org naming each row's organisation, invitations, the last-owner rule, the audit entries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../../src/admin/audit.js';
import { runCli } from '../support/cli.js';
import { postJson, serveLocation } from '../support/server.js';
import { DIALECTS, createTestStore, type TestStore } from '../support/store.js';
import { STORAGE_ENV } from '../storage/helpers.js';

describe.each(DIALECTS)('admin CLI listings and shared operations on %s', (dialect) => {
  let ts: TestStore;
  const cli = (...args: string[]) => runCli(args, ts.location, STORAGE_ENV);
  const json = async (...args: string[]) => {
    const r = await cli(...args, '--json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    return JSON.parse(r.stdout);
  };

  beforeAll(async () => {
    ts = await createTestStore(dialect);
    for (const org of ['alpha', 'beta']) {
      await json('admin', 'org', 'create', '--name', org);
      await json(
        'admin',
        'user',
        'create',
        '--org',
        org,
        '--username',
        `${org}-boss`,
        '--role',
        'owner',
        '--password',
        'long password',
      );
      await json('admin', 'token', 'create', '--org', org, '--name', `${org}-pipeline`);
      await json(
        'admin',
        'provider',
        'create',
        '--org',
        org,
        '--name',
        'disk',
        '--type',
        'fs',
        '--root',
        `${ts.location.dataDir}/${org}`,
      );
      await json('admin', 'account', 'create', '--org', org, '--name', `${org}-web`, '--provider', 'disk');
    }
  });
  afterAll(async () => {
    await ts.destroy();
  });

  it('lists the organisations with their settings and counts', async () => {
    const { organisations } = await json('admin', 'org', 'list');
    expect(
      organisations.map((o: { name: string; users: number; retentionDays: number }) => [
        o.name,
        o.users,
        o.retentionDays,
      ]),
    ).toEqual([
      ['alpha', 1, 30],
      ['beta', 1, 30],
    ]);
    expect((await cli('admin', 'org', 'list')).stdout).toMatch(
      /^alpha {2}\(id \w+; retention 30 days; 1 user, 0 recordings\)$/m,
    );
  });

  it("lists every organisation's users, tokens, providers and accounts without --org, each with its organisation", async () => {
    const pairs = (rows: Array<{ organisation: string | null; name?: string; username?: string }>) =>
      rows.map((r) => [r.organisation, r.name ?? r.username]);
    expect(pairs((await json('admin', 'user', 'list')).users)).toEqual([
      ['alpha', 'alpha-boss'],
      ['beta', 'beta-boss'],
    ]);
    const tokens = (await json('admin', 'token', 'list')).tokens;
    expect(pairs(tokens)).toEqual([
      ['alpha', 'alpha-pipeline'],
      ['beta', 'beta-pipeline'],
    ]);
    expect(JSON.stringify(tokens)).not.toMatch(/sla_/);
    expect(pairs((await json('admin', 'provider', 'list')).providers)).toEqual([
      ['alpha', 'disk'],
      ['beta', 'disk'],
    ]);
    expect(pairs((await json('admin', 'account', 'list')).accounts)).toEqual([
      ['alpha', 'alpha-web'],
      ['beta', 'beta-web'],
    ]);
    expect((await cli('admin', 'provider', 'list')).stdout).toMatch(/^beta\tdisk\tfs\tenabled/m);
    expect((await cli('admin', 'user', 'list')).stdout).toMatch(/^beta {2}\w+ {2}beta-boss {2}owner/m);
    // With --org, that organisation's only, as before.
    expect(pairs((await json('admin', 'account', 'list', '--org', 'beta')).accounts)).toEqual([
      [undefined, 'beta-web'],
    ]);
  });

  it('invites a user whose invitation a running server redeems once', async () => {
    const invited = await json(
      'admin',
      'user',
      'invite',
      '--org',
      'alpha',
      '--username',
      'newcomer',
      '--role',
      'editor',
    );
    expect(invited.invitation.token).toMatch(/^sli_/);
    const server = await serveLocation(ts.location, STORAGE_ENV);
    try {
      const url = `${server.url}/invitations/${invited.invitation.token}`;
      expect((await postJson(url, { password: 'chosen password' })).status).toBe(200);
      expect((await postJson(url, { password: 'chosen password' })).status).toBe(410);
      expect(
        (await postJson(`${server.url}/login`, { username: 'newcomer', password: 'chosen password' })).status,
      ).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('changes the settings with admin org set, as PATCH /admin/organisation does', async () => {
    const set = await json(
      'admin',
      'org',
      'set',
      '--org',
      'alpha',
      '--retention-days',
      '60',
      '--keep-recordings',
      '--editor-storage-account',
      'alpha-web',
    );
    expect(set).toMatchObject({
      name: 'alpha',
      retentionDays: 60,
      keepRecordings: true,
      editorStorageAccount: 'alpha-web',
    });
    const other = await cli('admin', 'org', 'set', '--org', 'alpha', '--editor-storage-account', 'beta-web');
    expect([other.code, other.stderr]).toEqual([1, expect.stringMatching(/no storage account named "beta-web"/)]);
    const zero = await cli('admin', 'org', 'set', '--org', 'alpha', '--retention-days', '0');
    expect(zero.code).toBe(2);
    const back = await json(
      'admin',
      'org',
      'set',
      '--org',
      'alpha',
      '--keep-recordings=false',
      '--editor-storage-account',
      '-',
    );
    expect(back).toMatchObject({ retentionDays: 60, keepRecordings: false, editorStorageAccount: null });
    expect((await cli('admin', 'org', 'set', '--org', 'alpha')).code).toBe(2);
  });

  it('keeps the last owner at the CLI too, and audits its changes as the operator', async () => {
    const refused = await cli(
      'admin',
      'user',
      'set-role',
      '--org',
      'beta',
      '--username',
      'beta-boss',
      '--role',
      'admin',
    );
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringMatching(/last owner/)]);
    const beta = (await json('admin', 'org', 'list')).organisations.find((o: { name: string }) => o.name === 'beta');
    const { entries } = await listAudit(ts.store.db, beta.id, {});
    expect(entries.map((e) => [e.action, e.actor.kind, e.address])).toEqual([
      ['storage.account.created', 'cli', null],
      ['storage.provider.created', 'cli', null],
      ['token.created', 'cli', null],
      ['user.created', 'cli', null],
      ['organisation.created', 'cli', null],
    ]);
    expect(entries[0]!.actor.name).toMatch(/^cli/);
    expect(JSON.stringify(entries)).not.toMatch(/sla_|long password/);
  });
});
