// Region search at scale: 100 000 recordings × 5 runs × 20 tracks (10 centroids per track), seeded by bulk
// inserts into a fresh SQLite file and a fresh PostgreSQL schema (BENCH_DATABASE_URL or TEST_DATABASE_URL).
// Runs are stored with their track headers but an empty box blob: search never reads boxes, and writing
// 500 000 full runs would take the seed from minutes to hours. BENCH_RECORDINGS scales the seed down.
import { createTestStore } from '../test/support/store.js';
import pg from 'pg';
import { sql } from 'kysely';
import { createOrganisation } from '../src/auth/queries.js';
import { encodePoints } from '../src/detections/centroids.js';
import type { DialectName, Store } from '../src/db/store.js';
import { sweepExpired } from '../src/retention/sweeper.js';
import { ANY_LABEL, cellMasksOfPoints, union, EMPTY_MASK, type CellMask } from '../src/search/grid.js';
import { searchRecordings } from '../src/search/queries.js';
import { orderByRow, ROW_START_COLUMNS } from '../src/search/point-rows.js';
import { polygonOf } from '../src/search/region.js';
import { newId } from '../src/util/ids.js';
import { fmt, median, percentile, timeIt, type Row, type Suite } from './harness.js';

const RECORDINGS = Number(process.env.BENCH_RECORDINGS ?? 100_000);
const RUNS = 5;
const TRACKS = 20;
const CENTROIDS = 10;
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const LABELS: Array<[string, number]> = [
  ['person', 0.5],
  ['car', 0.25],
  ['bicycle', 0.1],
  ['dog', 0.095],
  ['scooter', 0.005],
];
const RARE_LABEL = 'scooter';
const BASE = 1_690_000_000;
const STEP = 300;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function pickLabel(r: number): string {
  let acc = 0;
  for (const [label, p] of LABELS) {
    acc += p;
    if (r < acc) return label;
  }
  return LABELS[0]![0];
}

interface Chunk {
  recordings: unknown[][];
  runs: unknown[][];
  centroids: unknown[][];
  cells: unknown[][];
}

/** One chunk of recordings with their runs, centroid rows and search cells, as column tuples. */
function makeChunk(orgId: string, from: number, to: number, rand: () => number): Chunk {
  const chunk: Chunk = { recordings: [], runs: [], centroids: [], cells: [] };
  const now = Date.now();
  for (let i = from; i < to; i++) {
    const recId = newId(now + i);
    const start = BASE + i * STEP;
    chunk.recordings.push([
      recId,
      orgId,
      `bench/${start}_cam${i % 50}.mp4`,
      `analysis-${recId}`,
      start,
      `cam${i % 50}`,
      now,
    ]);
    const perLabel = new Map<string, { mask: CellMask; n: number }>();
    for (let k = 0; k < RUNS; k++) {
      const runPk = newId(now + i);
      const headers = [];
      const byLabel = new Map<string, number[]>();
      const framesByLabel = new Map<string, number[]>();
      for (let t = 0; t < TRACKS; t++) {
        const label = pickLabel(rand());
        headers.push({ id: `t${t}`, label, n: CENTROIDS });
        // An object crossing part of the frame: a straight path of up to 30 units.
        const x0 = rand() * 100;
        const y0 = rand() * 100;
        const dx = (rand() - 0.5) * 30;
        const dy = (rand() - 0.5) * 30;
        let pts = byLabel.get(label);
        let frames = framesByLabel.get(label);
        if (!pts || !frames) {
          pts = [];
          frames = [];
          byLabel.set(label, pts);
          framesByLabel.set(label, frames);
        }
        // Not drawn from rand(): the seeded positions stay those of earlier measurements.
        const firstFrame = (t * 37 + k * 211) % 1000;
        for (let c = 0; c < CENTROIDS; c++) {
          const f = c / (CENTROIDS - 1);
          pts.push(Math.min(100, Math.max(0, x0 + dx * f)), Math.min(100, Math.max(0, y0 + dy * f)));
          frames.push(firstFrame + c * 5);
        }
      }
      chunk.runs.push([
        runPk,
        orgId,
        recId,
        `run-${k}`,
        'detection',
        '1.0',
        '{"kind":"model","name":"bench"}',
        'normalized',
        'xywh',
        start,
        now,
        now,
        1,
        TRACKS,
        TRACKS * CENTROIDS,
        JSON.stringify(headers),
      ]);
      for (const [label, pts] of byLabel) {
        const mask = cellMasksOfPoints(pts);
        const { ordered, orderedFrames, starts } = orderByRow(pts, framesByLabel.get(label));
        chunk.centroids.push([
          runPk,
          recId,
          orgId,
          label,
          pts.length / 2,
          encodePoints(ordered),
          encodePoints(orderedFrames),
          mask.lo,
          mask.hi,
          ...ROW_START_COLUMNS.map((c) => starts[c]),
        ]);
        for (const l of [ANY_LABEL, label]) {
          const a = perLabel.get(l) ?? { mask: EMPTY_MASK, n: 0 };
          perLabel.set(l, { mask: union(a.mask, mask), n: a.n + pts.length / 2 });
        }
      }
    }
    for (const [label, a] of perLabel) chunk.cells.push([recId, orgId, label, start, a.mask.lo, a.mask.hi, a.n]);
  }
  return chunk;
}

const COLUMNS = {
  recordings: ['id', 'org_id', 'media_key', 'analysis_id', 'start_timestamp', 'device_key', 'created_at'],
  runs: [
    'id',
    'org_id',
    'recording_id',
    'run_id',
    'task',
    'schema_version',
    'source',
    'original_coordinate_space',
    'original_box_form',
    'recording_timestamp',
    'created_at',
    'updated_at',
    'version',
    'tracks_stored',
    'boxes_stored',
    'tracks',
  ],
  run_centroids: [
    'run_pk',
    'recording_id',
    'org_id',
    'label',
    'count',
    'points',
    'frames',
    'cells_lo',
    'cells_hi',
    ...ROW_START_COLUMNS,
  ],
  recording_label_cells: [
    'recording_id',
    'org_id',
    'label',
    'start_timestamp',
    'cells_lo',
    'cells_hi',
    'centroid_count',
  ],
} as const;
const PG_TYPES: Record<string, string[]> = {
  recordings: ['text', 'text', 'text', 'text', 'int8', 'text', 'int8'],
  runs: [
    'text',
    'text',
    'text',
    'text',
    'text',
    'text',
    'text',
    'text',
    'text',
    'int8',
    'int8',
    'int8',
    'int4',
    'int4',
    'int4',
    'text',
  ],
  run_centroids: [
    'text',
    'text',
    'text',
    'text',
    'int4',
    'bytea',
    'bytea',
    'int8',
    'int8',
    ...ROW_START_COLUMNS.map(() => 'int4'),
  ],
  recording_label_cells: ['text', 'text', 'text', 'int8', 'int8', 'int8', 'int4'],
};

async function insertChunk(store: Store, client: pg.PoolClient | undefined, chunk: Chunk) {
  const tables: Array<[keyof typeof COLUMNS, unknown[][]]> = [
    ['recordings', chunk.recordings],
    ['runs', chunk.runs],
    ['run_centroids', chunk.centroids],
    ['recording_label_cells', chunk.cells],
  ];
  if (store.dialect === 'sqlite') {
    const db = store.sqlite!;
    db.transaction(() => {
      for (const [table, rows] of tables) {
        const cols = COLUMNS[table];
        const stmt = db.prepare(
          `insert into ${table} (${cols.join(',')}${table === 'runs' ? ',boxes' : ''}) values (${cols.map(() => '?').join(',')}${table === 'runs' ? ",x''" : ''})`,
        );
        for (const row of rows) stmt.run(...(row as never[]));
      }
    })();
    return;
  }
  await client!.query('begin');
  for (const [table, rows] of tables) {
    const cols = COLUMNS[table];
    const types = PG_TYPES[table]!;
    for (let at = 0; at < rows.length; at += 20_000) {
      const slice = rows.slice(at, at + 20_000);
      const arrays = cols.map((_, c) => slice.map((r) => r[c]));
      const unnest = types.map((t, c) => `$${c + 1}::${t}[]`).join(', ');
      await client!.query(
        `insert into ${table} (${cols.join(',')}${table === 'runs' ? ',boxes' : ''}) select *${table === 'runs' ? ", ''::bytea" : ''} from unnest(${unnest})`,
        arrays,
      );
    }
  }
  await client!.query('commit');
}

function rect(rand: () => number, side: number): number[] {
  const x = rand() * (100 - side);
  const y = rand() * (100 - side);
  return [x, y, x + side, y, x + side, y + side, x, y + side];
}

/** A 12-point star (6 spikes): concave, about a fifth of the frame. */
function star(rand: () => number): number[] {
  const cx = 25 + rand() * 50;
  const cy = 25 + rand() * 50;
  const xy: number[] = [];
  for (let i = 0; i < 12; i++) {
    const r = i % 2 === 0 ? 28 : 10;
    const a = (i / 12) * 2 * Math.PI;
    xy.push(cx + r * Math.cos(a), cy + r * Math.sin(a));
  }
  return xy;
}

const SHAPES: Array<[string, (rand: () => number) => number[]]> = [
  ['small rect (1%)', (r) => rect(r, 10)],
  ['medium rect (10%)', (r) => rect(r, Math.sqrt(1000))],
  ['large rect (50%)', (r) => rect(r, Math.sqrt(5000))],
  ['12-point concave polygon', star],
];

async function benchDialect(dialect: DialectName): Promise<Row[]> {
  const { store, destroy: cleanup } = await createTestStore(dialect, {
    pgUrl: process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL,
    poolSize: 4,
  });
  try {
    const org = await createOrganisation(store.db, 'bench', 36_500);
    const rand = rng(42);
    let pgClient: pg.PoolClient | undefined;
    let pool: pg.Pool | undefined;
    if (store.dialect === 'pg') {
      const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL!;
      const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(store.db)).rows[0]!.s;
      pool = new pg.Pool({ connectionString: url, max: 1, options: `-c search_path=${schema}` });
      pgClient = await pool.connect();
    }
    const seedStart = Date.now();
    for (let at = 0; at < RECORDINGS; at += 2000) {
      await insertChunk(store, pgClient, makeChunk(org.id, at, Math.min(RECORDINGS, at + 2000), rand));
      if (process.stderr.isTTY)
        process.stderr.write(`\r${dialect}: seeded ${Math.min(RECORDINGS, at + 2000)}/${RECORDINGS} recordings`);
    }
    if (pgClient) {
      await pgClient.query('vacuum analyze');
      pgClient.release();
      await pool!.end();
    } else store.sqlite!.exec('analyze');
    const seedSeconds = (Date.now() - seedStart) / 1000;
    if (process.stderr.isTTY) process.stderr.write('\n');

    const rows: Row[] = [];
    for (const [name, shape] of SHAPES) {
      for (const labels of [undefined, [RARE_LABEL]]) {
        const qr = rng(7);
        const times: number[] = [];
        let hits = 0;
        for (let q = 0; q < QUERIES + 20; q++) {
          const polygon = polygonOf(shape(qr));
          let found = 0;
          const ms = await timeIt(async () => {
            found = (await searchRecordings(store.db, org.id, { polygon, labels, limit: 50 })).recordings.length;
          });
          if (q >= 20) {
            times.push(ms);
            hits += found;
          }
        }
        rows.push({
          dialect,
          region: name,
          labels: labels ? labels.join(',') : 'any',
          'median ms': fmt(median(times), 2),
          'p99 ms': fmt(percentile(times, 99), 2),
          'avg hits/page': fmt(hits / times.length, 1),
          recordings: RECORDINGS,
          'seed s': fmt(seedSeconds, 0),
        });
      }
    }

    // Sweep: expire the oldest 10% (their runs and centroids) and time the removal.
    const expireCount = Math.floor(RECORDINGS / 10);
    const nowSeconds = Math.floor(Date.now() / 1000);
    const days = Math.floor((nowSeconds - (BASE + expireCount * STEP)) / 86_400);
    await store.db.updateTable('organisations').set({ retention_days: days }).where('id', '=', org.id).execute();
    const started = Date.now();
    const swept = await sweepExpired(store);
    const seconds = (Date.now() - started) / 1000;
    rows.push({
      dialect,
      region: 'retention sweep',
      labels: '',
      'median ms': '',
      'p99 ms': '',
      'avg hits/page': `${swept.runsRemoved} runs / ${fmt(seconds, 1)} s = ${fmt(swept.runsRemoved / seconds, 0)} runs/s`,
      recordings: RECORDINGS,
      'seed s': '',
    });
    return rows;
  } finally {
    await cleanup();
  }
}

export const suite: Suite = {
  name: 'recordings',
  title: 'Region search and retention',
  baseline:
    '100 000 recordings × 5 runs × 20 tracks × 10 centroids, seeded by bulk inserts; 200 searches per row at random ' +
    'positions, `limit` 50, at the query layer (no HTTP); filtered rows use the rare label `scooter`; the sweep ' +
    'removes the oldest 10 %. No ratio: the targets are absolute (PostgreSQL median < 20 ms, p99 < 100 ms). The pg ' +
    'rows need `TEST_DATABASE_URL` (or `BENCH_DATABASE_URL`).',
  async run() {
    const dialects: DialectName[] = ['sqlite'];
    if (process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL) dialects.unshift('pg');
    const rows: Row[] = [];
    for (const d of dialects) rows.push(...(await benchDialect(d)));
    return rows;
  },
};
