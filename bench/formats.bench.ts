// Formats: importing a large MOT and CVAT file against POST /detections of the same run as JSON, exporting the
// largest run in every format (time to first byte, throughput), and a gzip POST against the same body sent plain.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createTestStore } from '../test/support/store.js';
import { seedOrg } from '../test/support/server.js';
import { spawnServer } from '../test/support/cli.js';
import type { DialectName } from '../src/db/store.js';
import { formatNames } from '../src/formats/registry.js';
import { findRunsByRunId } from '../src/detections/queries.js';
import { fmt, median, ratio, timeIt, type Row, type Suite } from './harness.js';
import { request } from './http-client.js';
import { peakRssMiB, startBenchServer, stop } from './processes.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
/** Exports are short and their first byte is a few tens of ms, which the machine's noise moves by as much: more of them. */
const EXPORT_RUNS = Number(process.env.BENCH_EXPORT_RUNS ?? 9);
const W = 1920;
const H = 1080;
const TRACKS = 5000;
const BOXES = 50;

function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
}

interface Box {
  frame: number;
  x: number;
  y: number;
  w: number;
  h: number;
  confidence: number;
}

/**
 * 5000 tracks × 50 boxes on consecutive frames, pixel boxes at full double precision (as a tracker that prints
 * floats with repr writes them): 250 000 MOT rows of about 25 MiB. `decimals` rounds the pixels (CVAT writes 2).
 */
export function tracks(decimals?: number): Box[][] {
  const rand = rng(7);
  const round = (v: number) => (decimals === undefined ? v : Math.round(v * 10 ** decimals) / 10 ** decimals);
  const out: Box[][] = [];
  for (let t = 0; t < TRACKS; t++) {
    let x = rand() * 0.8 * W;
    let y = rand() * 0.8 * H;
    const w = (0.02 + rand() * 0.15) * W;
    const h = (0.02 + rand() * 0.15) * H;
    const start = Math.floor(rand() * 5000);
    const boxes: Box[] = [];
    for (let b = 0; b < BOXES; b++) {
      x = Math.min(0.8 * W, Math.max(0, x + (rand() - 0.5) * 20));
      y = Math.min(0.8 * H, Math.max(0, y + (rand() - 0.5) * 10));
      boxes.push({
        frame: start + b,
        x: round(x),
        y: round(y),
        w: round(w),
        h: round(h),
        confidence: Math.round((0.3 + rand() * 0.7) * 1e6) / 1e6,
      });
    }
    out.push(boxes);
  }
  return out;
}

/** MOT results rows in frame order, as trackers write them. */
export function motFile(run: Box[][]): Buffer {
  const rows: Array<[number, number, Box]> = [];
  run.forEach((boxes, t) => {
    for (const b of boxes) rows.push([b.frame, t + 1, b]);
  });
  rows.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return Buffer.from(
    rows.map(([f, id, b]) => `${f + 1},${id},${b.x},${b.y},${b.w},${b.h},${b.confidence},-1,-1,-1\n`).join(''),
  );
}

/** CVAT for video 1.1, as CVAT writes it: two decimals, an outside box after each track's last one. */
export function cvatFile(run: Box[][]): Buffer {
  const parts = [
    '<?xml version="1.0" encoding="utf-8"?>\n<annotations>\n<version>1.1</version>\n<meta><task><size>5050</size>' +
      '<mode>interpolation</mode><start_frame>0</start_frame><stop_frame>5049</stop_frame>' +
      `<labels><label><name>person</name><type>rectangle</type></label></labels>` +
      `<original_size><width>${W}</width><height>${H}</height></original_size></task></meta>\n`,
  ];
  const box = (b: Box, outside: number) =>
    `<box frame="${b.frame}" keyframe="1" outside="${outside}" occluded="0" xtl="${b.x.toFixed(2)}" ytl="${b.y.toFixed(2)}" xbr="${(b.x + b.w).toFixed(2)}" ybr="${(b.y + b.h).toFixed(2)}" z_order="0"></box>\n`;
  run.forEach((boxes, t) => {
    let text = `<track id="${t}" label="person" source="manual">\n`;
    for (const b of boxes) text += box(b, 0);
    text += box({ ...boxes.at(-1)!, frame: boxes.at(-1)!.frame + 1 }, 1);
    parts.push(`${text}</track>\n`);
  });
  parts.push('</annotations>\n');
  return Buffer.from(parts.join(''));
}

/** The same boxes as the run JSON of POST /detections (pixel x, y, w, h). */
export function jsonRun(run: Box[][], mediaKey: string, runId: string, corners = false): Buffer {
  return Buffer.from(
    JSON.stringify({
      mediaKey,
      schemaVersion: '1.0',
      source: { kind: 'model', name: 'bench-tracker', runId },
      coordinateSpace: 'pixel',
      media: { width: W, height: H },
      tracks: run.map((boxes, t) => ({
        id: String(t + 1),
        label: 'person',
        boxes: boxes.map((b) =>
          corners
            ? { frame: b.frame, x1: b.x, y1: b.y, x2: +(b.x + b.w).toFixed(2), y2: +(b.y + b.h).toFixed(2) }
            : { frame: b.frame, x: b.x, y: b.y, w: b.w, h: b.h, confidence: b.confidence },
        ),
      })),
    }),
  );
}

/** Peak RSS from here on: VmHWM is reset (clear_refs 5) so that each measure sees only its own peak. */
function resetPeak(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** CPU time the process has used, in ms (utime + stime of /proc/<pid>/stat, 10 ms ticks). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A GET read to its end: time to the first byte of the body, the total time, the body's size. */
function timedGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ ttfb: number; total: number; bytes: number; status: number }> {
  const start = process.hrtime.bigint();
  const ms = () => Number(process.hrtime.bigint() - start) / 1e6;
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let ttfb = -1;
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          if (ttfb < 0) ttfb = ms();
          bytes += c.length;
        });
        res.on('end', () => resolve({ ttfb, total: ms(), bytes, status: res.statusCode! }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

async function benchDialect(dialect: DialectName): Promise<Row[]> {
  const ts = await createTestStore(dialect);
  const now = Math.floor(Date.now() / 1000);
  const org = await seedOrg(ts.store, {
    mediaKey: `bench/${now}_formats.mp4`,
    startTimestamp: now,
    width: W,
    height: H,
    frameCount: 5051,
  });
  const server = await spawnServer(ts.location, { LOG_LEVEL: 'error', SWEEP_INTERVAL_SECONDS: '0' });
  const pid = server.child.pid!;
  const auth = { authorization: `Bearer ${org.token}` };
  const key = encodeURIComponent(org.recording.mediaKey);
  const rows: Row[] = [];
  const mib = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;

  interface Post {
    url: string;
    type: string;
    body: Buffer;
    extra?: Record<string, string>;
  }
  /** One post's time, and the server's peak RSS during it. */
  async function post({ url, type, body, extra = {} }: Post) {
    resetPeak(pid);
    let status = 0;
    const t = await timeIt(async () => {
      status = (await request(url, 'POST', { ...auth, 'content-type': type, ...extra }, body)).status;
    });
    if (status >= 300) throw new Error(`${url} answered ${status}`);
    return { t, peak: peakRssMiB(pid) };
  }
  /**
   * Median times and largest peak RSS of RUNS posts of each, after one of each that creates the run. The two take
   * turns, so that a slow stretch of the machine (the database writing behind, another process) weighs on both.
   */
  async function measurePair(a: Post, b: Post) {
    const times: [number[], number[]] = [[], []];
    const peaks = [0, 0];
    for (let i = 0; i < RUNS + 1; i++) {
      for (const [k, p] of [a, b].entries()) {
        const { t, peak } = await post(p);
        peaks[k] = Math.max(peaks[k]!, peak);
        if (i > 0) times[k]!.push(t);
      }
    }
    return [0, 1].map((k) => ({ median: median(times[k]!), peak: peaks[k]! })) as [
      { median: number; peak: number },
      { median: number; peak: number },
    ];
  }

  try {
    const precise = tracks();
    const cvatRun = tracks(2);
    const cases = [
      {
        format: 'mot',
        file: motFile(precise),
        type: 'text/plain',
        json: jsonRun(precise, org.recording.mediaKey, 'json-mot'),
      },
      {
        format: 'cvat-video',
        file: cvatFile(cvatRun),
        type: 'application/xml',
        json: jsonRun(cvatRun, org.recording.mediaKey, 'json-cvat', true),
      },
    ];
    let fullPrecisionJson: { median: number; bytes: number } | undefined;
    for (const c of cases) {
      const [json, imported] = await measurePair(
        { url: `${server.url}/detections`, type: 'application/json', body: c.json },
        {
          url: `${server.url}/detections/import?format=${c.format}&mediaKey=${key}&runId=import-${c.format}&width=${W}&height=${H}`,
          type: c.type,
          body: c.file,
        },
      );
      fullPrecisionJson ??= { median: json.median, bytes: c.json.length };
      rows.push({
        dialect,
        measure: `import ${c.format} (${mib(c.file.length)}, 250 000 boxes) vs POST JSON (${mib(c.json.length)})`,
        'median ms': fmt(imported.median),
        'baseline ms': fmt(json.median),
        ratio: ratio(imported.median, json.median),
        'peak RSS MiB': `${fmt(imported.peak, 0)} (JSON ${fmt(json.peak, 0)})`,
        target: '≤ 1.5×, RSS ≤ 1024',
      });
      // CVAT's text of a run is twice its JSON: against JSON of as many bytes, the per-byte cost shows.
      if (c.format === 'cvat-video' && fullPrecisionJson) {
        rows.push({
          dialect,
          measure: `import cvat-video vs POST JSON of as many bytes (the MOT row's JSON, ${mib(fullPrecisionJson.bytes)})`,
          'median ms': fmt(imported.median),
          'baseline ms': fmt(fullPrecisionJson.median),
          ratio: ratio(imported.median, fullPrecisionJson.median),
          target: 'context',
        });
      }
    }

    // The imports replaced each run several times: PostgreSQL's autovacuum would clean up behind them (a minute
    // later, two cores to share) in the middle of the exports. Cleaned up now, the exports measure the exports.
    if (ts.store.pgPool)
      await ts.store.pgPool.query('VACUUM (ANALYZE) runs, run_revisions, run_centroids, recording_label_cells');

    // The least any export does before its first byte, timed in a process of its own (bench/export-floor.ts).
    const [stored] = await findRunsByRunId(ts.store.db, org.orgId, 'import-mot');
    const floorTimes = JSON.parse(
      execFileSync(
        process.execPath,
        [
          '--import',
          'tsx',
          fileURLToPath(new URL('./export-floor.ts', import.meta.url)),
          JSON.stringify(ts.location),
          org.orgId,
          stored!.id,
          String(EXPORT_RUNS + 1),
        ],
        { encoding: 'utf8' },
      ),
    ) as number[];
    rows.push({
      dialect,
      measure: 'floor: the stored run read (one snapshot) and its boxes decoded, in a process of its own',
      'median ms': fmt(median(floorTimes.slice(1))),
      target: 'context for TTFB',
    });

    // Export of the largest run (the MOT import) in each format, taking turns with the least an export can do
    // (bench/least-export-server.ts, a process of its own reading the same run), so that both meet the same machine.
    const least = await startBenchServer('least-export-server.ts', [
      JSON.stringify(ts.location),
      org.orgId,
      stored!.id,
    ]);
    for (const format of formatNames) {
      const url = `${server.url}/detections/import-mot/export?format=${format}`;
      const leastUrl = `${least.url}/?format=${format}`;
      await timedGet(url, auth);
      await timedGet(leastUrl, {});
      const ttfb: number[] = [];
      const leastTtfb: number[] = [];
      const rates: number[] = [];
      const cpuRates: number[] = [];
      let bytes = 0;
      let peak = 0;
      for (let i = 0; i < EXPORT_RUNS; i++) {
        resetPeak(pid);
        const cpu = cpuMs(pid);
        const r = await timedGet(url, auth);
        cpuRates.push(r.bytes / 1e6 / (Math.max(10, cpuMs(pid) - cpu) / 1000));
        if (r.status !== 200) throw new Error(`export ${format} answered ${r.status}`);
        peak = Math.max(peak, peakRssMiB(pid));
        ttfb.push(r.ttfb);
        rates.push(r.bytes / 1e6 / (r.total / 1000));
        bytes = r.bytes;
        const l = await timedGet(leastUrl, {});
        if (l.status !== 200) throw new Error(`the least export of ${format} answered ${l.status}`);
        leastTtfb.push(l.ttfb);
      }
      rows.push({
        dialect,
        measure: `export ${format} (${mib(bytes)})`,
        'median ms': `TTFB ${fmt(median(ttfb))} (${fmt(Math.min(...ttfb))}–${fmt(Math.max(...ttfb))})`,
        'baseline ms': `${fmt(median(rates))} MB/s (${fmt(median(cpuRates), 0)} MB/s of server CPU)`,
        ratio: `least: TTFB ${fmt(median(leastTtfb))} (${fmt(Math.min(...leastTtfb))}–${fmt(Math.max(...leastTtfb))})`,
        'peak RSS MiB': fmt(peak, 0),
        target: 'TTFB < 100 ms, ≥ 50 MB/s',
      });
    }
    await stop(least.child);

    // gzip POST of the MOT run's JSON against the same body sent plain.
    const plain = jsonRun(precise, org.recording.mediaKey, 'gzip-vs-plain');
    const gz = gzipSync(plain, { level: 6 });
    const [sent, zipped] = await measurePair(
      { url: `${server.url}/detections`, type: 'application/json', body: plain },
      { url: `${server.url}/detections`, type: 'application/json', body: gz, extra: { 'content-encoding': 'gzip' } },
    );
    rows.push({
      dialect,
      measure: `POST gzip (${mib(gz.length)} → ${mib(plain.length)}) vs plain`,
      'median ms': fmt(zipped.median),
      'baseline ms': fmt(sent.median),
      ratio: ratio(zipped.median, sent.median),
      'peak RSS MiB': `${fmt(zipped.peak, 0)} (plain ${fmt(sent.peak, 0)})`,
      target: '≤ 1.5×',
    });
  } finally {
    await stop(server.child);
    await ts.destroy();
  }
  return rows;
}

export const suite: Suite = {
  name: 'formats',
  title: 'Formats',
  baseline:
    'Workload: 5000 tracks × 50 boxes on consecutive frames (250 000 boxes), 1920 × 1080 pixels. The MOT file has ' +
    'the pixels at full double precision (about 25 MiB); the CVAT file has them at two decimals, as CVAT writes ' +
    'them (at full precision it would pass the 32 MiB limit). Each import is against `POST /detections` of the same ' +
    'boxes as run JSON, in the same run. Exports are of the MOT import (the largest run), each read to its end over ' +
    'loopback: time to the first byte of the body and throughput of the whole answer; the floor row is what any export does ' +
    'before its first byte (the stored run read in one snapshot and its boxes decoded), timed in a process of its own. ' +
    'The CVAT context row compares the CVAT import with the JSON of the MOT row, which has as many bytes. The gzip row posts the MOT ' +
    "run's JSON compressed (`Content-Encoding: gzip`) against the same JSON sent plain. Export throughput is " +
    "given per second of wall time and per second of the server process's CPU time (from /proc), as the machine " +
    'is shared and its load (first row) stretches wall times. Each export takes turns with the same export from the ' +
    'least possible server (`bench/least-export-server.ts`: a bare node:http process that reads the run as the route ' +
    'does and writes the pieces, without Fastify, authentication or lookups), whose time to first byte is in the ' +
    'ratio column. Imports and posts: medians of ' +
    `${RUNS}, taking turns with their baseline (after one of each that creates the run); exports and the floor: medians of ${EXPORT_RUNS} (after one), with the ` +
    "fastest and slowest time to first byte in brackets; peak RSS is the server process's VmHWM, reset before each " +
    'request. ' +
    'The pg rows need `TEST_DATABASE_URL`.',
  async run() {
    const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(', ');
    const rows: Row[] = [{ dialect: '', measure: `machine load average at the start (1, 5, 15 min): ${load}` }];
    rows.push(...(await benchDialect('sqlite')));
    if (process.env.TEST_DATABASE_URL) rows.push(...(await benchDialect('pg')));
    return rows;
  },
};
