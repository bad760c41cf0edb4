/**
 * MOTChallenge sequences (parsed ground truth, results and `seqLength`) into the engine's input. With a benchmark,
 * TrackEval's MOTChallenge preprocessing; without, zero-marked ground truth is dropped (as TrackEval always does) and
 * every class is scored as it stands. A results file has no class: it is scored as the ground truth's one class, or
 * class-agnostically against several.
 */
import { boxSetFromRows, type SequenceInput } from '../layout.js';
import { MOT_CLASSES, type MotBenchmark, preprocessMotChallenge } from '../mot-challenge.js';
import { InputError } from './input-error.js';
import { lastFrame, type MotRows } from './mot-text.js';

export interface MotSequenceFiles {
  name: string;
  gt: MotRows;
  /** Absent: the sequence is scored against an empty prediction. */
  pred?: MotRows;
  /** From `seqinfo.ini`; else the last frame seen in either file. */
  seqLength?: number;
}

export interface MotEvaluationInput {
  sequences: SequenceInput[];
  classNames: string[];
  /** Several ground-truth classes against a results file without classes: scored as one class. */
  classAgnostic: boolean;
}

const MOT_CLASS_NAMES = new Map(Object.entries(MOT_CLASSES).map(([name, n]) => [n, name]));
const classText = (n: number): string => (Number.isNaN(n) ? 'object' : (MOT_CLASS_NAMES.get(n) ?? String(n)));

function checkFrames(rows: MotRows, frames: number): void {
  for (let k = 0; k < rows.frames.length; k++) {
    if (rows.frames[k]! > frames)
      throw new InputError(rows.file, rows.lines[k], `frame ${rows.frames[k]} is past seqLength ${frames}`);
  }
}

function keptRows(rows: MotRows, keep: (k: number) => boolean, classOf: (k: number) => number, frames: number) {
  const n = rows.frames.length;
  const picked: number[] = [];
  for (let k = 0; k < n; k++) if (keep(k)) picked.push(k);
  const m = picked.length;
  const frameOf = new Int32Array(m);
  const ids = new Float64Array(m);
  const boxes = new Float64Array(m * 4);
  const classes = new Float64Array(m);
  const conf = new Float64Array(m);
  for (let q = 0; q < m; q++) {
    const k = picked[q]!;
    frameOf[q] = rows.frames[k]! - 1;
    ids[q] = rows.ids[k]!;
    for (let c = 0; c < 4; c++) boxes[q * 4 + c] = rows.boxes[k * 4 + c]!;
    classes[q] = classOf(k);
    conf[q] = Number.isNaN(rows.conf[k]!) ? 1 : rows.conf[k]!;
  }
  return boxSetFromRows(frames, frameOf, ids, boxes, classes, conf);
}

const none: MotRows = { file: '', lines: [], frames: [], ids: [], boxes: [], conf: [], classes: [], visibility: [] };

function frameCount(files: MotSequenceFiles): number {
  const pred = files.pred ?? none;
  const frames = files.seqLength ?? Math.max(lastFrame(files.gt), lastFrame(pred));
  checkFrames(files.gt, frames);
  checkFrames(pred, frames);
  return frames;
}

function benchmarkInput(files: readonly MotSequenceFiles[], benchmark: MotBenchmark): MotEvaluationInput {
  const sequences = files.map((f) => {
    const frames = frameCount(f);
    for (let k = 0; k < f.gt.frames.length; k++) {
      if (Number.isNaN(f.gt.classes[k]!))
        throw new InputError(
          f.gt.file,
          f.gt.lines[k],
          '--benchmark needs the consider flag and class (columns 7 and 8)',
        );
    }
    const seq: SequenceInput = {
      name: f.name,
      numFrames: frames,
      gt: keptRows(
        f.gt,
        () => true,
        (k) => f.gt.classes[k]!,
        frames,
      ),
      pred: keptRows(
        f.pred ?? none,
        () => true,
        () => 0,
        frames,
      ),
    };
    try {
      return preprocessMotChallenge(seq, benchmark);
    } catch (err) {
      throw new InputError(f.gt.file, undefined, (err as Error).message);
    }
  });
  return { sequences, classNames: ['pedestrian'], classAgnostic: false };
}

export function motEvaluationInput(
  files: readonly MotSequenceFiles[],
  benchmark: MotBenchmark | 'none' = 'none',
): MotEvaluationInput {
  if (benchmark !== 'none') return benchmarkInput(files, benchmark);
  // TrackEval reads the consider flag as an integer and drops the rows where it is zero.
  const considered = (rows: MotRows) => (k: number) => Number.isNaN(rows.conf[k]!) || Math.trunc(rows.conf[k]!) !== 0;
  const names: string[] = [];
  const index = new Map<string, number>();
  for (const f of files) {
    const keep = considered(f.gt);
    for (let k = 0; k < f.gt.frames.length; k++) {
      const name = classText(f.gt.classes[k]!);
      if (keep(k) && !index.has(name)) {
        index.set(name, names.length);
        names.push(name);
      }
    }
  }
  if (names.length === 0) names.push('object');
  const agnostic = names.length > 1;
  const sequences = files.map((f) => {
    const frames = frameCount(f);
    return {
      name: f.name,
      numFrames: frames,
      gt: keptRows(f.gt, considered(f.gt), (k) => (agnostic ? 0 : index.get(classText(f.gt.classes[k]!))!), frames),
      pred: keptRows(
        f.pred ?? none,
        () => true,
        () => 0,
        frames,
      ),
    };
  });
  return { sequences, classNames: agnostic ? ['all'] : names, classAgnostic: agnostic };
}
