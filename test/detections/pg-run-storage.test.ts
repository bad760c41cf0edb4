// Where PostgreSQL keeps a run's boxes (migration 007): a small run's row stays whole in its heap page, a large
// run's boxes go out of line (uncompressed, STORAGE EXTERNAL) as before; both read back as they were posted.
import { sql } from 'kysely';
import { describe, expect } from 'vitest';
import { serverTest } from '../support/fixtures.js';
import { bearer, getJson, postJson } from '../support/server.js';

/** `tracks` × `boxes` normalized boxes with confidence and timestampMs, six decimals as producers print them. */
function run(mediaKey: string, runId: string, tracks: number, boxes: number) {
  const r6 = (v: number) => Math.round(v * 1e6) / 1e6;
  return {
    mediaKey,
    schemaVersion: '1.0',
    source: { kind: 'model', name: 'toast-probe', runId },
    coordinateSpace: 'normalized',
    tracks: Array.from({ length: tracks }, (_, t) => ({
      id: `t${t}`,
      label: 'person',
      boxes: Array.from({ length: boxes }, (_, b) => ({
        frame: b,
        x: r6(0.1 + ((t * 7919 + b * 104_729) % 1000) / 3000),
        y: r6(0.2 + ((t * 31 + b * 17) % 997) / 3000),
        w: r6(0.05 + (b % 13) / 1000),
        h: r6(0.07 + (t % 11) / 1000),
        confidence: r6((((t + 1) * (b + 3)) % 1000) / 1000),
        timestampMs: b * 40,
      })),
    })),
  };
}

const it = serverTest('pg')
  .extend('toastRows', ({ server }) => async () => {
    const db = server.store.db;
    const { toast } = (
      await sql<{
        toast: string;
      }>`select reltoastrelid::regclass::text as toast from pg_class where oid = 'runs'::regclass`.execute(db)
    ).rows[0]!;
    return Number((await sql<{ n: string }>`select count(*) as n from ${sql.raw(toast)}`.execute(db)).rows[0]!.n);
  })
  .extend(
    'boxesSize',
    ({ server }) =>
      async (runId: string) =>
        Number(
          (
            await sql<{ size: number }>`select pg_column_size(boxes) as size from runs where run_id = ${runId}`.execute(
              server.store.db,
            )
          ).rows[0]!.size,
        ),
  );

describe.skipIf(!process.env.TEST_DATABASE_URL)('run rows on PostgreSQL', () => {
  it('keeps a small run (300 boxes) in its heap row, and moves a large one out of line', async ({
    server,
    org,
    toastRows,
    boxesSize,
  }) => {
    const small = run(org.recording.mediaKey, 'small', 10, 30);
    expect((await postJson(`${server.url}/detections`, small, bearer(org.token))).status).toBe(201);
    // Past PostgreSQL's default toast target (2032 bytes): without the table's own target it would be out of line.
    expect(await boxesSize('small')).toBeGreaterThan(2032);
    expect(await toastRows()).toBe(0);

    const large = run(org.recording.mediaKey, 'large', 100, 30);
    expect((await postJson(`${server.url}/detections`, large, bearer(org.token))).status).toBe(201);
    expect(await boxesSize('large')).toBeGreaterThan(8160);
    expect(await toastRows()).toBeGreaterThan(0);

    for (const [runId, posted] of [
      ['small', small],
      ['large', large],
    ] as const) {
      const got = await getJson(`${server.url}/detections/${runId}`, bearer(org.token));
      expect(got.status).toBe(200);
      expect(got.body.data.tracks.map((t: { id: string; boxes: unknown[] }) => ({ id: t.id, boxes: t.boxes }))).toEqual(
        posted.tracks.map((t) => ({ id: t.id, boxes: t.boxes })),
      );
    }
  });
});
