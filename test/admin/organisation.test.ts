// /admin/organisation and /admin/audit over real HTTP, on both dialects: the settings, the editor's storage
// account chosen without a restart, the audit log's pages, roles, and the storage admin routes' audit entries.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { assetNames } from '../../src/recordings/assets-route.js';
import { DIALECTS } from '../support/store.js';
import { adminTests, auditOf, call } from './helpers.js';

const tests = adminTests();

describe.each(DIALECTS)('admin organisation and audit on %s', (dialect) => {
  const it = tests[dialect];

  it('reads and changes the retention settings, audited from → to; refuses bad values naming the field', async ({
    server,
    org,
  }) => {
    const read = await call(server, 'GET', '/admin/organisation', org.sessions.admin);
    expect(read.body.data).toMatchObject({
      id: org.orgId,
      name: org.name,
      retentionDays: 30,
      keepRecordings: false,
      editorStorageAccount: null,
    });
    const changed = await call(server, 'PATCH', '/admin/organisation', org.sessions.owner, {
      retentionDays: 120,
      keepRecordings: true,
    });
    expect([changed.status, changed.body.data.retentionDays, changed.body.data.keepRecordings]).toEqual([
      200,
      120,
      true,
    ]);
    expect((await call(server, 'GET', '/admin/organisation', org.sessions.owner)).body.data).toEqual(changed.body.data);
    for (const [body, field] of [
      [{ retentionDays: 0 }, 'retentionDays'],
      [{ retentionDays: 1.5 }, 'retentionDays'],
      [{ retentionDays: '30' }, 'retentionDays'],
      [{ keepRecordings: 'yes' }, 'keepRecordings'],
      [{ name: 'renamed' }, 'name'],
      [{ editorStorageAccount: 'no-such-account' }, 'editorStorageAccount'],
    ] as const) {
      const r = await call(server, 'PATCH', '/admin/organisation', org.sessions.owner, body);
      expect([body, r.status, r.body.field]).toEqual([body, 400, field]);
    }
    expect((await call(server, 'PATCH', '/admin/organisation', org.sessions.owner, {})).status).toBe(400);
    expect((await call(server, 'GET', '/admin/organisation', org.sessions.owner)).body.data).toEqual(changed.body.data);
    const audit = await auditOf(server, org.sessions.owner);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'organisation.updated',
      details: { retentionDays: { from: 30, to: 120 }, keepRecordings: { from: false, to: true } },
    });
    for (const token of [org.sessions.editor, org.sessions.viewer, org.token]) {
      expect((await call(server, 'GET', '/admin/organisation', token)).status).toBe(403);
      expect((await call(server, 'PATCH', '/admin/organisation', token, { retentionDays: 1 })).status).toBe(403);
      expect((await call(server, 'GET', '/admin/audit', token)).status).toBe(403);
    }
  });

  it("chooses the editor's storage account among the organisation's own; the recording's video is then signed", async ({
    server,
    org,
    other,
  }) => {
    const owner = org.sessions.owner;
    const before = await call(server, 'GET', `/recordings/${org.recording.id}/assets`, org.sessions.viewer);
    expect(before.body.data).toMatchObject({
      assets: null,
      assetsUnavailable: 'storage_not_configured',
      assetsUnavailableReason: 'no_account',
    });
    const provider = await call(server, 'POST', '/api/storage/admin/providers', owner, { name: 'disk', type: 'fs' });
    expect(provider.status).toBe(201);
    const account = await call(server, 'POST', '/api/storage/admin/accounts', owner, {
      name: `editor-${org.orgId}`,
      defaultProvider: 'disk',
    });
    expect(account.status).toBe(201);
    const secret = account.body.data.secretAccessKey;
    // Another organisation's account cannot be chosen: it does not exist for this one.
    const theirs = await call(server, 'POST', '/api/storage/admin/accounts', other.sessions.owner, {
      name: `editor-${other.orgId}`,
      defaultProvider: 'disk',
    });
    expect(theirs.status).toBe(400); // `other` has no provider named disk
    const cross = await call(server, 'PATCH', '/admin/organisation', owner, {
      editorStorageAccount: `editor-${other.orgId}`,
    });
    expect([cross.status, cross.body.code]).toEqual([400, 'unknown_account']);

    const chosen = await call(server, 'PATCH', '/admin/organisation', owner, {
      editorStorageAccount: `editor-${org.orgId}`,
    });
    expect([chosen.status, chosen.body.data.editorStorageAccount]).toEqual([200, `editor-${org.orgId}`]);

    // The fs provider of an organisation lives in the data directory, one folder each; put the video there.
    const folder = fs
      .readdirSync(server.config.dataDir, { recursive: true, withFileTypes: true })
      .find((d) => d.isDirectory() && d.name.includes('disk'));
    expect(folder).toBeDefined();
    const root = path.join(folder!.parentPath, folder!.name);
    const file = path.join(root, ...assetNames(org.recording.mediaKey).video.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'the video bytes');

    const after = await call(server, 'GET', `/recordings/${org.recording.id}/assets`, org.sessions.viewer);
    expect([after.body.data.assetsUnavailable, after.body.data.assetsUnavailableReason]).toEqual([null, null]);
    const video = await fetch(new URL(after.body.data.assets.video, server.url));
    expect([video.status, await video.text()]).toEqual([200, 'the video bytes']);

    // A disabled account: the editor is told so.
    await call(server, 'PATCH', `/api/storage/admin/accounts/editor-${org.orgId}`, owner, { enabled: false });
    const disabled = await call(server, 'GET', `/recordings/${org.recording.id}/assets`, org.sessions.viewer);
    expect([disabled.body.data.assetsUnavailable, disabled.body.data.assetsUnavailableReason]).toEqual([
      'invalid_credentials',
      'account_disabled',
    ]);
    await call(server, 'POST', `/api/storage/admin/accounts/editor-${org.orgId}/rotate`, owner);

    // Every storage change is in the audit log, without the account's secret or the new one.
    const audit = await auditOf(server, owner);
    expect(audit.map((e) => e.action)).toEqual([
      'storage.account.rotated',
      'storage.account.updated',
      'organisation.updated',
      'storage.account.created',
      'storage.provider.created',
    ]);
    expect(audit[1]?.details).toEqual({ enabled: false });
    expect(JSON.stringify(audit)).not.toContain(secret);
    expect(server.logs()).not.toContain(secret);
    // The other organisation's log has none of it.
    expect(await auditOf(server, other.sessions.owner)).toEqual([]);
  });

  it('pages the audit log newest first with a cursor, and refuses a bad limit or cursor', async ({ server, org }) => {
    for (let i = 1; i <= 5; i++)
      expect(
        (await call(server, 'PATCH', '/admin/organisation', org.sessions.owner, { retentionDays: i })).status,
      ).toBe(200);
    const first = await call(server, 'GET', '/admin/audit?limit=2', org.sessions.admin);
    expect(
      first.body.data.entries.map((e: { details: { retentionDays: { to: number } } }) => e.details.retentionDays.to),
    ).toEqual([5, 4]);
    const second = await call(
      server,
      'GET',
      `/admin/audit?limit=2&cursor=${first.body.data.nextCursor}`,
      org.sessions.admin,
    );
    expect(
      second.body.data.entries.map((e: { details: { retentionDays: { to: number } } }) => e.details.retentionDays.to),
    ).toEqual([3, 2]);
    const third = await call(
      server,
      'GET',
      `/admin/audit?limit=2&cursor=${second.body.data.nextCursor}`,
      org.sessions.admin,
    );
    expect(
      third.body.data.entries.map((e: { details: { retentionDays: { to: number } } }) => e.details.retentionDays.to),
    ).toEqual([1]);
    expect(third.body.data.nextCursor).toBeNull();
    for (const q of ['limit=0', 'limit=201', 'limit=x', 'cursor=nope']) {
      const r = await call(server, 'GET', `/admin/audit?${q}`, org.sessions.admin);
      expect([q, r.status, r.body.code]).toEqual([q, 400, 'invalid_field']);
    }
  });

  it("keeps audit entries for the organisation's retention or 90 days, whichever is longer", async ({
    server,
    org,
    other,
  }) => {
    const { sweepExpired } = await import('../../src/retention/sweeper.js');
    await call(server, 'PATCH', '/admin/organisation', org.sessions.owner, { retentionDays: 200 });
    await call(server, 'PATCH', '/admin/organisation', other.sessions.owner, { retentionDays: 10 });
    const day = 86_400_000;
    const count = async (orgId: string) =>
      (await server.store.db.selectFrom('audit_log').select('id').where('org_id', '=', orgId).execute()).length;
    // 100 days on: `other` (10 days → kept 90) loses its entry, `org` (200 days) keeps its.
    await sweepExpired(server.store, { now: Date.now() + 89 * day });
    expect([await count(org.orgId), await count(other.orgId)]).toEqual([1, 1]);
    await sweepExpired(server.store, { now: Date.now() + 100 * day });
    expect([await count(org.orgId), await count(other.orgId)]).toEqual([1, 0]);
    await sweepExpired(server.store, { now: Date.now() + 201 * day });
    expect(await count(org.orgId)).toBe(0);
  });
});
