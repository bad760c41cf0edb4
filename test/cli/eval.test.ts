// `sightline eval` in-process: the committed fixtures through the CLI give the references' figures, and bad input
// is refused with its file and line, with nothing on stdout.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { validateRun } from '../../src/detections/validate-run.js';
import { writerFor } from '../../src/formats/index.js';
import { expectClose, FIXTURES, readJson } from '../evaluation/fixtures.js';

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

// No store flags and a broken DATABASE_URL: eval needs no configuration and must not read any.
async function evalCli(...args: string[]): Promise<Result> {
  let stdout = '';
  let stderr = '';
  const code = await main(['eval', ...args], {
    stdout: { write: (c: string) => (stdout += c) },
    stderr: { write: (c: string) => (stderr += c) },
    env: { DATABASE_URL: 'not a url', LOG_LEVEL: 'nonsense' },
  });
  return { code, stdout, stderr };
}

async function evalJson(...args: string[]) {
  const r = await evalCli(...args, '--json');
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

const fixture = (p: string) => path.join(FIXTURES, p);
const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-eval-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

interface Expected {
  sequences: { name: string; combined: Record<string, unknown> }[];
  combined: object;
}
const agnostic = readJson<Expected>('expected/tracking-agnostic.json');
const expectedSeq = (name: string) => agnostic.sequences.find((s) => s.name === name)!.combined;

describe('sightline eval: parity through the CLI', () => {
  it.each(['mot17', 'mot20'] as const)('%s layout with --benchmark gives TrackEval’s figures', async (bench) => {
    const expected = readJson<Expected>(`expected/${bench}.json`);
    const out = await evalJson(
      '--gt',
      fixture(`${bench}/gt`),
      '--pred',
      fixture(`${bench}/trackers/pred/data`),
      '--benchmark',
      bench,
    );
    expect(Object.keys(out)).toEqual(['sequences', 'combined', 'classes', 'classAveraged', 'detAveraged']);
    expect(out.sequences.map((s: { name: string }) => s.name)).toEqual(expected.sequences.map((s) => s.name));
    expectClose(out.sequences, expected.sequences, 'sequences');
    expectClose(out.combined, expected.combined, 'combined');
    expectClose(out.classes.pedestrian, expected.combined, 'classes.pedestrian');
  });

  it('COCO instances and results files give pycocotools’ 12 stats, overall and per category', async () => {
    const expected = readJson<{ all: object; categories: Record<string, object> }>('expected/coco.json');
    const names = readJson<{ categories: { id: number; name: string }[] }>('coco/instances.json').categories;
    const out = await evalJson(
      '--format',
      'coco',
      '--gt',
      fixture('coco/instances.json'),
      '--pred',
      fixture('coco/results.json'),
    );
    expect(Object.keys(out.combined)).toHaveLength(12);
    expectClose(out.combined, expected.all, 'combined');
    expectClose(out.sequences[0].combined, expected.all, 'sequence');
    for (const c of names) expectClose(out.classes[c.name], expected.categories[String(c.id)], c.name);
  });

  it('a single MOT file pair: one sequence, scored class-agnostically against a several-class ground truth', async () => {
    const out = await evalJson('--gt', fixture('tracking/seq-e.gt.txt'), '--pred', fixture('tracking/seq-e.pred.txt'));
    expect(out.sequences.map((s: { name: string }) => s.name)).toEqual(['seq-e.gt']);
    expect(Object.keys(out.classes)).toEqual(['all']);
    expectClose(out.sequences[0].combined, expectedSeq('seq-e'), 'seq-e');
    expectClose(out.combined, expectedSeq('seq-e'), 'combined');
  });

  it('folders of <seq>.txt pair by name; a sequence without prediction scores against an empty one', async () => {
    const gt = tempDir();
    const pred = tempDir();
    for (const s of ['seq-a', 'seq-b', 'seq-f'])
      fs.copyFileSync(fixture(`tracking/${s}.gt.txt`), path.join(gt, `${s}.txt`));
    for (const s of ['seq-a', 'seq-f']) fs.copyFileSync(fixture(`tracking/${s}.pred.txt`), path.join(pred, `${s}.txt`));
    const out = await evalJson('--gt', gt, '--pred', pred);
    expect(out.sequences.map((s: { name: string }) => s.name)).toEqual(['seq-a', 'seq-b', 'seq-f']);
    expectClose(out.sequences[0].combined, expectedSeq('seq-a'), 'seq-a');
    expectClose(out.sequences[2].combined, expectedSeq('seq-f'), 'seq-f');
    // seq-b's last box is in frame 14, not the fixture's 25: no figure depends on it without predictions.
    expectClose(out.sequences[1].combined, expectedSeq('seq-b'), 'seq-b');
    expect(out.sequences[1].combined.Dets).toBe(0);
  });

  it('a byte-order mark at the start of a file is not part of its first row', async () => {
    const dir = tempDir();
    const text = fs.readFileSync(fixture('tracking/seq-e.gt.txt'), 'utf8');
    fs.writeFileSync(path.join(dir, 'seq-e.txt'), `\ufeff${text}`);
    const out = await evalJson('--gt', path.join(dir, 'seq-e.txt'), '--pred', fixture('tracking/seq-e.pred.txt'));
    expectClose(out.combined, expectedSeq('seq-e'), 'seq-e');
  });

  it('cvat-video and sightline run files: one sequence, classes from the labels', async () => {
    const dir = tempDir();
    const run = (dx: number) => ({
      schemaVersion: '1.0',
      coordinateSpace: 'pixel',
      media: { width: 640, height: 480 },
      tracks: [
        { id: 'a', label: 'person', boxes: [0, 1, 2].map((f) => ({ frame: f, x: 10 + dx, y: 10, w: 50, h: 100 })) },
        { id: 'b', label: 'car', boxes: [1, 2].map((f) => ({ frame: f, x: 300, y: 200, w: 120, h: 60 })) },
      ],
    });
    fs.writeFileSync(path.join(dir, 'gt.json'), JSON.stringify(run(0)));
    fs.writeFileSync(path.join(dir, 'pred.json'), JSON.stringify(run(2)));
    const out = await evalJson(
      '--format',
      'sightline',
      '--gt',
      path.join(dir, 'gt.json'),
      '--pred',
      path.join(dir, 'pred.json'),
      '--metrics',
      'clear,coco',
    );
    expect(Object.keys(out.classes)).toEqual(['person', 'car']);
    expect(out.combined.MOTA).toBe(1);
    expect(out.classes.person.CLR_Frames).toBe(3);
    expect(out.classes.car.AP50).toBeCloseTo(1, 12);
    // The same runs as CVAT for video XML, through the formats' writer: the same figures.
    for (const [name, body] of [
      ['gt', run(0)],
      ['pred', run(2)],
    ] as const) {
      const v = validateRun({ ...body, source: { kind: 'import' }, mediaKey: 'eval' });
      if (!v.ok) throw new Error(v.detail);
      const xml = [...writerFor('cvat-video')({ boxes: v.boxes, media: v.meta.media })].join('');
      fs.writeFileSync(path.join(dir, `${name}.xml`), xml);
    }
    const cvat = await evalJson(
      '--format',
      'cvat-video',
      '--gt',
      path.join(dir, 'gt.xml'),
      '--pred',
      path.join(dir, 'pred.xml'),
      '--metrics',
      'clear,coco',
    );
    expectClose(cvat.classes, out.classes, 'cvat');
  });
});

describe('sightline eval: bad input', () => {
  it('a malformed row: exit 2, file:line: reason on stderr, nothing on stdout', async () => {
    const dir = tempDir();
    const gt = path.join(dir, 'gt.txt');
    const rows = fs.readFileSync(fixture('tracking/seq-e.gt.txt'), 'utf8').split('\n');
    rows[16] = '17,3,10,20';
    fs.writeFileSync(gt, rows.join('\n'));
    const r = await evalCli('--gt', gt, '--pred', fixture('tracking/seq-e.pred.txt'), '--json');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${gt}:17: expected at least 6 comma-separated numbers`);
  });

  it('a prediction without ground truth: exit 2', async () => {
    const gt = tempDir();
    const pred = tempDir();
    fs.copyFileSync(fixture('tracking/seq-a.gt.txt'), path.join(gt, 'seq-a.txt'));
    fs.copyFileSync(fixture('tracking/seq-a.pred.txt'), path.join(pred, 'seq-a.txt'));
    fs.copyFileSync(fixture('tracking/seq-c.pred.txt'), path.join(pred, 'seq-c.txt'));
    const r = await evalCli('--gt', gt, '--pred', pred);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('seq-c.txt: no ground-truth sequence named "seq-c"');
  });

  it('a frame past seqLength: exit 2 with the line', async () => {
    const root = tempDir();
    fs.cpSync(fixture('mot17/gt'), root, { recursive: true });
    fs.appendFileSync(path.join(root, 'MOT17-02/gt/gt.txt'), '19,1,1,1,10,10,1,1,1\n');
    const r = await evalCli('--gt', root, '--pred', fixture('mot17/trackers/pred/data'));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/MOT17-02[/\\]gt[/\\]gt\.txt:\d+: frame 19 is past seqLength 18/);
  });

  it.each([
    [['--metrics', 'hota,mota'], /unknown metric "mota"/],
    [['--iou', '1.5'], /--iou must be a number in \(0, 1\]/],
    [['--iou', '0'], /--iou must be a number in \(0, 1\]/],
    [['--format', 'yolo'], /--format must be one of/],
    [['--benchmark', 'mot17', '--format', 'sightline'], /--benchmark applies to --format mot only/],
    [['--data', './data'], /unknown flag --data/],
  ])('%j: exit 2 with the usage line', async (args, message) => {
    const r = await evalCli(
      '--gt',
      fixture('tracking/seq-e.gt.txt'),
      '--pred',
      fixture('tracking/seq-e.pred.txt'),
      ...args,
    );
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain('usage: sightline eval');
  });
});

describe('sightline eval: readable output', () => {
  it('one row per sequence, then COMBINED, with the chosen metrics’ columns', async () => {
    const r = await evalCli(
      '--gt',
      fixture('mot20/gt'),
      '--pred',
      fixture('mot20/trackers/pred/data'),
      '--benchmark',
      'mot20',
    );
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^sequence\s+HOTA\s+DetA\s+AssA/);
    expect(lines[0]).toMatch(/MOTA.*IDSW.*IDF1/);
    expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(['MOT20-01', 'MOT20-02', 'COMBINED']);
  });

  it('per class rows when there are several', async () => {
    const r = await evalCli(
      '--format',
      'coco',
      '--gt',
      fixture('coco/instances.json'),
      '--pred',
      fixture('coco/results.json'),
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^sequence\s+AP\s+AP50\s+AP75/);
    expect(r.stdout).toContain('COMBINED');
    expect(r.stdout).toContain('class never-detected');
  });

  it('--help names the flags and no store flags', async () => {
    const r = await evalCli('--help');
    expect(r.stdout).toContain('--benchmark none|mot17|mot20');
    expect(r.stdout).not.toContain('--database-url');
  });
});
