// POST /evaluations of the largest run the API takes (5000 tracks × 50 boxes) against a ground truth of the same size
// on one recording: the answer's time, the server's peak RSS, and how long the server's other requests wait meanwhile.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type { DialectName } from '../src/db/store.js';
import { createTestStore } from '../test/support/store.js';
import { seedOrg } from '../test/support/server.js';
import { spawnServer } from '../test/support/cli.js';
import { fmt, median, timeIt, type Row, type Suite } from './harness.js';
import { request } from './http-client.js';
import { peakRssMiB, stop } from './processes.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** CPU time the process has used, all threads (the evaluation worker's included), in ms: less moved by a busy machine. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime: fields 14 and 15 of stat, 12 and 13 after the command name.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}
const TRACKS = 5000;
const BOXES = 50;
const FRAMES = 5000;

function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
}
const r6 = (v: number) => Math.round(v * 1e6) / 1e6;

/**
 * Tracks of 50 consecutive frames starting anywhere in 5000 frames (about 50 objects a frame). The prediction is the
 * ground truth moved a little, with one track in ten far off (a missed track and a false-positive one): the same
 * 5000 × 50 boxes.
 */
function runs(mediaKey: string) {
  const rand = rng(7);
  const labels = ['person', 'car', 'bicycle', 'dog'];
  const gt = [];
  const pred = [];
  for (let t = 0; t < TRACKS; t++) {
    const start = Math.floor(rand() * (FRAMES - BOXES));
    let x = rand() * 0.85;
    let y = rand() * 0.85;
    const w = 0.02 + rand() * 0.1;
    const h = 0.04 + rand() * 0.1;
    const g = [];
    const p = [];
    const off = t % 10 === 0 ? 0.3 : 0;
    for (let b = 0; b < BOXES; b++) {
      x = Math.min(0.85, Math.max(0, x + (rand() - 0.5) * 0.01));
      y = Math.min(0.85, Math.max(0, y + (rand() - 0.5) * 0.01));
      g.push({ frame: start + b, x: r6(x), y: r6(y), w: r6(w), h: r6(h) });
      p.push({
        frame: start + b,
        x: r6(Math.min(0.85, Math.abs(x + off - (off ? 0.6 : 0)) + rand() * 0.004)),
        y: r6(y + rand() * 0.004),
        w: r6(w),
        h: r6(h),
        confidence: r6(0.3 + rand() * 0.7),
      });
    }
    const label = labels[t % 4]!;
    gt.push({ id: `g${t}`, label, boxes: g });
    pred.push({ id: `p${t}`, label, boxes: p });
  }
  const body = (runId: string, name: string, tracks: unknown[]) =>
    Buffer.from(
      JSON.stringify({
        mediaKey,
        schemaVersion: '1.0',
        source: { kind: 'model', name, runId },
        coordinateSpace: 'normalized',
        tracks,
      }),
    );
  return { gt: body('gt', 'annotators', gt), pred: body('pred', 'bench-tracker', pred) };
}

async function benchDialect(dialect: DialectName): Promise<Row[]> {
  const ts = await createTestStore(dialect);
  const org = await seedOrg(ts.store, {
    mediaKey: `bench/${Math.floor(Date.now() / 1000)}_eval.mp4`,
    frameCount: FRAMES,
    width: 1920,
    height: 1080,
  });
  // Synchronous answers (201) whatever the time, so that the request's time is the evaluation's.
  const server = await spawnServer(ts.location, {
    LOG_LEVEL: 'error',
    SWEEP_INTERVAL_SECONDS: '0',
    EVALUATION_SYNC_MS: '600000',
  });
  const auth = { authorization: `Bearer ${org.token}`, 'content-type': 'application/json' };
  const rows: Row[] = [];
  try {
    const { gt, pred } = runs(org.recording.mediaKey);
    for (const body of [gt, pred]) {
      const res = await request(`${server.url}/detections`, 'POST', auth, body, true);
      if (res.status >= 300) throw new Error(`run POST answered ${res.status}: ${res.text?.slice(0, 500)}`);
    }
    const evaluation = Buffer.from(
      JSON.stringify({ mediaKey: org.recording.mediaKey, groundTruth: 'gt', predictions: ['pred'] }),
    );
    const times: number[] = [];
    const cpu: number[] = [];
    const waits: number[] = [];
    let figures = '';
    for (let i = 0; i < RUNS; i++) {
      // Health checks every 25 ms meanwhile, on their own connection: their worst time is how long the evaluation
      // held the server's other requests up.
      let polling = true;
      let worst = 0;
      const poll = (async () => {
        while (polling) {
          worst = Math.max(worst, await timeIt(() => fetch(`${server.url}/api/health`).then((r) => r.arrayBuffer())));
          await new Promise((r) => setTimeout(r, 25));
        }
      })();
      let answer: { status: number; text?: string } = { status: 0 };
      const cpuBefore = cpuMs(server.child.pid!);
      times.push(
        await timeIt(async () => {
          answer = await request(`${server.url}/evaluations`, 'POST', auth, evaluation, true);
        }),
      );
      cpu.push(cpuMs(server.child.pid!) - cpuBefore);
      polling = false;
      await poll;
      waits.push(worst);
      if (answer.status !== 201) throw new Error(`POST /evaluations answered ${answer.status}: ${answer.text}`);
      const c = JSON.parse(answer.text!).data.results[0].combined;
      figures = `HOTA ${fmt(c.HOTA, 3)}, MOTA ${fmt(c.MOTA, 3)}, IDF1 ${fmt(c.IDF1, 3)}, AP ${fmt(c.AP, 3)}`;
    }
    rows.push({
      dialect,
      measure: `POST /evaluations, ${TRACKS} × ${BOXES} against ${TRACKS} × ${BOXES}, all four metrics (${figures})`,
      value: `${fmt(median(times), 0)} ms`,
      target: '≤ 3000 ms',
    });
    rows.push({
      dialect,
      measure: 'the first of them (a new worker thread, the engine not yet optimised)',
      value: `${fmt(times[0]!, 0)} ms (CPU ${fmt(cpu[0]!, 0)} ms)`,
      target: '',
    });
    rows.push({
      dialect,
      measure: 'server CPU time of one evaluation (all threads)',
      value: `${fmt(median(cpu), 0)} ms`,
      target: '',
    });
    rows.push({
      dialect,
      measure: 'worst /api/health time during an evaluation',
      value: `${fmt(median(waits), 0)} ms`,
      target: 'no stall (worker thread)',
    });
    rows.push({
      dialect,
      measure: 'server peak RSS',
      value: `${fmt(peakRssMiB(server.child.pid!), 0)} MiB`,
      target: '≤ 1024 MiB',
    });
  } finally {
    await stop(server.child);
    await ts.destroy();
  }
  return rows;
}

export const suite: Suite = {
  name: 'evaluation-server',
  title: 'Evaluation on the server',
  baseline:
    'One recording of 5000 frames (1920×1080): a ground-truth run of 5000 tracks × 50 boxes (tracks of 50 consecutive ' +
    'frames, about 50 objects a frame, four labels) and a prediction of the same size (moved a little, one track in ' +
    'ten far off). `POST /evaluations` with the default metrics (HOTA, CLEAR, Identity, ' +
    'COCO), answered 201; the median of `BENCH_RUNS` (3) evaluations, each reading both runs from the store and ' +
    'scoring them in a worker thread, which the server keeps for the next evaluation (the first one is given apart). Meanwhile a client checks `/api/health` every 25 ms: its worst time shows ' +
    "whether the evaluation held other requests up. The server's CPU time (from /proc, every thread) is given beside " +
    'the wall time: on a shared machine it moves less. The pg rows need `TEST_DATABASE_URL`.',
  async run() {
    const rows = await benchDialect('sqlite');
    if (process.env.TEST_DATABASE_URL) rows.push(...(await benchDialect('pg')));
    return rows;
  },
};
