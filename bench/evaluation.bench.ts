// `sightline eval` against the reference implementations, whole processes on the same files in the same run:
// TrackEval (HOTA + CLEAR + Identity) on two MOTChallenge sequences, pycocotools (COCOeval bbox) on COCO files.
// The references are installed outside the repository and named by environment variables; a column whose
// reference is missing is skipped with a note.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeCoco, writeMotChallenge } from './evaluation-workloads.js';
import { fmt, median, type Row, type Suite } from './harness.js';

const SEQUENCES = 2;
const FRAMES = 3000;
const OBJECTS = 60;
const COCO_IMAGES = 650;
const RUNS = Number(process.env.SIGHTLINE_BENCH_RUNS ?? 5);
const TOLERANCE = 1e-9;

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'bin', 'sightline.js');
const TRACKEVAL = process.env.SIGHTLINE_BENCH_TRACKEVAL;
const PYTHON = process.env.SIGHTLINE_BENCH_PYTHON;

interface Timed {
  ms: number[];
  /** CPU time (user + system) of each run, when GNU time is there to measure it. */
  cpu: number[];
  output: unknown;
}

const GNU_TIME = '/usr/bin/time';
const HAS_GNU_TIME = fs.existsSync(GNU_TIME);

/** Runs the command `runs` times; wall-clock (and CPU) times of the whole process and the last run's JSON output. */
function timeProcess(command: string, args: string[], runs: number): Timed {
  const ms: number[] = [];
  const cpu: number[] = [];
  const times = path.join(os.tmpdir(), `sightline-eval-bench-time-${process.pid}`);
  let stdout = '';
  for (let i = 0; i < runs; i++) {
    const [file, argv] = HAS_GNU_TIME ? [GNU_TIME, ['-o', times, '-f', '%U %S', command, ...args]] : [command, args];
    const start = process.hrtime.bigint();
    const r = spawnSync(file, argv, { encoding: 'utf8', maxBuffer: 1 << 28 });
    ms.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (r.status !== 0) throw new Error(`${path.basename(command)} ${args[0]} exited ${r.status}: ${r.stderr}`);
    if (HAS_GNU_TIME) {
      const [user, system] = fs.readFileSync(times, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
      cpu.push((user! + system!) * 1000);
    }
    stdout = r.stdout;
  }
  fs.rmSync(times, { force: true });
  return { ms, cpu, output: JSON.parse(stdout) };
}

/** Why a reference cannot run here, or undefined when it can. */
function missing(what: 'trackeval' | 'pycocotools'): string | undefined {
  if (!PYTHON) return 'SIGHTLINE_BENCH_PYTHON is not set (a Python with numpy, scipy and pycocotools)';
  if (what === 'trackeval' && !TRACKEVAL) return 'SIGHTLINE_BENCH_TRACKEVAL is not set (a TrackEval checkout)';
  const module = what === 'trackeval' ? 'trackeval' : 'pycocotools.cocoeval';
  const env = what === 'trackeval' ? { ...process.env, PYTHONPATH: TRACKEVAL } : process.env;
  const probe = spawnSync(PYTHON, ['-c', `import ${module}`], { encoding: 'utf8', env });
  if (probe.status !== 0) return `${PYTHON} cannot import ${module}: ${probe.stderr.trim().split('\n').at(-1)}`;
  return undefined;
}

/** Every number the reference gives, compared with Sightline's; the first difference, or the count compared. */
function compare(reference: unknown, ours: unknown, at = ''): { compared: number; difference?: string } {
  if (typeof reference === 'number') {
    if (typeof ours !== 'number') return { compared: 0, difference: `${at}: Sightline has no number` };
    const same = reference === ours || Math.abs(reference - ours) <= TOLERANCE;
    return same ? { compared: 1 } : { compared: 1, difference: `${at}: ${ours} ≠ ${reference}` };
  }
  if (reference === null || typeof reference !== 'object') return { compared: 0 };
  let compared = 0;
  for (const [key, value] of Object.entries(reference)) {
    const inner = (ours as Record<string, unknown> | null)?.[key];
    const r = compare(value, inner, `${at}.${key}`);
    compared += r.compared;
    if (r.difference) return { compared, difference: r.difference };
  }
  return { compared };
}

function figures(reference: unknown, ours: unknown): string {
  const { compared, difference } = compare(reference, ours);
  return difference ? `DIFFER: ${difference}` : `identical (${compared} figures to 1e-9)`;
}

const medianOf = (t: Timed) => median(t.ms);
const cpuOf = (t: Timed) => (t.cpu.length > 0 ? fmt(median(t.cpu), 0) : '');
const cpuRatio = (ref: Timed, ours: Timed) =>
  ref.cpu.length > 0 ? `${(median(ref.cpu) / median(ours.cpu)).toFixed(1)}×` : '';

export const suite: Suite = {
  name: 'evaluation',
  title: 'Evaluation against the reference implementations',
  baseline:
    `Whole processes on the same files, median of ${RUNS} runs each (the process start included): \`sightline eval\` ` +
    `(the built \`bin/sightline.js\`) against TrackEval (HOTA + CLEAR + Identity + Count, \`MotChallenge2DBox\`, ` +
    `MOT17 preprocessing; \`--benchmark mot17\` on Sightline's side) on ${SEQUENCES} MOTChallenge sequences of ` +
    `${FRAMES} frames with ${OBJECTS} pedestrians a frame (seeded: jitter, 5 % misses, identity switches, false ` +
    `tracks and stray boxes), and against pycocotools (\`COCOeval\` bbox, default parameters) on ${COCO_IMAGES} ` +
    'images of three categories. _median ms_ is wall-clock time; _CPU ms_ is user + system time (GNU time), ' +
    'which a busy shared machine disturbs less. References: TrackEval at commit 12c8791b303e0a0b50f753af204249e622d0281a ' +
    "(NumPy aliases replaced), pycocotools 2.0.11, NumPy 2.4.6, SciPy 1.17.1. _ratio_ (and _CPU ratio_) is the reference's median " +
    "over Sightline's (targets: ≥ 10× TrackEval, ≥ 5× pycocotools); _figures_ compares every number the " +
    'reference prints, per sequence and combined.',
  async run(): Promise<Row[]> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-eval-bench-'));
    try {
      const names = writeMotChallenge(dir, SEQUENCES, FRAMES, OBJECTS);
      const coco = writeCoco(dir, COCO_IMAGES);
      const rows: Row[] = [];
      const mot = `${SEQUENCES} × ${FRAMES} frames × ${OBJECTS} objects (MOT17)`;
      const ours = timeProcess(
        process.execPath,
        [BIN, 'eval', '--gt', path.join(dir, 'gt'), '--pred', path.join(dir, 'trackers', 'pred', 'data')].concat([
          '--benchmark',
          'mot17',
          '--json',
        ]),
        RUNS,
      );
      rows.push({
        workload: mot,
        tool: 'sightline eval',
        'median ms': fmt(medianOf(ours), 0),
        'CPU ms': cpuOf(ours),
      });
      const trackevalMissing = missing('trackeval');
      if (trackevalMissing) rows.push({ workload: mot, tool: 'TrackEval', figures: `skipped: ${trackevalMissing}` });
      else {
        const driver = path.join(import.meta.dirname, 'reference', 'trackeval_mot.py');
        const ref = timeProcess(
          PYTHON!,
          [driver, TRACKEVAL!, path.join(dir, 'gt'), path.join(dir, 'trackers'), 'MOT17', ...names],
          RUNS,
        );
        const theirs = ref.output as { sequences: { combined: object }[]; combined: object };
        const mine = ours.output as { sequences: { combined: object }[]; combined: object };
        rows.push({
          workload: mot,
          tool: 'TrackEval',
          'median ms': fmt(medianOf(ref), 0),
          'CPU ms': cpuOf(ref),
          ratio: `${(medianOf(ref) / medianOf(ours)).toFixed(1)}×`,
          'CPU ratio': cpuRatio(ref, ours),
          figures: figures(
            { sequences: theirs.sequences.map((s) => s.combined), combined: theirs.combined },
            { sequences: mine.sequences.map((s) => s.combined), combined: mine.combined },
          ),
        });
      }

      const cocoLoad = `${COCO_IMAGES} images (COCO bbox)`;
      const oursCoco = timeProcess(
        process.execPath,
        [BIN, 'eval', '--format', 'coco', '--gt', coco.instances, '--pred', coco.results, '--json'],
        RUNS,
      );
      rows.push({
        workload: cocoLoad,
        tool: 'sightline eval',
        'median ms': fmt(medianOf(oursCoco), 0),
        'CPU ms': cpuOf(oursCoco),
      });
      const cocoMissing = missing('pycocotools');
      if (cocoMissing) rows.push({ workload: cocoLoad, tool: 'pycocotools', figures: `skipped: ${cocoMissing}` });
      else {
        const driver = path.join(import.meta.dirname, 'reference', 'pycocotools_bbox.py');
        const ref = timeProcess(PYTHON!, [driver, coco.instances, coco.results], RUNS);
        rows.push({
          workload: cocoLoad,
          tool: 'pycocotools',
          'median ms': fmt(medianOf(ref), 0),
          'CPU ms': cpuOf(ref),
          ratio: `${(medianOf(ref) / medianOf(oursCoco)).toFixed(1)}×`,
          'CPU ratio': cpuRatio(ref, oursCoco),
          figures: figures(
            (ref.output as { combined: object }).combined,
            (oursCoco.output as { combined: object }).combined,
          ),
        });
      }
      return rows;
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};
