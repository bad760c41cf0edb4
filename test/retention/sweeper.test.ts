import { describe, expect } from 'vitest';
import { serverTests } from '../support/fixtures.js';
import { createAccessToken, createOrganisation, createSession, createUser } from '../../src/auth/queries.js';
import { spawnCli } from '../support/cli.js';
import { sweepExpired } from '../../src/retention/sweeper.js';
import { DIALECTS } from '../support/store.js';
import { bearer, getJson, postJson } from '../support/server.js';
import { postRun, runAt, search } from '../recordings/helpers.js';

const DAY = 86_400;
let n = 0;

const tests = serverTests();

describe.each(DIALECTS)('retention sweep on %s', (dialect) => {
  const it = tests[dialect]
    .extend('orgWith', ({ server }) => async (retentionDays: number, keepRecordings = false) => {
      const org = await createOrganisation(server.store.db, `ret-${process.pid}-${++n}`, retentionDays, keepRecordings);
      const token = (await createAccessToken(server.store.db, org.id, 'producer', null)).token;
      return { ...org, token };
    })
    .extend(
      'recordingWithRun',
      ({ server }) =>
        async (token: string, prefix: string, startedDaysAgo: number, label: string) => {
          const start = Math.floor(Date.now() / 1000) - Math.round(startedDaysAgo * DAY);
          const mediaKey = `${prefix}/${start}_cam.mp4`;
          expect((await postJson(`${server.url}/recordings`, { mediaKey }, bearer(token))).status).toBe(201);
          // The run is posted today, whatever the recording's age.
          await postRun(server.url, token, runAt(mediaKey, `run-${prefix}`, [{ cx: 50, cy: 50, label }]));
          return mediaKey;
        },
    )
    .extend(
      'exists',
      ({ server }) =>
        async (token: string, mediaKey: string) =>
          (await getJson(`${server.url}/recordings/${encodeURIComponent(mediaKey)}`, bearer(token))).status === 200,
    )
    .extend(
      'runCount',
      ({ server }) =>
        async (orgId: string) =>
          Number(
            (
              await server.store.db
                .selectFrom('runs')
                .select((eb) => eb.fn.countAll().as('n'))
                .where('org_id', '=', orgId)
                .executeTakeFirstOrThrow()
            ).n,
          ),
    );

  it('removes a run of a recording that started retentionDays + 1 days ago, and keeps one within retention', async ({
    server,
    orgWith,
    recordingWithRun,
    exists,
  }) => {
    const org = await orgWith(7);
    const old = await recordingWithRun(org.token, 'old', 8, 'expiring');
    const fresh = await recordingWithRun(org.token, 'fresh', 6, 'expiring');
    const region = { region: { x: 0, y: 0, w: 1, h: 1 }, labels: ['expiring'] };
    expect((await search(server.url, org.token, region)).body.data.recordings).toHaveLength(2);

    const dry = await sweepExpired(server.store, { dryRun: true });
    expect(dry.runsRemoved).toBeGreaterThanOrEqual(1);
    expect(await exists(org.token, old)).toBe(true);

    const logged: Array<Record<string, unknown>> = [];
    const result = await sweepExpired(server.store, { log: (fields) => logged.push(fields) });
    expect(result.runsRemoved).toBeGreaterThanOrEqual(1);
    expect(logged.find((l) => l.organisation === org.name)).toMatchObject({ runs: 1, recordings: 1, mediaKeys: [old] });
    expect(await exists(org.token, old)).toBe(false);
    expect(await exists(org.token, fresh)).toBe(true);
    expect((await getJson(`${server.url}/detections/run-old`, bearer(org.token))).status).toBe(404);
    expect((await getJson(`${server.url}/detections/run-fresh`, bearer(org.token))).status).toBe(200);
    expect(
      (await search(server.url, org.token, region)).body.data.recordings.map((r: { mediaKey: string }) => r.mediaKey),
    ).toEqual([fresh]);
    const leftovers = await server.store.db
      .selectFrom('run_centroids')
      .select('recording_id')
      .where('org_id', '=', org.id)
      .execute();
    expect(leftovers).toHaveLength(1);
    // Nothing left to do: a second sweep removes nothing of this organisation.
    const again: Array<Record<string, unknown>> = [];
    await sweepExpired(server.store, { log: (fields) => again.push(fields) });
    expect(again.filter((l) => l.organisation === org.name)).toEqual([]);
  });

  it('keeps the recording rows of an organisation that keeps recordings, but removes their runs', async ({
    server,
    orgWith,
    recordingWithRun,
    exists,
    runCount,
  }) => {
    const org = await orgWith(3, true);
    const old = await recordingWithRun(org.token, 'kept', 4, 'kept');
    // The dry run predicts what the sweep then does, emptied recordings and expired sessions included.
    const now = Date.now();
    const dry = await sweepExpired(server.store, { dryRun: true, now });
    const real = await sweepExpired(server.store, { now });
    const counts = ({ runsRemoved, recordingsRemoved, recordingsEmptied, sessionsRemoved }: typeof real) => ({
      runsRemoved,
      recordingsRemoved,
      recordingsEmptied,
      sessionsRemoved,
    });
    expect(counts(dry)).toEqual(counts(real));
    expect(real.recordingsEmptied).toBeGreaterThanOrEqual(1);
    expect(await exists(org.token, old)).toBe(true);
    expect(await runCount(org.id)).toBe(0);
    const read = await getJson(`${server.url}/recordings/${encodeURIComponent(old)}`, bearer(org.token));
    expect(read.body.data.runs).toEqual([]);
    expect(
      (await search(server.url, org.token, { region: { x: 0, y: 0, w: 1, h: 1 }, labels: ['kept'] })).body.data
        .recordings,
    ).toEqual([]);
  });

  it('removes expired sessions', async ({ server, orgWith }) => {
    const org = await orgWith(30);
    const user = await createUser(
      server.store.db,
      org.id,
      `u-${process.pid}-${++n}`,
      'correct horse battery',
      'viewer',
    );
    const session = await createSession(server.store.db, user.id, org.id, 3600);
    const result = await sweepExpired(server.store, { now: Date.now() + 2 * 3600 * 1000 });
    expect(result.sessionsRemoved).toBeGreaterThanOrEqual(1);
    expect((await getJson(`${server.url}/recordings`, bearer(session.token))).status).toBe(401);
  });

  it('removes login counters whose window has passed, and keeps the live ones', async ({ server }) => {
    for (const username of [`nobody-${n}-a`, `nobody-${n}-b`]) {
      expect((await postJson(`${server.url}/login`, { username, password: 'not-the-password' })).status).toBe(401);
    }
    const db = server.store.db;
    const count = async () =>
      Number((await db.selectFrom('login_failures').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    // Two usernames and the client's address.
    expect(await count()).toBeGreaterThanOrEqual(3);
    // The server's LOGIN_WINDOW_SECONDS (the default, 900) was stored with each counter: a sweeper configured
    // otherwise (a CLI on a cron) goes by it. A window that has just passed still counts as the previous one.
    const windowSeconds = server.config.login.windowSeconds;
    expect((await sweepExpired(server.store, {})).loginCountersRemoved).toBe(0);
    expect(
      (await sweepExpired(server.store, { now: Date.now() + (windowSeconds + 1) * 1000 })).loginCountersRemoved,
    ).toBe(0);
    expect(await count()).toBeGreaterThanOrEqual(3);
    const later = await sweepExpired(server.store, { now: Date.now() + (2 * windowSeconds + 1) * 1000 });
    expect(later.loginCountersRemoved).toBeGreaterThanOrEqual(3);
    expect(await count()).toBe(0);
  });

  it('lets two sweepers run at once: each run is removed once and neither fails', async ({
    server,
    orgWith,
    runCount,
  }) => {
    const org = await orgWith(1);
    const start = Math.floor(Date.now() / 1000) - 5 * DAY;
    const total = 60;
    for (let i = 0; i < total; i++) {
      const mediaKey = `twin/${start + i}_c${i}.mp4`;
      expect((await postJson(`${server.url}/recordings`, { mediaKey }, bearer(org.token))).status).toBe(201);
      await postRun(server.url, org.token, runAt(mediaKey, 'r1', [{ cx: 10, cy: 10 }]));
      await postRun(server.url, org.token, runAt(mediaKey, 'r2', [{ cx: 90, cy: 90 }]));
    }
    // Two instances: two `sightline admin sweep` processes on the same database, at the same time.
    const [a, b] = await Promise.all(
      [1, 2].map(() => spawnCli(['admin', 'sweep', '--json', '--batch-size', '7'], server.testStore.location)),
    );
    for (const r of [a!, b!]) expect(r.code, r.stderr).toBe(0);
    const [ra, rb] = [JSON.parse(a!.stdout), JSON.parse(b!.stdout)];
    expect(ra.runsRemoved + rb.runsRemoved).toBe(2 * total);
    expect(ra.recordingsRemoved + rb.recordingsRemoved).toBe(total);
    expect(await runCount(org.id)).toBe(0);
  });
});
