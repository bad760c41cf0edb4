// An evaluation outlives the instance that took it: killed with SIGKILL while the job is its own (lease held and
// renewed), the job is resumed by a second instance on the same store once the lease lapses, and completes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRecording, type Recording } from '../../src/recordings/queries.js';
import { exited, spawnServer } from '../support/cli.js';
import { bearer, getJson, postJson, type SeededOrg, seedOrg } from '../support/server.js';
import { createTestStore, DIALECTS, type TestStore } from '../support/store.js';
import { engineFigures, groundTruth, prediction } from './helpers.js';

const LEASE = { EVALUATION_LEASE_MS: '600', EVALUATION_SYNC_MS: '0', SWEEP_INTERVAL_SECONDS: '0' };

describe.each(DIALECTS)('an evaluation whose instance is killed, on %s', (dialect) => {
  let ts: TestStore;
  let org: SeededOrg;
  let rec: Recording;
  beforeAll(async () => {
    ts = await createTestStore(dialect);
    org = await seedOrg(ts.store);
    rec = await insertRecording(ts.store.db, org.orgId, {
      mediaKey: 'resume/1700000000_cam.mp4',
      startTimestamp: 1_700_000_000,
      frameCount: 60,
      width: 1280,
      height: 720,
    });
  });
  afterAll(async () => {
    await ts?.destroy();
  });

  const lease = async (id: string) =>
    ts.store.db
      .selectFrom('evaluations')
      .select(['status', 'lease_owner', 'lease_expires_at', 'attempts'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('is resumed by another instance after SIGKILL and completes with the engine figures', async () => {
    // The first instance holds its evaluations without computing them (a test-only setting): the kill always comes
    // while the job is its own, whatever the machine's speed.
    const first = await spawnServer(ts.location, { ...LEASE, SIGHTLINE_TEST_HOLD_EVALUATIONS: '1' });
    const gt = groundTruth('gt', 'annotators');
    const pred = prediction(gt, 'p', 'yolo');
    for (const body of [gt, pred]) {
      const res = await postJson(`${first.url}/detections`, { ...body, mediaKey: rec.mediaKey }, bearer(org.token));
      expect(res.status).toBe(201);
    }
    const posted = await postJson(
      `${first.url}/evaluations`,
      { mediaKey: rec.mediaKey, groundTruth: 'gt', predictions: ['p'] },
      bearer(org.token),
    );
    expect(posted.status).toBe(202);
    const id = posted.body.data.id as string;
    const taken = await lease(id);
    expect(taken).toMatchObject({ status: 'running', attempts: 1 });
    // The first instance renews its lease: the job is alive there, not merely waiting.
    const deadline = Date.now() + 10_000;
    while ((await lease(id)).lease_expires_at === taken.lease_expires_at && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(Number((await lease(id)).lease_expires_at)).toBeGreaterThan(Number(taken.lease_expires_at));

    first.child.kill('SIGKILL');
    await exited(first.child);
    expect(await lease(id)).toMatchObject({ status: 'running', lease_owner: taken.lease_owner });

    const second = await spawnServer(ts.location, LEASE);
    try {
      let data = (await getJson(`${second.url}/evaluations/${id}`, bearer(org.token))).body.data;
      const until = Date.now() + 20_000;
      while (data.status === 'running' && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 50));
        data = (await getJson(`${second.url}/evaluations/${id}`, bearer(org.token))).body.data;
      }
      expect(data.status, data.error).toBe('complete');
      const done = await lease(id);
      expect(done.attempts).toBe(2);
      expect(done.lease_owner).toBeNull();
      const expected = engineFigures([{ name: rec.mediaKey, gt, pred, size: rec }]);
      expect(data.results[0].combined).toEqual(expected.combined);
      expect(data.stale).toBe(false);
    } finally {
      second.child.kill('SIGTERM');
      await exited(second.child);
    }
  });
});
