// Detections: large POST vs a bare JSON.parse route, large GET vs JSON.stringify, small POST throughput.
import { createTestStore } from '../test/support/store.js';
import { seedOrg } from '../test/support/server.js';
import { insertRecording } from '../src/recordings/queries.js';
import { spawnServer } from '../test/support/cli.js';
import type { DialectName } from '../src/db/store.js';
import { fmt, median, ratio, timeIt, type Row, type Suite } from './harness.js';
import { request, loadAgainst } from './http-client.js';
import { largeRun, smallRun } from './detection-workloads.js';
import { peakRssMiB, startBareServer, stop } from './processes.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

async function benchDialect(dialect: DialectName, bareUrl: string, bareFloor: Map<string, number>): Promise<Row[]> {
  const ts = await createTestStore(dialect);
  const now = Math.floor(Date.now() / 1000);
  const org = await seedOrg(ts.store, { mediaKey: `bench/${now}_cam.mp4`, startTimestamp: now });
  const server = await spawnServer(ts.location, { LOG_LEVEL: 'error', SWEEP_INTERVAL_SECONDS: '0' });
  const auth = { authorization: `Bearer ${org.token}`, 'content-type': 'application/json' };
  const rows: Row[] = [];
  try {
    for (const space of ['normalized', 'pixel'] as const) {
      const body = Buffer.from(JSON.stringify(largeRun(org.recording.mediaKey, `large-${space}`, space)));
      const floorKey = `large-${space}`;
      if (!bareFloor.has(floorKey)) {
        const floor: number[] = [];
        await request(`${bareUrl}/parse`, 'POST', auth, body);
        for (let i = 0; i < RUNS; i++) floor.push(await timeIt(() => request(`${bareUrl}/parse`, 'POST', auth, body)));
        bareFloor.set(floorKey, median(floor));
      }
      const ours: number[] = [];
      let status = 0;
      for (let i = 0; i < RUNS + 1; i++) {
        const t = await timeIt(async () => {
          status = (await request(`${server.url}/detections`, 'POST', auth, body)).status;
        });
        if (status >= 300) throw new Error(`large POST answered ${status}`);
        if (i > 0) ours.push(t); // the first one creates the run; the rest replace it
      }
      const floor = bareFloor.get(floorKey)!;
      rows.push({
        dialect,
        measure: `large POST (${space}, ${(body.length / 2 ** 20).toFixed(1)} MiB)`,
        'median ms': fmt(median(ours)),
        'floor ms': fmt(floor),
        ratio: ratio(median(ours), floor),
        target: '≤ 1.5×',
      });
    }
    // GET of the stored large normalized run, against JSON.stringify of the same run in this process.
    const url = `${server.url}/detections/large-normalized`;
    const first = await request(url, 'GET', auth, undefined, true);
    const parsed = JSON.parse(first.text!);
    const gets: number[] = [];
    const strs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      gets.push(await timeIt(() => request(url, 'GET', auth)));
      strs.push(await timeIt(() => JSON.stringify(parsed)));
    }
    rows.push({
      dialect,
      measure: `large GET (${(first.bytes / 2 ** 20).toFixed(1)} MiB)`,
      'median ms': fmt(median(gets)),
      'floor ms': fmt(median(strs)),
      ratio: ratio(median(gets), median(strs)),
      target: '≤ 1.5× JSON.stringify',
    });
    rows.push({
      dialect,
      measure: 'server peak RSS (MiB)',
      'median ms': fmt(peakRssMiB(server.child.pid!), 0),
      target: '≤ 1024',
    });

    // Small runs as a fleet sends them: distinct runIds over 8 recordings (a new run each time), and the
    // worst case too: every connection re-posting one runId, all queueing on that run's row lock.
    const keys = [org.recording.mediaKey];
    for (let i = 1; i < 8; i++)
      keys.push(
        (await insertRecording(ts.store.db, org.orgId, { mediaKey: `bench/${now}_cam${i}.mp4`, startTimestamp: now }))
          .mediaKey,
      );
    const fleet = Array.from({ length: 20_000 }, (_, i) =>
      JSON.stringify(smallRun(keys[i % keys.length]!, `small-${i}`)),
    );
    const same = JSON.stringify(smallRun(org.recording.mediaKey, 'small'));
    const cursor = { n: 0 };
    for (const [label, options] of [
      ['new runs, 8 recordings', { bodies: fleet, cursor }],
      ['one runId re-posted', { body: same }],
    ] as const) {
      const service = {
        url: `${server.url}/detections`,
        options: { method: 'POST' as const, headers: auth, ...options },
      };
      // The floor only parses: its own cursor, so it never uses up the service's fresh runIds.
      const floor = {
        url: `${bareUrl}/parse`,
        options: { method: 'POST' as const, headers: auth, ...options, cursor: { n: 0 } },
      };
      const { service: res, floor: bare, ratio: r } = await loadAgainst(service, floor, SECONDS);
      rows.push({
        dialect,
        measure: `small POST req/s, 32 conn (${label})`,
        'median ms': `${fmt(res.rps, 0)} req/s (p50 ${res.p50} ms, p99 ${res.p99} ms)`,
        'floor ms': `${fmt(bare.rps, 0)} req/s`,
        ratio: `${r.toFixed(2)}×`,
        target: `≥ 0.5×, errors ${res.errors + res.non2xx}`,
      });
    }
  } finally {
    await stop(server.child);
    await ts.destroy();
  }
  return rows;
}

export const suite: Suite = {
  name: 'detections',
  title: 'Detections',
  baseline:
    'Workloads: `large` = 5000 tracks × 50 boxes with confidence and timestampMs, `small` = 10 tracks × 30 boxes. ' +
    'Each ratio is against a floor measured in the same run: for a POST, a bare Fastify route receiving the same ' +
    'bytes and running `JSON.parse`; for a GET, `JSON.stringify` of the same run; for throughput (autocannon, 32 ' +
    'connections, alternating rounds), the bare route with the same bodies. "New runs" spreads distinct runIds over ' +
    '8 recordings; "one runId re-posted" sends one body again and again. The pg rows need `TEST_DATABASE_URL`.',
  async run() {
    const bare = await startBareServer();
    const floor = new Map<string, number>();
    const rows: Row[] = [];
    try {
      rows.push(...(await benchDialect('sqlite', bare.url, floor)));
      if (process.env.TEST_DATABASE_URL) rows.push(...(await benchDialect('pg', bare.url, floor)));
    } finally {
      await stop(bare.child);
    }
    return rows;
  },
};
