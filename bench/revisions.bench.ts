// Revisions: PATCH of one track in a 5000-track and a 500-track run, and the bytes each kind of revision costs.
//
// Where a PATCH of one track of a 5000-track run went while its boxes were one blob per run (shares of the handler's
// time, measured with marks around each step on a loaded machine; the 500-track run took a tenth of it):
//   SQLite: writing the 13 MiB blob back (UPDATE runs) 65 %, reading it 13 %, the centroids of the edited track's
//   label (a quarter of the run's tracks) 15 %, decoding, splicing, the delta and copying the run 7 %.
//   PostgreSQL: the UPDATE with its TOAST write 52 %, the binary COPY read 15 %, the label's centroids 10 %, encoding
//   the columns 6 %, decoding 5 %; the revision delta, the cells and the JSON answer under 2 % each.
// So the cost is the run's bytes (read, decoded, encoded, written) and a label's centroids, not the delta.
// In segments, a patch still read every segment's track headers and rewrote the whole centroid row of each changed
// label (3 ms and 20 ms of 60 ms on PostgreSQL, 5000 tracks, loaded machine); with the track index, the segments'
// track counts and centroid rows per segment, every step of a one-track patch takes the same time at 500 and 5000
// tracks (the largest on PostgreSQL: the UPDATE, the segment write and the segment read, about 1.2 ms each).
import type { Kysely } from 'kysely';
import type { Database } from '../src/db/schema.js';
import type { DialectName } from '../src/db/store.js';
import { spawnServer } from '../test/support/cli.js';
import { seedOrg } from '../test/support/server.js';
import { createTestStore } from '../test/support/store.js';
import { largeRun } from './detection-workloads.js';
import { fmt, median, percentile, type Row, type Suite } from './harness.js';
import { request } from './http-client.js';
import { stop } from './processes.js';

const PATCHES = Number(process.env.BENCH_RUNS ?? 30);

/**
 * Bytes a stored revision row holds in its content columns (its header fields are a few hundred more), with the
 * segments a whole revision of a run in segments keeps under its number.
 */
async function revisionBytes(db: Kysely<Database>, runId: string, whole: number): Promise<number[]> {
  const rows = await db
    .selectFrom('run_revisions')
    .innerJoin('runs', 'runs.id', 'run_revisions.run_pk')
    .select([
      'run_revisions.run_pk',
      'run_revisions.revision',
      'run_revisions.tracks',
      'run_revisions.boxes',
      'run_revisions.positions',
      'run_revisions.added',
    ])
    .where('runs.run_id', '=', runId)
    .where('run_revisions.whole', '=', whole)
    .execute();
  return Promise.all(
    rows.map(
      async (r) =>
        Buffer.byteLength(r.tracks) +
        r.boxes.length +
        Buffer.byteLength(r.positions ?? '') +
        Buffer.byteLength(r.added ?? '') +
        (await segmentBytes(db, r.run_pk, r.revision)),
    ),
  );
}

/** Bytes of a run's segments of one revision (0: the current content). */
async function segmentBytes(db: Kysely<Database>, runPk: string, revision: number): Promise<number> {
  const rows = await db
    .selectFrom('run_segments')
    .select(['tracks', 'boxes'])
    .where('run_pk', '=', runPk)
    .where('revision', '=', revision)
    .execute();
  return rows.reduce((sum, r) => sum + Buffer.byteLength(r.tracks) + r.boxes.length, 0);
}

async function benchDialect(dialect: DialectName): Promise<Row[]> {
  const ts = await createTestStore(dialect);
  const now = Math.floor(Date.now() / 1000);
  const org = await seedOrg(ts.store, { mediaKey: `bench/${now}_cam.mp4`, startTimestamp: now });
  const server = await spawnServer(ts.location, {
    LOG_LEVEL: 'error',
    SWEEP_INTERVAL_SECONDS: '0',
    RUN_REVISIONS_KEPT: String(PATCHES + 5),
  });
  const auth = { authorization: `Bearer ${org.token}`, 'content-type': 'application/json' };
  const rows: Row[] = [];
  try {
    for (const tracks of [5000, 500]) {
      const runId = `patched-${tracks}`;
      const run = largeRun(org.recording.mediaKey, runId, 'normalized', tracks);
      const posted = await request(`${server.url}/detections`, 'POST', auth, Buffer.from(JSON.stringify(run)));
      if (posted.status !== 201) throw new Error(`POST answered ${posted.status}`);
      // One track in the middle of the run, moved a little each time: 50 boxes, as every track of the run.
      const edited = run.tracks[Math.floor(tracks / 2)]!;
      const times: number[] = [];
      for (let i = 0; i < PATCHES; i++) {
        const boxes = edited.boxes.map((b) => ({ ...b, x: Math.round(((b.x ?? 0) + 0.001 * (i + 1)) * 1e6) / 1e6 }));
        const body = Buffer.from(JSON.stringify({ baseRevision: i + 1, tracks: { upsert: [{ ...edited, boxes }] } }));
        const start = process.hrtime.bigint();
        const res = await request(`${server.url}/detections/${runId}`, 'PATCH', auth, body);
        times.push(Number(process.hrtime.bigint() - start) / 1e6);
        if (res.status !== 200) throw new Error(`PATCH answered ${res.status}`);
      }
      const deltas = await revisionBytes(ts.store.db, runId, 0);
      const current = await ts.store.db
        .selectFrom('runs')
        .select(['id', 'tracks', 'boxes'])
        .where('run_id', '=', runId)
        .executeTakeFirstOrThrow();
      const runBytes =
        Buffer.byteLength(current.tracks) + current.boxes.length + (await segmentBytes(ts.store.db, current.id, 0));
      rows.push({
        dialect,
        run: `${tracks} tracks × 50 boxes`,
        measure: 'first PATCH after the POST (splits the run into segments)',
        median: `${fmt(times[0]!)} ms`,
        p90: '',
        target: 'once per posted run',
      });
      rows.push({
        dialect,
        run: `${tracks} tracks × 50 boxes`,
        measure: 'PATCH of one track (50 boxes)',
        median: `${fmt(median(times.slice(1)))} ms`,
        p90: `${fmt(percentile(times.slice(1), 90))} ms`,
        target: '≤ 50 ms, independent of the run size',
      });
      rows.push({
        dialect,
        run: `${tracks} tracks × 50 boxes`,
        measure: 'bytes one revision costs (one-track edit, median)',
        median: `${median(deltas)} B`,
        p90: `${percentile(deltas, 90)} B`,
        target: `the whole run: ${runBytes} B`,
      });
    }
    // A replace by POST keeps the content it replaces whole.
    const run = largeRun(org.recording.mediaKey, 'patched-5000', 'normalized', 5000);
    const again = await request(`${server.url}/detections`, 'POST', auth, Buffer.from(JSON.stringify(run)));
    if (again.status !== 200) throw new Error(`POST answered ${again.status}`);
    const whole = await revisionBytes(ts.store.db, 'patched-5000', 1);
    rows.push({
      dialect,
      run: '5000 tracks × 50 boxes',
      measure: 'bytes one revision costs (replace by POST)',
      median: `${median(whole)} B`,
      p90: '',
      target: 'the whole run',
    });
  } finally {
    await stop(server.child);
    await ts.destroy();
  }
  return rows;
}

export const suite: Suite = {
  name: 'revisions',
  title: 'Run revisions and track-level patches',
  baseline:
    'Runs of `largeRun` (bench/detection-workloads.ts): 5000 and 500 tracks × 50 boxes with confidence and ' +
    `timestampMs. ${PATCHES} PATCHes in a row, each moving the same track (its 50 boxes) against the current ` +
    'revision, timed over HTTP from the client (keep-alive); the first splits the posted run into segments and is ' +
    'reported apart, the median is of the others. The bytes are those of the stored revision rows’ content ' +
    'columns (tracks, boxes, positions, added) and of the segments a whole revision keeps. No ratio: the targets are absolute. The pg rows need `TEST_DATABASE_URL`.',
  async run() {
    const rows: Row[] = [];
    rows.push(...(await benchDialect('sqlite')));
    if (process.env.TEST_DATABASE_URL) rows.push(...(await benchDialect('pg')));
    return rows;
  },
};
