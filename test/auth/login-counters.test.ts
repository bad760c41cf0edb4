// The login counters in the database: each rolls by the window it was counted with, so a changed
// LOGIN_WINDOW_SECONDS (a restart, a rolling deploy with instances set otherwise) neither revives counters the old
// window had let go of nor cuts a window short.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { claimAttempt, unclaimAttempt } from '../../src/auth/queries.js';
import { createTestStore, DIALECTS, type TestStore } from '../support/store.js';

describe.each(DIALECTS)('login counters on %s', (dialect) => {
  let ts: TestStore;
  beforeAll(async () => {
    ts = await createTestStore(dialect);
  });
  afterAll(async () => {
    await ts.destroy();
  });

  const t0 = 1_800_000_000_000;

  it('a counter two of its own (short) windows old starts afresh under a longer window', async () => {
    await claimAttempt(ts.store.db, ['short'], 5, t0);
    await claimAttempt(ts.store.db, ['short'], 5, t0 + 1000);
    const after = (await claimAttempt(ts.store.db, ['short'], 600, t0 + 11_000)).get('short')!;
    expect(after).toMatchObject({ failures: 0, previous: 0, windowStart: t0 + 11_000, windowSeconds: 600 });
  });

  it('a window being counted keeps its length when the setting changes, and the next window takes the new one', async () => {
    await claimAttempt(ts.store.db, ['long'], 600, t0);
    const during = (await claimAttempt(ts.store.db, ['long'], 5, t0 + 10_000)).get('long')!;
    expect(during).toMatchObject({ failures: 1, previous: 0, windowStart: t0, windowSeconds: 600 });
    const next = (await claimAttempt(ts.store.db, ['long'], 5, t0 + 700_000)).get('long')!;
    // Under its new length the next window starts now: following the old one, it would already be over, and the
    // next claim would forget this one.
    expect(next).toMatchObject({ failures: 0, previous: 2, windowStart: t0 + 700_000, windowSeconds: 5 });
    const again = (await claimAttempt(ts.store.db, ['long'], 5, t0 + 701_000)).get('long')!;
    expect(again).toMatchObject({ failures: 1, previous: 2, windowStart: t0 + 700_000 });
  });

  it('an attempt taken back leaves no empty counter behind, and one that counts keeps its counter', async () => {
    const rows = async (key: string) =>
      (await sql<{ failures: number }>`select failures from login_failures where key = ${key}`.execute(ts.store.db))
        .rows;
    // A thousand refused attempts under made-up usernames kept a thousand rows of nothing.
    await claimAttempt(ts.store.db, ['made-up'], 900, t0);
    await unclaimAttempt(ts.store.db, ['made-up']);
    expect(await rows('made-up')).toEqual([]);
    // A real failure stays counted when a later attempt is taken back.
    await claimAttempt(ts.store.db, ['real'], 900, t0);
    await claimAttempt(ts.store.db, ['real'], 900, t0 + 1000);
    await unclaimAttempt(ts.store.db, ['real']);
    expect((await rows('real')).map((r) => Number(r.failures))).toEqual([1]);
  });
});
