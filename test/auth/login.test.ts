import net from 'node:net';
import { sql } from 'kysely';
import { describe, expect } from 'vitest';
import { extendEach, serverTests } from '../support/fixtures.js';
import { createAccessToken, createOrganisation, createUser, revokeAccessToken } from '../../src/auth/queries.js';
import { buildApp } from '../../src/http/app.js';
import { hashSecret } from '../../src/auth/secrets.js';
import { loadConfig } from '../../src/config.js';
import { DIALECTS } from '../support/store.js';
import { bearer, getJson, postJson } from '../support/server.js';

// `orgId` is organisation acme with its users, made before the file's first test (the tests log in by name).
const tests = extendEach(
  serverTests({ env: { LOGIN_MAX_FAILURES_PER_USER: '3', LOGIN_MAX_FAILURES_PER_ADDRESS: '1000' } }),
  (test) =>
    test.extend('orgId', { scope: 'file', auto: true }, async ({ server }) => {
      const orgId = (await createOrganisation(server.store.db, 'acme')).id;
      await createUser(server.store.db, orgId, 'alice', 'wonderland-42', 'editor');
      await createUser(server.store.db, orgId, 'throttled', 'wonderland-42', 'viewer');
      await createUser(server.store.db, orgId, 'burst', 'wonderland-42', 'viewer');
      await createUser(server.store.db, orgId, 'regular', 'wonderland-42', 'viewer');
      for (const name of ['edge', 'skewed', 'patient'])
        await createUser(server.store.db, orgId, name, 'wonderland-42', 'viewer');
      return orgId;
    }),
);

describe.each(DIALECTS)('authentication on %s', (dialect) => {
  const it = tests[dialect]
    .extend(
      'login',
      ({ server }) =>
        (body: unknown, headers: Record<string, string> = {}) =>
          postJson(`${server.url}/login`, body, headers),
    )
    .extend(
      'listWith',
      ({ server }) =>
        (token: string) =>
          getJson(`${server.url}/detections?mediaKey=none`, bearer(token)),
    )
    /** The throttle counter of the username from this test's address, as the login route keys it. */
    .extend(
      'userCounter',
      ({ server }) =>
        (username: string) =>
          server.store.db.updateTable('login_failures').where('key', '=', `ua:${hashSecret(username)}:127.0.0.1`),
    );

  it('returns a Bearer session token with the user and organisation', async ({ orgId, login, listWith }) => {
    const res = await login({ username: 'alice', password: 'wonderland-42' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      tokenType: 'Bearer',
      user: { username: 'alice', role: 'editor', organisation: { id: orgId, name: 'acme' } },
    });
    expect(res.body.data.token).toMatch(/^sls_/);
    const ttl = Date.parse(res.body.data.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(11.9 * 3600_000);
    expect(ttl).toBeLessThanOrEqual(12 * 3600_000);
    // The token works: an unknown recording is 404, not 401.
    expect((await listWith(res.body.data.token)).status).toBe(404);
  });

  it.for([
    ['missing password', { username: 'alice' }],
    ['empty username', { username: '', password: 'x' }],
    ['not an object', ['alice']],
    // Bodies are not coerced: these would otherwise become "alice" / "1" / "true".
    ['username an array', { username: ['alice'], password: ['wonderland-42'] }],
    ['username a number', { username: 1, password: 'wonderland-42' }],
    ['password a boolean', { username: 'alice', password: true }],
  ])('400 for %s', async ([_name, body], { login }) => {
    const res = await login(body);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('400 malformed_json for broken JSON', async ({ server }) => {
    const res = await fetch(`${server.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"username":',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('malformed_json');
  });

  it('415 for a JSON body labelled text/plain (Fastify would hand it over as a string), like any other type', async ({
    server,
    login,
  }) => {
    const body = JSON.stringify({ username: 'alice', password: 'wonderland-42' });
    for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/xml']) {
      const res = await fetch(`${server.url}/login`, { method: 'POST', headers: { 'content-type': type }, body });
      expect([type, res.status, (await res.json()).code]).toEqual([type, 415, 'unsupported_media_type']);
    }
    // A route that reads no body takes none, whatever it is labelled.
    const token = (await login({ username: 'alice', password: 'wonderland-42' })).body.data.token;
    const logout = await fetch(`${server.url}/logout`, {
      method: 'POST',
      headers: bearer(token, { 'content-type': 'text/plain' }),
    });
    expect(logout.status).toBe(200);
  });

  it('401 invalid_credentials, the same answer for an unknown user and a wrong password', async ({ login }) => {
    const wrong = await login({ username: 'alice', password: 'nope-nope' });
    const unknown = await login({ username: 'nobody', password: 'nope-nope' });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('invalid_credentials');
    }
    expect(wrong.body.detail).toBe(unknown.body.detail);
  });

  it('401, not 400, for a username or password longer than any account can have', async ({ login }) => {
    for (const body of [
      { username: 'a'.repeat(257), password: 'wonderland-42' },
      { username: 'alice', password: 'p'.repeat(1025) },
    ]) {
      const res = await login(body);
      expect([res.status, res.body.code]).toEqual([401, 'invalid_credentials']);
    }
  });

  it('throttles repeated failures for one username with 429 and Retry-After, even for the right password', async ({
    login,
  }) => {
    for (let i = 0; i < 3; i++)
      expect((await login({ username: 'throttled', password: 'bad-guess' })).status).toBe(401);
    const res = await login({ username: 'throttled', password: 'wonderland-42' });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('too_many_requests');
    const retry = Number(res.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(900);
  });

  it('counts a burst of concurrent guesses one by one: no more than the limit get tried, not even the right one', async ({
    login,
  }) => {
    const guesses = Array.from({ length: 24 }, (_, i) =>
      login({ username: 'burst', password: i === 20 ? 'wonderland-42' : `guess-${i}` }),
    );
    const statuses = (await Promise.all(guesses)).map((r) => r.status);
    // LOGIN_MAX_FAILURES_PER_USER is 3 here: three are tried (and fail), every other one is refused untried.
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(21);
  });

  it('slides its window: failures just before a window turned still count after it, and a second lock is longer', async ({
    login,
    userCounter,
  }) => {
    for (let i = 0; i < 3; i++) expect((await login({ username: 'edge', password: 'bad-guess' })).status).toBe(401);
    // As if those three had failed at the very end of the window that ended a second ago, and their lock had ended.
    await userCounter('edge')
      .set({ window_start: Date.now() - 901_000, locked_until: Date.now() - 1000 })
      .execute();
    // A fixed window would start over and let three more through; the sliding one still counts ~3 × 899/900, so one
    // more failure reaches the limit again, and locks the key for twice the first lock.
    expect((await login({ username: 'edge', password: 'bad-guess' })).status).toBe(401);
    const refused = await login({ username: 'edge', password: 'wonderland-42' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1795);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(1800);
  });

  it('does not count attempts it refused untried: asking again does not push Retry-After back', async ({
    server,
    login,
  }) => {
    for (let i = 0; i < 3; i++) expect((await login({ username: 'patient', password: 'bad-guess' })).status).toBe(401);
    const waits = [];
    for (let i = 0; i < 5; i++) {
      const res = await login({ username: 'patient', password: 'wonderland-42' });
      expect(res.status).toBe(429);
      waits.push(Number(res.headers.get('retry-after')));
    }
    expect(waits[4]).toBeLessThanOrEqual(waits[0]!);
    const failures = await server.store.db
      .selectFrom('login_failures')
      .select('failures')
      .where('key', '=', `ua:${hashSecret('patient')}:127.0.0.1`)
      .executeTakeFirstOrThrow();
    expect(failures.failures).toBe(3);
  });

  it('starts afresh a counter whose window begins in the future (an instance whose clock ran ahead)', async ({
    login,
    userCounter,
  }) => {
    for (let i = 0; i < 3; i++) expect((await login({ username: 'skewed', password: 'bad-guess' })).status).toBe(401);
    await userCounter('skewed')
      .set({ window_start: Date.now() + 86_400_000 })
      .execute();
    expect((await login({ username: 'skewed', password: 'wonderland-42' })).status).toBe(200);
  });

  it('holds the limit through bursts from one address for several usernames: exactly the limit tried, no 5xx', async ({
    login,
  }) => {
    for (let round = 0; round < 3; round++) {
      const username = `nobody-${round}-${Math.random().toString(36).slice(2, 8)}`;
      const statuses = (
        await Promise.all(Array.from({ length: 40 }, () => login({ username, password: 'guess' })))
      ).map((r) => r.status);
      expect([round, statuses.filter((s) => s === 401).length, statuses.filter((s) => s === 429).length]).toEqual([
        round,
        3,
        37,
      ]);
    }
  });

  it.skipIf(dialect !== 'pg')(
    'takes back a login that failed on the server side: no session left, not counted',
    async ({ server, orgId, login }) => {
      const db = server.store.db;
      await createUser(db, orgId, 'unlucky', 'wonderland-42', 'viewer');
      // The database fails the counter's reset, after the session was written (as a dropped connection would).
      await sql`create function fail_reset() returns trigger as $$ begin raise exception 'injected failure'; end $$ language plpgsql`.execute(
        db,
      );
      await sql`create trigger fail_reset before delete on login_failures for each row execute function fail_reset()`.execute(
        db,
      );
      try {
        for (let i = 0; i < 6; i++)
          expect((await login({ username: 'unlucky', password: 'wonderland-42' })).status).toBe(500);
      } finally {
        await sql`drop trigger fail_reset on login_failures`.execute(db);
        await sql`drop function fail_reset()`.execute(db);
      }
      const user = await db
        .selectFrom('users')
        .select('id')
        .where('username', '=', 'unlucky')
        .executeTakeFirstOrThrow();
      expect(await db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
      expect((await login({ username: 'unlucky', password: 'wonderland-42' })).status).toBe(200);
    },
  );

  it('keeps no username as text in the throttle table (a password typed into the username field stays unreadable)', async ({
    server,
    login,
  }) => {
    const typed = 'Secret-Typed-In-The-Wrong-Field-71';
    expect((await login({ username: typed, password: 'x' })).status).toBe(401);
    const keys = (await server.store.db.selectFrom('login_failures').select('key').execute()).map((r) => r.key);
    expect(keys.some((k) => k.startsWith('user:'))).toBe(true);
    expect(keys.filter((k) => k.toLowerCase().includes(typed.toLowerCase()))).toEqual([]);
  });

  it('a success does not count as a failure of its address', async ({ server, login }) => {
    const addressFailures = async () =>
      (
        await server.store.db
          .selectFrom('login_failures')
          .select('failures')
          .where('key', 'like', 'addr:%')
          .executeTakeFirst()
      )?.failures ?? 0;
    expect((await login({ username: 'regular', password: 'not-it' })).status).toBe(401);
    const before = await addressFailures();
    expect(before).toBeGreaterThan(0);
    for (let i = 0; i < 6; i++)
      expect((await login({ username: 'regular', password: 'wonderland-42' })).status).toBe(200);
    expect(await addressFailures()).toBe(before);
  });

  it('the throttle lives in the database: a second instance on the same store refuses too', async ({
    server,
    login,
  }) => {
    const second = await buildApp({
      config: loadConfig({}, { LOGIN_MAX_FAILURES_PER_USER: '3' }),
      store: server.store,
      logger: false,
    });
    await second.listen({ port: 0, host: '127.0.0.1' });
    try {
      const url = `http://127.0.0.1:${(second.server.address() as { port: number }).port}`;
      const res = await postJson(`${url}/login`, { username: 'throttled', password: 'wonderland-42' });
      expect(res.status).toBe(429);
      // And a session minted by one instance is honoured by the other.
      const session = (await login({ username: 'alice', password: 'wonderland-42' })).body.data.token;
      expect((await getJson(`${url}/detections?mediaKey=none`, bearer(session))).status).toBe(404);
    } finally {
      await second.close();
    }
  });

  it('logout ends the session', async ({ server, login, listWith }) => {
    const token = (await login({ username: 'alice', password: 'wonderland-42' })).body.data.token;
    expect((await postJson(`${server.url}/logout`, {}, bearer(token))).status).toBe(200);
    const res = await listWith(token);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
  });

  it('logout takes an empty body labelled JSON (it reads none), while /login still refuses one', async ({
    server,
    login,
    listWith,
  }) => {
    const token = (await login({ username: 'alice', password: 'wonderland-42' })).body.data.token;
    const res = await fetch(`${server.url}/logout`, {
      method: 'POST',
      headers: bearer(token, { 'content-type': 'application/json' }),
    });
    expect(res.status).toBe(200);
    expect((await listWith(token)).status).toBe(401);
    const empty = await fetch(`${server.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect([empty.status, (await empty.json()).code]).toEqual([400, 'malformed_json']);
  });

  it('logout with an access token says it is no session, and the token keeps working', async ({
    server,
    orgId,
    listWith,
  }) => {
    const live = await createAccessToken(server.store.db, orgId, 'not-a-session', null);
    const res = await postJson(`${server.url}/logout`, {}, bearer(live.token));
    expect([res.status, res.body.code]).toEqual([400, 'invalid_request']);
    expect((await listWith(live.token)).status).toBe(404);
  });

  it('takes no credential from a request with two Authorization headers', async ({ server, orgId, listWith }) => {
    const live = await createAccessToken(server.store.db, orgId, 'twice', null);
    const target = new URL(`${server.url}/detections?mediaKey=none`);
    for (const pair of [
      [`Bearer ${live.token}`, 'Bearer nope'],
      ['Bearer nope', `Bearer ${live.token}`],
      [`Bearer ${live.token}`, `Bearer ${live.token}`],
    ]) {
      // Written by hand: an HTTP client merges or refuses repeated headers.
      const status = await new Promise<number>((resolve, reject) => {
        const socket = net.connect(Number(target.port), target.hostname, () =>
          socket.write(
            `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: x\r\n` +
              `Authorization: ${pair[0]}\r\nAuthorization: ${pair[1]}\r\nConnection: close\r\n\r\n`,
          ),
        );
        let text = '';
        socket.on('data', (c: Buffer) => {
          text += c;
        });
        socket.on('end', () => resolve(Number(text.split(' ')[1])));
        socket.on('error', reject);
      });
      expect(status).toBe(401);
    }
    expect((await listWith(live.token)).status).toBe(404);
  });

  it('refuses to configure sessions that are dead on arrival', () => {
    for (const ttl of ['0', '0s', '0h'])
      expect(() => loadConfig({}, { SESSION_TTL: ttl }), ttl).toThrow(/SESSION_TTL must be a positive duration/);
    expect(loadConfig({}, { SESSION_TTL: '30m' }).sessionTtlSeconds).toBe(1800);
  });

  it('access tokens work until revoked or expired', async ({ server, orgId, listWith }) => {
    const live = await createAccessToken(server.store.db, orgId, 'ci', null);
    expect((await listWith(live.token)).status).toBe(404);
    expect(await revokeAccessToken(server.store.db, orgId, live.id)).toBe(true);
    expect((await listWith(live.token)).status).toBe(401);
    const expired = await createAccessToken(server.store.db, orgId, 'old', Date.now() - 1000);
    expect((await listWith(expired.token)).status).toBe(401);
  });

  it('expired sessions are refused', async ({ server, login, listWith }) => {
    const token = (await login({ username: 'alice', password: 'wonderland-42' })).body.data.token;
    await server.store.db
      .updateTable('sessions')
      .set({ expires_at: Date.now() - 1 })
      .execute();
    expect((await listWith(token)).status).toBe(401);
  });

  it('stores only hashes of passwords and tokens', async ({ server, login }) => {
    const token = (await login({ username: 'alice', password: 'wonderland-42' })).body.data.token;
    const sessions = await server.store.db.selectFrom('sessions').select('token_hash').execute();
    expect(sessions.some((s) => s.token_hash === token)).toBe(false);
    expect(sessions.every((s) => /^[0-9a-f]{64}$/.test(s.token_hash))).toBe(true);
    const user = await server.store.db
      .selectFrom('users')
      .select('password_hash')
      .where('username', '=', 'alice')
      .executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^scrypt\$/);
    expect(user.password_hash).not.toContain('wonderland');
  });
});
