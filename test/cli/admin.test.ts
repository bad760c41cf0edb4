import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, createTestStore, type TestStore } from '../support/store.js';
import { runCli } from '../support/cli.js';
import { bearer, getJson, postJson, serveLocation } from '../support/server.js';

describe.each(DIALECTS)('admin CLI on %s', (dialect) => {
  let ts: TestStore;
  const cli = (...args: string[]) => runCli(args, ts.location);
  const json = async (...args: string[]) => {
    const r = await cli(...args, '--json');
    expect(r.stderr, r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    return JSON.parse(lines[0]!);
  };

  beforeAll(async () => {
    ts = await createTestStore(dialect);
  });
  afterAll(async () => {
    await ts.destroy();
  });

  it('creates an organisation, a user, a token and a recording, each as one JSON object', async () => {
    expect(await json('admin', 'org', 'create', '--name', 'acme', '--retention-days', '7')).toEqual({
      id: expect.any(String),
      name: 'acme',
      retentionDays: 7,
    });
    expect(
      await json(
        'admin',
        'user',
        'create',
        '--org',
        'acme',
        '--username',
        'ann',
        '--password',
        'long-password',
        '--role',
        'editor',
      ),
    ).toEqual({ id: expect.any(String), username: 'ann', role: 'editor' });
    const token = await json('admin', 'token', 'create', '--org', 'acme', '--name', 'ingest', '--expires-in', '90d');
    expect(token).toEqual({
      id: expect.any(String),
      name: 'ingest',
      token: expect.stringMatching(/^sla_/),
      expiresAt: expect.any(String),
    });
    expect(Date.parse(token.expiresAt) - Date.now()).toBeGreaterThan(89 * 86_400_000);
    const rec = await json(
      'admin',
      'recording',
      'create',
      '--org',
      'acme',
      '--media-key',
      'alice/1700000000_6-967003_cam1.mp4',
      '--width',
      '1920',
      '--height',
      '1080',
    );
    expect(rec).toEqual({
      id: expect.any(String),
      mediaKey: 'alice/1700000000_6-967003_cam1.mp4',
      analysisId: expect.any(String),
      startTimestamp: 1_700_000_000,
    });
    const noStart = await json(
      'admin',
      'recording',
      'create',
      '--org',
      'acme',
      '--media-key',
      'alice/clip.mp4',
      '--analysis-id',
      'an-77',
    );
    expect(noStart.analysisId).toBe('an-77');
    expect(Math.abs(noStart.startTimestamp - Date.now() / 1000)).toBeLessThan(120);
    const explicit = await json(
      'admin',
      'recording',
      'create',
      '--org',
      'acme',
      '--media-key',
      'alice/1700000000_x.mp4',
      '--start',
      '1600000000',
    );
    expect(explicit.startTimestamp).toBe(1_600_000_000);
    // The last second POST /recordings takes (year 9999) is taken here too.
    const last = await json(
      'admin',
      'recording',
      'create',
      '--org',
      'acme',
      '--media-key',
      'alice/far.mp4',
      '--start',
      '253402300799',
      '--fps',
      '29.97',
    );
    expect(last.startTimestamp).toBe(253_402_300_799);
    const list = await json('admin', 'recording', 'list', '--org', 'acme');
    expect(list.recordings.map((r: { mediaKey: string }) => r.mediaKey)).toEqual(
      expect.arrayContaining(['alice/clip.mp4', 'alice/1700000000_6-967003_cam1.mp4']),
    );
  });

  it('takes secrets from the environment instead of the command line (where ps shows them)', async () => {
    await json('admin', 'org', 'create', '--name', 'envorg');
    const password = 'from-the-environment-42';
    const created = await runCli(
      ['admin', 'user', 'create', '--org', 'envorg', '--username', 'envy', '--role', 'viewer', '--json'],
      ts.location,
      { SIGHTLINE_USER_PASSWORD: password },
    );
    expect([created.code, created.stderr]).toEqual([0, '']);
    const server = await serveLocation(ts.location);
    try {
      expect((await postJson(`${server.url}/login`, { username: 'envy', password })).status).toBe(200);
    } finally {
      await server.close();
    }
    // An Azure connection string (it has a ";") in STORAGE_PROVIDER_SECRET, as the portal hands it out.
    const connection = `DefaultEndpointsProtocol=https;AccountName=envacct;AccountKey=${Buffer.alloc(32, 7).toString('base64')};EndpointSuffix=core.windows.net`;
    const provider = await runCli(
      [
        'admin',
        'provider',
        'create',
        '--name',
        `envaz-${dialect}`,
        '--type',
        'azure',
        '--container',
        'videos',
        '--json',
      ],
      ts.location,
      { STORAGE_PROVIDER_SECRET: connection, SIGHTLINE_MASTER_KEY: 'cli-master-key-0123456789' },
    );
    expect([provider.code, provider.stderr]).toEqual([0, '']);
    expect(JSON.parse(provider.stdout).config).toMatchObject({ account: 'envacct', container: 'videos' });
    expect(provider.stdout).not.toContain('AccountKey');
  });

  it('prints a readable line without --json', async () => {
    const r = await cli('admin', 'org', 'create', '--name', 'plain');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^organisation plain created/);
  });

  it.each([
    [['admin', 'org', 'create'], /--name is required/],
    [['admin', 'org', 'create', '--name', 'acme'], /already exists/],
    [
      [
        'admin',
        'user',
        'create',
        '--org',
        'nope',
        '--username',
        'x',
        '--password',
        'long-password',
        '--role',
        'editor',
      ],
      /no organisation named "nope"/,
    ],
    [
      ['admin', 'user', 'create', '--org', 'acme', '--username', 'x', '--password', 'long-password', '--role', 'god'],
      /--role must be one of/,
    ],
    [
      ['admin', 'token', 'create', '--org', 'acme', '--name', 't', '--expires-in', 'soon'],
      /--expires-in must be a duration/,
    ],
    [['admin', 'token', 'revoke', '--org', 'acme', '--id', 'missing'], /no active token/],
    [
      ['admin', 'recording', 'create', '--org', 'acme', '--media-key', 'k', '--width', 'wide'],
      /--width must be a number/,
    ],
    [['admin', 'frobnicate'], /unknown command/],
    // A typo must not silently change what is made: here, a token that never expires.
    [['admin', 'token', 'create', '--org', 'acme', '--name', 'typo', '--expire-in', '90d'], /unknown flag --expire-in/],
    [
      ['admin', 'token', 'create', '--org', 'acme', '--name', 'extra', 'positional'],
      /unexpected argument "positional"/,
    ],
    [
      [
        'admin',
        'user',
        'create',
        '--org',
        'acme',
        '--username',
        'y',
        '--password',
        'long-password',
        '--role',
        'editor',
        '--bogus',
        '1',
      ],
      /unknown flag --bogus/,
    ],
    [
      ['admin', 'token', 'create', '--org', 'acme', '--name', 'empty', '--expires-in', ''],
      /--expires-in needs a value/,
    ],
    [['admin', 'org', 'create', '--name', '   '], /--name must not be blank/],
    [
      ['admin', 'recording', 'create', '--org', 'acme', '--media-key', 'k/ms.mp4', '--start', '1700000000000'],
      /looks like milliseconds/,
    ],
    [
      ['admin', 'recording', 'create', '--org', 'acme', '--media-key', 'k/late.mp4', '--start', '253402300800'],
      /--start is Unix seconds up to 253402300799/,
    ],
    [
      ['admin', 'recording', 'create', '--org', 'acme', '--media-key', 'k/hex.mp4', '--start', '0x6553F100'],
      /--start must be an integer/,
    ],
    [
      ['admin', 'recording', 'create', '--org', 'acme', '--media-key', 'k/exp.mp4', '--start', '1e9'],
      /--start must be an integer/,
    ],
    // What POST /recordings refuses, the CLI refuses too, in its own words.
    [
      ['admin', 'recording', 'create', '--org', 'acme', '--media-key', 'a\nb.mp4'],
      /--media-key: contains a control character/,
    ],
    [
      ['admin', 'recording', 'create', '--org', 'acme', '--media-key', `k/${'x'.repeat(1100)}.mp4`],
      /--media-key: is longer than 1024 bytes/,
    ],
    [
      ['admin', 'recording', 'create', '--org', 'acme', '--media-key', 'k/a.mp4', '--analysis-id', 'A\u0001'],
      /--analysis-id: must be a non-empty string/,
    ],
    [
      [
        'admin',
        'recording',
        'create',
        '--org',
        'acme',
        '--media-key',
        'k/a.mp4',
        '--frame-count',
        '99999999999999999999',
      ],
      /--frame-count: must be an integer/,
    ],
    [['admin', 'org', 'create', '--name', 'evil\norg'], /--name must not contain control characters/],
    [['admin', 'org', 'create', '--name', 'x'.repeat(300)], /--name must be at most 256 bytes/],
    [
      ['admin', 'org', 'create', '--name', 'huge', '--retention-days', '99999999999999'],
      /--retention-days must be an integer of at least 1 and at most 1000000/,
    ],
    [
      ['admin', 'token', 'create', '--org', 'acme', '--name', 'forever', '--expires-in', '1000000000d'],
      /--expires-in must be at most 36500d/,
    ],
    [
      [
        'admin',
        'user',
        'create',
        '--org',
        'acme',
        '--username',
        'blankpw',
        '--password',
        '        ',
        '--role',
        'editor',
      ],
      /--password must not be blank/,
    ],
    // A switch written with a value must not quietly mean "off": `--dry-run=yes` would sweep for real.
    [['admin', 'sweep', '--dry-run=yes'], /--dry-run is a switch/],
    [['admin', 'sweep', '--dry-run', '--dry-run=false'], /--dry-run is given twice with different values/],
  ])('exits non-zero with a clear message: %j', async (args, message) => {
    const r = await cli(...args);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(message);
  });

  it('takes a switch as --flag, --flag=true or --flag=false, and a repeated one as one', async () => {
    for (const args of [['--dry-run=true'], ['--dry-run', '--dry-run'], ['--dry-run=TRUE']]) {
      const r = await cli('admin', 'sweep', ...args, '--json');
      expect([args, r.code, JSON.parse(r.stdout).dryRun]).toEqual([args, 0, true]);
    }
    const json = await cli('admin', 'provider', 'list', '--json=true');
    expect(json.code, json.stderr).toBe(0);
    expect(() => JSON.parse(json.stdout)).not.toThrow();
  });

  it('serve exits 1 with the reason when it cannot listen', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const port = String((blocker.address() as net.AddressInfo).port);
      const r = await cli('serve', '--port', port);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /cannot listen on --host 127\.0\.0\.1 --port \d+ \(HOST \/ PORT\): the port is in use \(EADDRINUSE\)/,
      );
    } finally {
      blocker.close();
    }
  });

  it('leaves nothing behind for refused input, and prints usage for --help with exit 0', async () => {
    const tokens = await cli(
      'admin',
      'token',
      'create',
      '--org',
      'acme',
      '--name',
      'typo',
      '--expire-in',
      '90d',
      '--json',
    );
    expect(tokens.code).not.toBe(0);
    const orgs = await cli('admin', 'org', 'create', '--name', '   ');
    expect(orgs.code).not.toBe(0);
    expect(await ts.store.db.selectFrom('access_tokens').select('id').where('name', '=', 'typo').execute()).toEqual([]);
    expect(await ts.store.db.selectFrom('organisations').select('id').where('name', '=', '   ').execute()).toEqual([]);
    const help = await cli('admin', 'token', 'create', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/usage: sightline admin token create --org <name>/);
  });

  it('answers a wrong flag with the usage line and exit 2, and a failure in the store with its reason only and exit 1', async () => {
    const badRole = await cli(
      'admin',
      'user',
      'create',
      '--org',
      'acme',
      '--username',
      'rolf',
      '--password',
      'long-password',
      '--role',
      'chief',
    );
    expect([badRole.code, badRole.stderr]).toEqual([
      2,
      expect.stringMatching(/--role must be one of .*\nusage: sightline admin user create /),
    ]);
    const badType = await cli('admin', 'provider', 'create', '--name', 'p', '--type', 'ftp');
    expect([badType.code, badType.stderr]).toEqual([
      2,
      expect.stringMatching(/--type must be one of .*\nusage: sightline admin provider create /),
    ]);
    const noOrg = await cli('admin', 'token', 'create', '--org', 'no-such-org', '--name', 'x');
    expect([noOrg.code, noOrg.stderr]).toEqual([1, expect.stringMatching(/no organisation named "no-such-org"/)]);
    expect(noOrg.stderr).not.toMatch(/usage:/);
    const taken = await cli('admin', 'org', 'create', '--name', 'acme');
    expect([taken.code, taken.stderr]).toEqual([1, expect.stringMatching(/already exists/)]);
    expect(taken.stderr).not.toMatch(/usage:/);
  });

  it('refuses an empty, repeated or wrong store or server flag as a wrong flag (exit 2), never falling back to a default', async () => {
    // `--database-url "$PROD_URL"` with the variable unset used to write to a fresh local store and succeed.
    const empty = await cli('admin', 'org', 'create', '--name', 'nowhere', '--database-url', '');
    expect([empty.code, empty.stderr]).toEqual([
      2,
      expect.stringMatching(/--database-url needs a value, got an empty one\nusage: sightline admin org create /),
    ]);
    const twice = await cli('serve', '--port', '7', '--port', '8');
    expect([twice.code, twice.stderr]).toEqual([
      2,
      expect.stringMatching(/--port may be given only once\nusage: sightline serve /),
    ]);
    const wrong = await cli('serve', '--port', '-1');
    expect([wrong.code, wrong.stderr]).toEqual([
      2,
      expect.stringMatching(
        /the port \(--port \/ PORT\) must be an integer from 0 to 65535, got "-1"\nusage: sightline serve /,
      ),
    ]);
    const level = await cli('admin', 'org', 'create', '--name', 'nowhere', '--log-level', 'INFO');
    expect([level.code, level.stderr]).toEqual([2, expect.stringMatching(/log level .* got "INFO"\nusage:/)]);
    const notPostgres = await cli('admin', 'org', 'create', '--name', 'nowhere', '--database-url', 'mysql://x');
    expect([notPostgres.code, notPostgres.stderr]).toEqual([
      2,
      expect.stringMatching(/must start with postgres:\/\/.*\nusage:/),
    ]);
    // None of them wrote anything: the name is still free in this store.
    const orgs = await cli('admin', 'org', 'create', '--name', 'nowhere');
    expect(orgs.code, orgs.stderr).toBe(0);
  });

  it('lists tokens without their secrets, and deletes a user whose sessions end at once on a running server', async () => {
    const made = await json('admin', 'token', 'create', '--org', 'acme', '--name', 'listed', '--expires-in', '1h');
    await json('admin', 'token', 'revoke', '--org', 'acme', '--id', made.id);
    const { tokens } = await json('admin', 'token', 'list', '--org', 'acme');
    const listed = tokens.find((t: { id: string }) => t.id === made.id);
    expect(listed).toEqual({
      id: made.id,
      name: 'listed',
      role: 'application',
      status: 'revoked',
      createdAt: expect.any(String),
      expiresAt: made.expiresAt,
      revokedAt: expect.any(String),
    });
    expect(JSON.stringify(tokens)).not.toContain(made.token);
    const readable = await cli('admin', 'token', 'list', '--org', 'acme');
    expect(readable.stdout).toMatch(new RegExp(`${made.id}  listed  \\(revoked `));

    await json(
      'admin',
      'user',
      'create',
      '--org',
      'acme',
      '--username',
      'leaver',
      '--password',
      'long-password',
      '--role',
      'editor',
    );
    const server = await serveLocation(ts.location);
    try {
      const session = (await postJson(`${server.url}/login`, { username: 'leaver', password: 'long-password' })).body
        .data.token;
      expect((await getJson(`${server.url}/recordings`, bearer(session))).status).toBe(200);
      expect(await json('admin', 'user', 'delete', '--org', 'acme', '--username', 'leaver')).toEqual({
        id: expect.any(String),
        username: 'leaver',
        deleted: true,
      });
      expect((await getJson(`${server.url}/recordings`, bearer(session))).status).toBe(401);
      expect((await postJson(`${server.url}/login`, { username: 'leaver', password: 'long-password' })).status).toBe(
        401,
      );
    } finally {
      await server.close();
    }
    const again = await cli('admin', 'user', 'delete', '--org', 'acme', '--username', 'leaver');
    expect([again.code, again.stderr]).toEqual([1, expect.stringMatching(/no user named "leaver" in acme/)]);
  });

  it('lists the users of an organisation by name, without their password hashes', async () => {
    await json(
      'admin',
      'user',
      'create',
      '--org',
      'acme',
      '--username',
      'resetme',
      '--password',
      'first-password',
      '--role',
      'viewer',
    );
    const { users } = await json('admin', 'user', 'list', '--org', 'acme');
    const names = users.map((u: { username: string }) => u.username);
    expect(names).toEqual([...names].sort());
    expect(users.find((u: { username: string }) => u.username === 'resetme')).toEqual({
      id: expect.any(String),
      username: 'resetme',
      role: 'viewer',
      status: 'active',
      invitationExpiresAt: null,
      createdAt: expect.any(String),
    });
    expect(JSON.stringify(users)).not.toMatch(/scrypt|hash|first-password/);
    expect((await cli('admin', 'user', 'list', '--org', 'acme')).stdout).toMatch(/ resetme {2}viewer {2}\(created /);
  });

  it('set-role holds from the next request; set-password ends the sessions and forgets the failed logins', async () => {
    const run = {
      mediaKey: 'alice/1700000000_6-967003_cam1.mp4',
      schemaVersion: '1.0',
      source: { runId: 'role-run' },
      coordinateSpace: 'normalized',
      tracks: [{ id: 1, boxes: [{ frame: 0, x: 0.1, y: 0.1, w: 0.1, h: 0.1 }] }],
    };
    const server = await serveLocation(ts.location, { LOGIN_MAX_FAILURES_PER_USER: '2' });
    try {
      const login = (password: string) => postJson(`${server.url}/login`, { username: 'resetme', password });
      const session = (await login('first-password')).body.data.token;
      // A viewer may read but not write; promoted, the same session writes at once.
      expect((await postJson(`${server.url}/detections`, run, bearer(session))).status).toBe(403);
      expect(
        await json('admin', 'user', 'set-role', '--org', 'acme', '--username', 'resetme', '--role', 'editor'),
      ).toEqual({ id: expect.any(String), username: 'resetme', role: 'editor' });
      expect((await postJson(`${server.url}/detections`, run, bearer(session))).status).toBe(201);

      // Locked out by failures (a third attempt waits), then reset: the old password and session are dead, the new one works at once.
      for (let i = 0; i < 2; i++) expect((await login('wrong-password')).status).toBe(401);
      expect((await login('first-password')).status).toBe(429);
      const noPassword = await cli('admin', 'user', 'set-password', '--org', 'acme', '--username', 'resetme', '--json');
      expect([noPassword.code, noPassword.stderr]).toEqual([2, expect.stringMatching(/--password/)]);
      expect(
        await json(
          'admin',
          'user',
          'set-password',
          '--org',
          'acme',
          '--username',
          'resetme',
          '--password',
          'second-password',
        ),
      ).toEqual({ id: expect.any(String), username: 'resetme', sessionsEnded: 1 });
      expect((await getJson(`${server.url}/recordings`, bearer(session))).status).toBe(401);
      expect((await login('first-password')).status).toBe(401);
      const fresh = await login('second-password');
      expect([fresh.status, fresh.body.data.user.role]).toEqual([200, 'editor']);
    } finally {
      await server.close();
    }
  });

  it('refuses a short password, an unknown role, a missing user, organisation or namesake elsewhere, changing nothing', async () => {
    const stored = () =>
      ts.store.db
        .selectFrom('users')
        .select(['role', 'password_hash'])
        .where('username', '=', 'resetme')
        .executeTakeFirstOrThrow();
    const before = await stored();
    const refusals: Array<[string[], number, RegExp]> = [
      [
        ['set-password', '--org', 'acme', '--username', 'resetme', '--password', 'short'],
        2,
        /--password must have at least 8 characters/,
      ],
      [
        ['set-role', '--org', 'acme', '--username', 'resetme', '--role', 'root'],
        2,
        /--role must be one of owner, admin, editor, viewer/,
      ],
      [['set-role', '--org', 'acme', '--username', 'nobody', '--role', 'viewer'], 1, /no user named "nobody" in acme/],
      [
        ['set-role', '--org', 'no-such-org', '--username', 'resetme', '--role', 'viewer'],
        1,
        /no organisation named "no-such-org"/,
      ],
    ];
    for (const [args, code, message] of refusals) {
      const refused = await cli('admin', 'user', ...args);
      expect([args, refused.code, refused.stderr]).toEqual([args, code, expect.stringMatching(message)]);
    }
    // Scoped to the organisation named: the user is no user of another one.
    await json('admin', 'org', 'create', '--name', 'elsewhere');
    const otherOrg = await cli(
      'admin',
      'user',
      'set-password',
      '--org',
      'elsewhere',
      '--username',
      'resetme',
      '--password',
      'long-enough-1',
    );
    expect([otherOrg.code, otherOrg.stderr]).toEqual([
      1,
      expect.stringMatching(/no user named "resetme" in elsewhere/),
    ]);
    expect(await stored()).toEqual(before);
  });

  it('works against the store a running server uses, and revocation takes effect at once', async () => {
    const server = await serveLocation(ts.location);
    try {
      const token = await json('admin', 'token', 'create', '--org', 'acme', '--name', 'live');
      await json('admin', 'recording', 'create', '--org', 'acme', '--media-key', 'live/1700000500_a.mp4');
      const post = await postJson(
        `${server.url}/detections`,
        {
          mediaKey: 'live/1700000500_a.mp4',
          schemaVersion: '1.0',
          source: { runId: 'cli-run' },
          coordinateSpace: 'normalized',
          tracks: [{ id: 1, boxes: [{ frame: 0, x: 0.1, y: 0.1, w: 0.1, h: 0.1 }] }],
        },
        bearer(token.token),
      );
      expect(post.status).toBe(201);
      expect(await json('admin', 'token', 'revoke', '--org', 'acme', '--id', token.id)).toEqual({
        id: token.id,
        revoked: true,
      });
      expect((await getJson(`${server.url}/detections/cli-run`, bearer(token.token))).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});
