// /admin/users… and /invitations/{token} over real HTTP, on both dialects: the organisation's people for its
// owners and admins, the last-owner rule, invitations redeemed once, resets that end sessions, and the audit.
import { describe, expect } from 'vitest';
import { DIALECTS } from '../support/store.js';
import { adminTests, auditOf, call, login } from './helpers.js';

const tests = adminTests();
let n = 0;
const uname = (prefix: string) => `${prefix}-${process.pid}-${++n}-${Math.random().toString(36).slice(2, 6)}`;

describe.each(DIALECTS)('admin users on %s', (dialect) => {
  const it = tests[dialect];

  it('lists, creates, reads, changes the role of and deletes a user, each answered { data } and audited', async ({
    server,
    org,
  }) => {
    const owner = org.sessions.owner;
    const list = await call(server, 'GET', '/admin/users', owner);
    expect(list.status).toBe(200);
    expect(list.body.data.map((u: { role: string }) => u.role).sort()).toEqual(['admin', 'editor', 'owner', 'viewer']);
    expect(JSON.stringify(list.body)).not.toMatch(/scrypt|password/);

    const username = uname('colleague');
    const created = await call(server, 'POST', '/admin/users', owner, {
      username,
      role: 'editor',
      password: 'a long password',
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ username, role: 'editor', status: 'active', invitationExpiresAt: null });
    expect(created.body.data.password).toBeUndefined();
    const id = created.body.data.id;
    expect((await login(server, username, 'a long password')).status).toBe(200);

    const read = await call(server, 'GET', `/admin/users/${id}`, org.sessions.admin);
    expect([read.status, read.body.data]).toEqual([200, created.body.data]);

    const patched = await call(server, 'PATCH', `/admin/users/${id}`, org.sessions.admin, { role: 'viewer' });
    expect([patched.status, patched.body.data.role]).toEqual([200, 'viewer']);

    const deleted = await call(server, 'DELETE', `/admin/users/${id}`, owner);
    expect([deleted.status, deleted.body.data]).toEqual([200, { id, username, deleted: true }]);
    expect((await call(server, 'GET', `/admin/users/${id}`, owner)).status).toBe(404);
    expect((await login(server, username, 'a long password')).status).toBe(401);

    const audit = await auditOf(server, owner);
    const mine = audit.filter((e) => e.target.id === id).map((e) => [e.action, e.actor.kind, e.details]);
    expect(mine).toEqual([
      ['user.deleted', 'user', { role: 'viewer' }],
      ['user.role_changed', 'user', { from: 'editor', to: 'viewer' }],
      ['user.created', 'user', { role: 'editor' }],
    ]);
    for (const e of audit.filter((x) => x.target.id === id)) {
      expect(e.address).toBe('127.0.0.1');
      expect(Date.parse(e.at)).toBeGreaterThan(Date.now() - 60_000);
      expect(e.actor.name).toMatch(/^(owner|admin)-/);
    }
  });

  it('refuses editors, viewers and access tokens (403) and a missing token (401), changing nothing', async ({
    server,
    org,
  }) => {
    const before = (await call(server, 'GET', '/admin/users', org.sessions.owner)).body.data;
    for (const token of [org.sessions.editor, org.sessions.viewer, org.token]) {
      for (const [method, path, body] of [
        ['GET', '/admin/users', undefined],
        ['POST', '/admin/users', { username: uname('x'), role: 'viewer', password: 'long enough pw' }],
        ['GET', `/admin/users/${before[0].id}`, undefined],
        ['PATCH', `/admin/users/${before[0].id}`, { role: 'viewer' }],
        ['DELETE', `/admin/users/${before[0].id}`, undefined],
        ['POST', `/admin/users/${before[0].id}/password`, { password: 'another password' }],
      ] as const) {
        const r = await call(server, method, path, token, body);
        expect([method, path, r.status, r.body.code, r.headers.get('content-type')]).toEqual([
          method,
          path,
          403,
          'forbidden',
          expect.stringMatching(/^application\/problem\+json/),
        ]);
      }
    }
    const anonymous = await call(server, 'GET', '/admin/users');
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 'unauthorized']);
    expect((await call(server, 'GET', '/admin/users', org.sessions.owner)).body.data).toEqual(before);
  });

  it("answers 404 for another organisation's user, whatever the verb, and leaves it alone", async ({
    server,
    org,
    other,
  }) => {
    const theirs = (await call(server, 'GET', '/admin/users', other.sessions.owner)).body.data;
    const victim = theirs.find((u: { role: string }) => u.role === 'viewer');
    for (const [method, path, body] of [
      ['GET', `/admin/users/${victim.id}`, undefined],
      ['PATCH', `/admin/users/${victim.id}`, { role: 'admin' }],
      ['DELETE', `/admin/users/${victim.id}`, undefined],
      ['POST', `/admin/users/${victim.id}/password`, { password: 'taken over now' }],
    ] as const) {
      const r = await call(server, method, path, org.sessions.owner, body);
      expect([method, r.status, r.body.code]).toEqual([method, 404, 'user_not_found']);
    }
    expect((await call(server, 'GET', `/admin/users/${victim.id}`, other.sessions.owner)).body.data).toEqual(victim);
    const mine = (await call(server, 'GET', '/admin/users', org.sessions.owner)).body.data;
    expect(mine.map((u: { id: string }) => u.id)).not.toContain(victim.id);
  });

  it('keeps the last owner: neither demoted nor deleted (409 last_owner), until another owner exists', async ({
    server,
    org,
  }) => {
    const users = (await call(server, 'GET', '/admin/users', org.sessions.owner)).body.data;
    const owner = users.find((u: { role: string }) => u.role === 'owner');
    const demote = await call(server, 'PATCH', `/admin/users/${owner.id}`, org.sessions.owner, { role: 'admin' });
    expect([demote.status, demote.body.code, demote.headers.get('content-type')]).toEqual([
      409,
      'last_owner',
      expect.stringMatching(/^application\/problem\+json/),
    ]);
    expect(demote.body.detail).toMatch(/last owner/);
    const remove = await call(server, 'DELETE', `/admin/users/${owner.id}`, org.sessions.owner);
    expect([remove.status, remove.body.code]).toEqual([409, 'last_owner']);
    expect((await call(server, 'GET', `/admin/users/${owner.id}`, org.sessions.owner)).body.data.role).toBe('owner');

    // A second owner: then the first may go.
    const second = await call(server, 'POST', '/admin/users', org.sessions.owner, {
      username: uname('heir'),
      role: 'owner',
      password: 'heir password',
    });
    expect(second.status).toBe(201);
    const gone = await call(server, 'DELETE', `/admin/users/${owner.id}`, org.sessions.owner);
    expect(gone.status).toBe(200);
    // The heir is now the last one, even for itself.
    const heir = (await login(server, second.body.data.username, 'heir password')).body.data.token;
    const heirDemoted = await call(server, 'PATCH', `/admin/users/${second.body.data.id}`, heir, { role: 'admin' });
    expect([heirDemoted.status, heirDemoted.body.code]).toEqual([409, 'last_owner']);
  });

  it('leaves the owner role to owners: an admin cannot make, demote, reset or delete an owner (403)', async ({
    server,
    org,
  }) => {
    const users = (await call(server, 'GET', '/admin/users', org.sessions.owner)).body.data;
    const owner = users.find((u: { role: string }) => u.role === 'owner');
    const viewer = users.find((u: { role: string }) => u.role === 'viewer');
    const admin = org.sessions.admin;
    const attempts = [
      await call(server, 'POST', '/admin/users', admin, {
        username: uname('o'),
        role: 'owner',
        password: 'pw pw pw pw',
      }),
      await call(server, 'PATCH', `/admin/users/${viewer.id}`, admin, { role: 'owner' }),
      await call(server, 'PATCH', `/admin/users/${owner.id}`, admin, { role: 'viewer' }),
      await call(server, 'POST', `/admin/users/${owner.id}/password`, admin, { password: 'taken over now' }),
      await call(server, 'DELETE', `/admin/users/${owner.id}`, admin),
    ];
    expect(attempts.map((a) => [a.status, a.body.code])).toEqual(Array(5).fill([403, 'forbidden']));
    expect((await call(server, 'GET', `/admin/users/${viewer.id}`, admin)).body.data.role).toBe('viewer');
  });

  it('refuses bad input with invalid_field naming the field, and a taken username with 409', async ({
    server,
    org,
    other,
  }) => {
    const owner = org.sessions.owner;
    const takenName = (await call(server, 'GET', '/admin/users', other.sessions.owner)).body.data[0].username;
    const cases: Array<[unknown, number, string, string?]> = [
      [{ username: uname('a'), role: 'chief', password: 'long enough' }, 400, 'invalid_field', 'role'],
      [{ username: uname('a'), role: 'viewer', password: 'short' }, 400, 'invalid_field', 'password'],
      [{ username: uname('a'), role: 'viewer', password: '         ' }, 400, 'invalid_field', 'password'],
      [{ username: '', role: 'viewer', password: 'long enough' }, 400, 'invalid_field', 'username'],
      [{ username: 'a\nb', role: 'viewer', password: 'long enough' }, 400, 'invalid_field', 'username'],
      [{ username: uname('a'), role: 'viewer' }, 400, 'invalid_field', 'password'],
      [{ username: uname('a'), role: 'viewer', password: 'long enough', extra: 1 }, 400, 'invalid_field', 'extra'],
      [
        { username: uname('a'), role: 'viewer', invite: true, password: 'long enough' },
        400,
        'invalid_field',
        'password',
      ],
      [[1, 2], 400, 'invalid_body'],
      [{ username: takenName, role: 'viewer', password: 'long enough' }, 409, 'username_taken'],
    ];
    const before = (await call(server, 'GET', '/admin/users', owner)).body.data;
    for (const [body, status, code, field] of cases) {
      const r = await call(server, 'POST', '/admin/users', owner, body);
      expect([body, r.status, r.body.code, r.body.field]).toEqual([body, status, code, field]);
    }
    const malformed = await fetch(`${server.url}/admin/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
      body: '{"username":',
    });
    expect(malformed.status).toBe(400);
    expect((await call(server, 'GET', '/admin/users', owner)).body.data).toEqual(before);
  });

  it('resets a password: the user’s sessions end, the new password works, the old one not; audited without it', async ({
    server,
    org,
  }) => {
    const users = (await call(server, 'GET', '/admin/users', org.sessions.owner)).body.data;
    const editor = users.find((u: { role: string }) => u.role === 'editor');
    expect((await call(server, 'GET', '/recordings', org.sessions.editor)).status).toBe(200);
    const reset = await call(server, 'POST', `/admin/users/${editor.id}/password`, org.sessions.admin, {
      password: 'brand new secret pw',
    });
    expect([reset.status, reset.body.data]).toEqual([
      200,
      { id: editor.id, username: editor.username, sessionsEnded: 1 },
    ]);
    expect((await call(server, 'GET', '/recordings', org.sessions.editor)).status).toBe(401);
    expect((await login(server, editor.username, 'correct horse battery')).status).toBe(401);
    expect((await login(server, editor.username, 'brand new secret pw')).status).toBe(200);
    const short = await call(server, 'POST', `/admin/users/${editor.id}/password`, org.sessions.admin, {
      password: 'x',
    });
    expect([short.status, short.body.field]).toEqual([400, 'password']);
    const audit = await auditOf(server, org.sessions.owner);
    expect(audit[0]).toMatchObject({
      action: 'user.password_reset',
      target: { id: editor.id },
      details: { sessionsEnded: 1 },
    });
    expect(JSON.stringify(audit)).not.toContain('brand new secret pw');
    expect(server.logs()).not.toContain('brand new secret pw');
  });

  it('invites a user: the link is shown once, redeemed once by choosing a password, then spent', async ({
    server,
    org,
  }) => {
    const username = uname('invitee');
    const made = await call(server, 'POST', '/admin/users', org.sessions.admin, {
      username,
      role: 'viewer',
      invite: true,
    });
    expect(made.status).toBe(201);
    expect(made.headers.get('cache-control')).toBe('no-store');
    const { token, expiresAt } = made.body.data.invitation;
    expect(token).toMatch(/^sli_[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    expect(made.body.data.status).toBe('invited');

    // Never again: not in the list, not in the user, not in the audit, not in the log; only its hash is stored.
    const listed = await call(server, 'GET', '/admin/users', org.sessions.owner);
    expect(listed.body.data.find((u: { username: string }) => u.username === username)).toMatchObject({
      status: 'invited',
      invitationExpiresAt: expiresAt,
    });
    expect(JSON.stringify(listed.body)).not.toContain(token);
    // An invited user cannot log in with anything before redeeming.
    expect((await login(server, username, 'whatever it is')).status).toBe(401);

    const shown = await call(server, 'GET', `/invitations/${token}`);
    expect([shown.status, shown.body.data]).toEqual([
      200,
      { username, role: 'viewer', organisation: { id: org.orgId, name: org.name }, expiresAt },
    ]);
    const tooShort = await call(server, 'POST', `/invitations/${token}`, undefined, { password: 'short' });
    expect([tooShort.status, tooShort.body.field]).toEqual([400, 'password']);
    const redeemed = await call(server, 'POST', `/invitations/${token}`, undefined, { password: 'my own password' });
    expect([redeemed.status, redeemed.body.data.username]).toEqual([200, username]);
    expect((await login(server, username, 'my own password')).status).toBe(200);

    const again = await call(server, 'POST', `/invitations/${token}`, undefined, { password: 'hijacked password' });
    expect([again.status, again.body.code]).toEqual([410, 'invitation_used']);
    expect((await call(server, 'GET', `/invitations/${token}`)).body.code).toBe('invitation_used');
    expect((await login(server, username, 'hijacked password')).status).toBe(401);
    const unknown = await call(server, 'POST', `/invitations/sli_${'A'.repeat(43)}`, undefined, {
      password: 'long enough',
    });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'invitation_not_found']);

    const after = (await call(server, 'GET', '/admin/users', org.sessions.owner)).body.data;
    expect(after.find((u: { username: string }) => u.username === username).status).toBe('active');
    const audit = await auditOf(server, org.sessions.owner);
    expect(audit.filter((e) => e.target.name === username).map((e) => e.action)).toEqual([
      'invitation.redeemed',
      'user.invited',
    ]);
    const stored = await server.store.db.selectFrom('invitations').select('token_hash').execute();
    expect(JSON.stringify(stored)).not.toContain(token);
    for (const secret of [token, 'my own password', 'hijacked password']) {
      expect(JSON.stringify(audit)).not.toContain(secret);
      expect(server.logs()).not.toContain(secret);
    }
  });

  it('refuses an expired invitation with 410 invitation_expired', async ({ server, org }) => {
    const username = uname('late');
    const made = await call(server, 'POST', '/admin/users', org.sessions.owner, {
      username,
      role: 'editor',
      invite: true,
      expiresIn: '1d',
    });
    const { token } = made.body.data.invitation;
    await server.store.db
      .updateTable('invitations')
      .set({ expires_at: Date.now() - 1 })
      .execute();
    const r = await call(server, 'POST', `/invitations/${token}`, undefined, { password: 'too late now' });
    expect([r.status, r.body.code]).toEqual([410, 'invitation_expired']);
    const tooLong = await call(server, 'POST', '/admin/users', org.sessions.owner, {
      username: uname('x'),
      role: 'editor',
      invite: true,
      expiresIn: '31d',
    });
    expect([tooLong.status, tooLong.body.field]).toEqual([400, 'expiresIn']);
  });
});
