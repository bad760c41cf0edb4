// /admin/tokens over real HTTP, on both dialects: access tokens listed without secrets, created with the secret
// shown once, revoked at once; roles, scoping and the audit.
import { describe, expect } from 'vitest';
import { DIALECTS } from '../support/store.js';
import { adminTests, auditOf, call } from './helpers.js';

const tests = adminTests();

describe.each(DIALECTS)('admin tokens on %s', (dialect) => {
  const it = tests[dialect];

  it('creates a token whose secret is shown once and works, lists it without it, and revokes it at once', async ({
    server,
    org,
  }) => {
    const made = await call(server, 'POST', '/admin/tokens', org.sessions.admin, {
      name: 'pipeline',
      expiresIn: '90d',
    });
    expect(made.status).toBe(201);
    expect(made.headers.get('cache-control')).toBe('no-store');
    const { id, token, expiresAt } = made.body.data;
    expect(token).toMatch(/^sla_/);
    expect(made.body.data).toMatchObject({ name: 'pipeline', role: 'application', status: 'active', revokedAt: null });
    expect(Math.abs(Date.parse(expiresAt) - (Date.now() + 90 * 86_400_000))).toBeLessThan(60_000);
    // The token works for what an application does.
    expect((await call(server, 'GET', '/recordings', token)).status).toBe(200);
    // …and for nothing administrative.
    expect((await call(server, 'GET', '/admin/tokens', token)).status).toBe(403);

    const list = await call(server, 'GET', '/admin/tokens', org.sessions.owner);
    expect(list.status).toBe(200);
    const listed = list.body.data.find((t: { id: string }) => t.id === id);
    expect(listed).toEqual({ ...made.body.data, token: undefined });
    expect(JSON.stringify(list.body)).not.toContain(token);
    expect(JSON.stringify(list.body)).not.toContain(org.token);

    const revoked = await call(server, 'DELETE', `/admin/tokens/${id}`, org.sessions.owner);
    expect([revoked.status, revoked.body.data.status, revoked.body.data.id]).toEqual([200, 'revoked', id]);
    expect((await call(server, 'GET', '/recordings', token)).status).toBe(401);
    const again = await call(server, 'DELETE', `/admin/tokens/${id}`, org.sessions.owner);
    expect([again.status, again.body.code]).toEqual([409, 'token_revoked']);

    const audit = await auditOf(server, org.sessions.owner);
    expect(audit.filter((e) => e.target.id === id).map((e) => [e.action, e.target.name])).toEqual([
      ['token.revoked', 'pipeline'],
      ['token.created', 'pipeline'],
    ]);
    expect(JSON.stringify(audit)).not.toContain(token);
    expect(server.logs()).not.toContain(token);
    const stored = await server.store.db.selectFrom('access_tokens').selectAll().where('id', '=', id).execute();
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('takes an expiresAt, or none (never expires), and refuses a bad expiry or name with invalid_field', async ({
    server,
    org,
  }) => {
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const dated = await call(server, 'POST', '/admin/tokens', org.sessions.owner, { name: 'dated', expiresAt: at });
    expect([dated.status, dated.body.data.expiresAt]).toEqual([201, at]);
    const forever = await call(server, 'POST', '/admin/tokens', org.sessions.owner, { name: 'forever' });
    expect([forever.status, forever.body.data.expiresAt]).toEqual([201, null]);
    const before = (await call(server, 'GET', '/admin/tokens', org.sessions.owner)).body.data;
    for (const [body, field] of [
      [{ name: 'x', expiresIn: 'soon' }, 'expiresIn'],
      [{ name: 'x', expiresIn: '40000d' }, 'expiresIn'],
      [{ name: 'x', expiresAt: '2001-01-01T00:00:00Z' }, 'expiresAt'],
      [{ name: 'x', expiresAt: 'tomorrow' }, 'expiresAt'],
      [{ name: 'x', expiresIn: '1d', expiresAt: at }, 'expiresAt'],
      [{ name: '  ' }, 'name'],
      [{}, 'name'],
      [{ name: 'x', role: 'owner' }, 'role'],
    ] as const) {
      const r = await call(server, 'POST', '/admin/tokens', org.sessions.owner, body);
      expect([body, r.status, r.body.code, r.body.field]).toEqual([body, 400, 'invalid_field', field]);
    }
    expect((await call(server, 'GET', '/admin/tokens', org.sessions.owner)).body.data).toEqual(before);
  });

  it("refuses editors and viewers (403), and answers 404 for another organisation's token", async ({
    server,
    org,
    other,
  }) => {
    const theirs = (await call(server, 'GET', '/admin/tokens', other.sessions.owner)).body.data[0];
    for (const token of [org.sessions.editor, org.sessions.viewer]) {
      for (const [method, path] of [
        ['GET', '/admin/tokens'],
        ['POST', '/admin/tokens'],
        ['DELETE', `/admin/tokens/${theirs.id}`],
      ] as const) {
        const r = await call(server, method, path, token, method === 'POST' ? { name: 'sneaky' } : undefined);
        expect([method, r.status, r.body.code]).toEqual([method, 403, 'forbidden']);
      }
    }
    const cross = await call(server, 'DELETE', `/admin/tokens/${theirs.id}`, org.sessions.owner);
    expect([cross.status, cross.body.code]).toEqual([404, 'token_not_found']);
    expect((await call(server, 'GET', '/recordings', other.token)).status).toBe(200);
    const mine = (await call(server, 'GET', '/admin/tokens', org.sessions.owner)).body.data;
    expect(mine.map((t: { id: string }) => t.id)).not.toContain(theirs.id);
  });
});
