// Login throttling by (username, client address) and by address, behind one proxy (TRUST_PROXY=1): an attacker's
// address is refused without refusing the user elsewhere, refused attempts extend no lock, locks grow, usernames that
// differ in case are different users, and a forged left-most X-Forwarded-For neither escapes the per-address limit
// nor lands in the access log.
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganisation, createUser } from '../../src/auth/queries.js';
import { hashSecret } from '../../src/auth/secrets.js';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { postJson } from '../support/server.js';
import { createTestStore, DIALECTS, type TestStore } from '../support/store.js';

const PASSWORD = 'wonderland-42';

describe.each(DIALECTS)('login throttling by address on %s', (dialect) => {
  let ts: TestStore;
  let app: FastifyInstance;
  let url: string;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    ts = await createTestStore(dialect);
    const stream = new PassThrough();
    stream.on('data', (chunk) => {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    });
    app = await buildApp({
      config: loadConfig(
        { data: ts.location.dataDir },
        {
          LOG_LEVEL: 'info',
          TRUST_PROXY: '1',
          LOGIN_MAX_FAILURES_PER_USER: '3',
          LOGIN_MAX_FAILURES_PER_ADDRESS: '6',
        },
      ),
      store: ts.store,
      logStream: stream,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const org = await createOrganisation(ts.store.db, 'acme');
    for (const name of ['owner-1', 'a_owner', 'A_OWNER', 'grower', 'popular', 'victim'])
      await createUser(ts.store.db, org.id, name, PASSWORD, 'owner');
  });
  afterAll(async () => {
    await app.close();
    await ts.destroy();
  });

  /** A login as the one proxy in front would forward it: the client's address appended to X-Forwarded-For. */
  const login = (username: string, password: string, from: string, forged?: string) =>
    postJson(
      `${url}/login`,
      { username, password },
      { 'x-forwarded-for': forged === undefined ? from : `${forged}, ${from}` },
    );
  const pairRow = (username: string, address: string) =>
    ts.store.db
      .selectFrom('login_failures')
      .selectAll()
      .where('key', '=', `ua:${hashSecret(username)}:${address}`)
      .executeTakeFirst();

  it('refuses the guessing address, even the right password from it, and lets the user in from another', async () => {
    for (let i = 0; i < 3; i++) expect((await login('owner-1', `guess-${i}`, '203.0.113.66')).status).toBe(401);
    const refused = await login('owner-1', PASSWORD, '203.0.113.66');
    expect([refused.status, refused.body.code]).toEqual([429, 'too_many_requests']);
    expect((await login('owner-1', PASSWORD, '198.51.100.7')).status).toBe(200);
  });

  it('refused attempts extend no lock: the lock ends when it ended, however often the attacker asks', async () => {
    for (let i = 0; i < 3; i++) expect((await login('victim', `guess-${i}`, '203.0.113.67')).status).toBe(401);
    const before = await pairRow('victim', '203.0.113.67');
    expect(before?.locked_until).toBeGreaterThan(Date.now());
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await login('victim', `guess-more-${i}`, '203.0.113.67');
      expect(res.status).toBe(429);
      waits.push(Number(res.headers.get('retry-after')));
    }
    const after = await pairRow('victim', '203.0.113.67');
    expect([after?.locked_until, after?.lockouts, after?.failures]).toEqual([
      before?.locked_until,
      before?.lockouts,
      before?.failures,
    ]);
    expect(waits[4]).toBeLessThanOrEqual(waits[0]!);
    // And the victim, from home, is not refused.
    expect((await login('victim', PASSWORD, '192.0.2.10')).status).toBe(200);
  });

  it('keeps usernames that differ only in case apart: one locked does not lock the other', async () => {
    for (let i = 0; i < 3; i++) expect((await login('a_owner', `guess-${i}`, '203.0.113.68')).status).toBe(401);
    expect((await login('a_owner', PASSWORD, '203.0.113.68')).status).toBe(429);
    expect((await login('A_OWNER', PASSWORD, '203.0.113.68')).status).toBe(200);
  });

  it('locks a key that fails again after its lock for twice as long', async () => {
    const address = '203.0.113.69';
    for (let i = 0; i < 3; i++) expect((await login('grower', `guess-${i}`, address)).status).toBe(401);
    const first = Number((await login('grower', PASSWORD, address)).headers.get('retry-after'));
    expect(first).toBeGreaterThan(890);
    expect(first).toBeLessThanOrEqual(900);
    // As if the first lock (and the window of those failures) had passed.
    await ts.store.db
      .updateTable('login_failures')
      .set({ window_start: Date.now() - 2 * 900_000, locked_until: Date.now() - 1000 })
      .where('key', '=', `ua:${hashSecret('grower')}:${address}`)
      .execute();
    for (let i = 0; i < 3; i++) expect((await login('grower', `again-${i}`, address)).status).toBe(401);
    const second = Number((await login('grower', PASSWORD, address)).headers.get('retry-after'));
    expect(second).toBeGreaterThan(1790);
    expect(second).toBeLessThanOrEqual(1800);
  });

  it('counts a username from every address for alerting, and refuses nobody for it', async () => {
    const before = lines.length;
    for (let i = 0; i < 4; i++) expect((await login('popular', 'wrong', `192.0.2.${100 + i}`)).status).toBe(401);
    expect((await login('popular', PASSWORD, '192.0.2.200')).status).toBe(200);
    const alerts = lines.slice(before).filter((l) => l.event === 'login_failures');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ level: 40, address: expect.stringMatching(/^192\.0\.2\./) });
    expect(JSON.stringify(alerts)).not.toContain('popular');
  });

  it('a forged left-most X-Forwarded-For escapes neither the per-address limit nor the access log', async () => {
    const before = lines.length;
    const real = '203.0.113.90';
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await login(`nobody-${i}`, 'guess', real, `10.9.8.${i}`)).status);
    // LOGIN_MAX_FAILURES_PER_ADDRESS is 6: six are tried, then the address (the proxy's view of it) is refused.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
    const access = lines.slice(before).filter((l) => l.msg === 'request');
    expect(access).toHaveLength(8);
    expect(JSON.stringify(access)).not.toMatch(/10\.9\.8\./);
    expect(access.every((l) => JSON.stringify(l).includes(real))).toBe(true);
    // Another client behind the same proxy is not refused.
    expect((await login('owner-1', PASSWORD, '203.0.113.91', '203.0.113.90')).status).toBe(200);
  });
});
