// Token and recording lookups on PostgreSQL share queries under load (lookup-batcher.ts): each request must still
// get exactly its own answer, and nothing of another organisation, whatever it was batched with.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccessToken, findPrincipal, revokeAccessToken } from '../../src/auth/queries.js';
import { insertRecording, resolveTarget } from '../../src/recordings/queries.js';
import { DIALECTS, createTestStore, type TestStore } from '../support/store.js';
import { seedOrg, type SeededOrg } from '../support/server.js';

describe.each(DIALECTS)('concurrent lookups on %s', (dialect) => {
  let ts: TestStore;
  let a: SeededOrg;
  let b: SeededOrg;
  beforeAll(async () => {
    ts = await createTestStore(dialect);
    a = await seedOrg(ts.store, { mediaKey: 'shared/1700000000_cam.mp4', analysisId: 'analysis-a' });
    b = await seedOrg(ts.store, { mediaKey: 'only-b/1700000000_cam.mp4', analysisId: 'analysis-b' });
  });
  afterAll(async () => {
    await ts.destroy();
  });

  it('answers each of 300 concurrent token lookups (access tokens and sessions: valid, revoked, expired, unknown) with its own principal', async () => {
    const db = ts.store.db;
    const live = await Promise.all(
      Array.from({ length: 20 }, (_, i) => createAccessToken(db, i % 2 ? a.orgId : b.orgId, `live-${i}`, null)),
    );
    const revoked = await createAccessToken(db, a.orgId, 'revoked', null);
    await revokeAccessToken(db, a.orgId, revoked.id);
    const expired = await createAccessToken(db, b.orgId, 'expired', Date.now() - 1000);
    const cases = Array.from({ length: 300 }, (_, i) => {
      const k = i % 25;
      if (k === 23) return { token: a.sessions.viewer, orgId: a.orgId };
      if (k === 24) return { token: b.sessions.owner, orgId: b.orgId };
      if (k < 20) return { token: live[k]!.token, orgId: k % 2 ? a.orgId : b.orgId };
      if (k === 20) return { token: revoked.token, orgId: undefined };
      if (k === 21) return { token: expired.token, orgId: undefined };
      return { token: `${live[0]!.token.slice(0, -4)}zzzz`, orgId: undefined };
    });
    const principals = await Promise.all(cases.map((c) => findPrincipal(db, c.token)));
    principals.forEach((p, i) => {
      expect(p?.orgId).toBe(cases[i]!.orgId);
    });
  });

  it('resolves each of 300 concurrent recording lookups inside its own organisation only', async () => {
    const db = ts.store.db;
    // The same media key in both organisations, and a key only b has.
    const twin = await insertRecording(db, b.orgId, {
      mediaKey: 'shared/1700000000_cam.mp4',
      startTimestamp: 1_700_000_000,
    });
    const cases = Array.from(
      { length: 300 },
      (_, i) =>
        [
          { orgId: a.orgId, target: { mediaKey: 'shared/1700000000_cam.mp4' }, id: a.recording.id },
          { orgId: b.orgId, target: { mediaKey: 'shared/1700000000_cam.mp4' }, id: twin.id },
          { orgId: a.orgId, target: { mediaKey: 'only-b/1700000000_cam.mp4' }, id: undefined },
          { orgId: b.orgId, target: { mediaKey: 'only-b/1700000000_cam.mp4' }, id: b.recording.id },
          { orgId: a.orgId, target: { analysisId: 'analysis-a' }, id: a.recording.id },
          { orgId: a.orgId, target: { analysisId: 'analysis-b' }, id: undefined },
          { orgId: b.orgId, target: { analysisId: 'analysis-b' }, id: b.recording.id },
          { orgId: a.orgId, target: { mediaKey: 'shared/1700000000_cam.mp4\nx' }, id: undefined },
        ][i % 8]!,
    );
    const found = await Promise.all(cases.map((c) => resolveTarget(db, c.orgId, c.target)));
    found.forEach((r, i) => {
      expect(r?.id).toBe(cases[i]!.id);
    });
  });
});
