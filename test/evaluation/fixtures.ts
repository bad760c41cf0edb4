// Reads the committed fixtures into the typed layout. Test-only: the real file parsers live with the CLI.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { CocoInput } from '../../src/evaluation/coco.js';
import { type BoxSet, boxSetFromRows, type SequenceInput } from '../../src/evaluation/layout.js';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

export function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(join(FIXTURES, path), 'utf8')) as T;
}

function rows(path: string): number[][] {
  return readFileSync(join(FIXTURES, path), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.split(',').map(Number));
}

/** Rows `frame,id,x,y,w,h,conf,class…` (1-based frame); `classOf` maps a row to a class index. */
export function boxSet(numFrames: number, data: number[][], classOf: (row: number[]) => number): BoxSet {
  return boxSetFromRows(
    numFrames,
    data.map((r) => r[0]! - 1),
    data.map((r) => r[1]!),
    data.flatMap((r) => [r[2]!, r[3]!, r[4]!, r[5]!]),
    data.map(classOf),
    data.map((r) => r[6]!),
  );
}

export interface TrackingMeta {
  classes: string[];
  sequences: { name: string; frames: number }[];
}

/** The class-wise tracking fixture; class numbers in the files are 1-based indices into `classes`. */
export function trackingSequences(agnostic = false): { meta: TrackingMeta; sequences: SequenceInput[] } {
  const meta = readJson<TrackingMeta>('tracking/sequences.json');
  const classOf = agnostic ? () => 0 : (r: number[]) => r[7]! - 1;
  const sequences = meta.sequences.map((s) => ({
    name: s.name,
    numFrames: s.frames,
    gt: boxSet(s.frames, rows(`tracking/${s.name}.gt.txt`), classOf),
    pred: boxSet(s.frames, rows(`tracking/${s.name}.pred.txt`), classOf),
  }));
  return { meta, sequences };
}

/** A MOTChallenge layout: gt classes are the MOT class numbers, the gt confidence is the consider flag. */
export function motSequences(root: string): SequenceInput[] {
  const { sequences } = readJson<{ sequences: Record<string, number> }>(`${root}/sequences.json`);
  return Object.entries(sequences).map(([name, frames]) => ({
    name,
    numFrames: frames,
    gt: boxSet(frames, rows(`${root}/gt/${name}/gt/gt.txt`), (r) => r[7]!),
    pred: boxSet(frames, rows(`${root}/trackers/pred/data/${name}.txt`), () => 0),
  }));
}

interface CocoJson {
  images: { id: number }[];
  categories: { id: number }[];
  annotations: { id: number; image_id: number; category_id: number; bbox: number[]; area: number; iscrowd?: number }[];
}
interface CocoResult {
  image_id: number;
  category_id: number;
  bbox: number[];
  score: number;
}

export function cocoInput(gtPath: string, resPath: string): CocoInput {
  const gt = readJson<CocoJson>(gtPath);
  const res = readJson<CocoResult[]>(resPath);
  const a = gt.annotations;
  return {
    imageIds: gt.images.map((i) => i.id),
    categoryIds: gt.categories.map((c) => c.id),
    gt: {
      imageIds: Int32Array.from(a, (x) => x.image_id),
      categoryIds: Int32Array.from(a, (x) => x.category_id),
      boxes: Float64Array.from(a.flatMap((x) => x.bbox)),
      areas: Float64Array.from(a, (x) => x.area),
      isCrowd: Uint8Array.from(a, (x) => x.iscrowd ?? 0),
      ids: Float64Array.from(a, (x) => x.id),
    },
    dt: {
      imageIds: Int32Array.from(res, (x) => x.image_id),
      categoryIds: Int32Array.from(res, (x) => x.category_id),
      boxes: Float64Array.from(res.flatMap((x) => x.bbox)),
      scores: Float64Array.from(res, (x) => x.score),
    },
  };
}

/** Every field of `expected` equals `actual`'s to 1e-9 (NaN equals NaN); reports the path of the first difference. */
export function expectClose(actual: unknown, expected: unknown, path = ''): void {
  if (typeof expected === 'number') {
    expect(typeof actual, path).toBe('number');
    const a = actual as number;
    if (Number.isNaN(expected)) expect(Number.isNaN(a), path).toBe(true);
    else expect(Math.abs(a - expected), `${path}: ${a} vs ${expected}`).toBeLessThanOrEqual(1e-9);
    return;
  }
  if (Array.isArray(expected)) {
    const a = actual as ArrayLike<number>;
    expect(a.length, path).toBe(expected.length);
    for (let k = 0; k < expected.length; k++) expectClose(a[k], expected[k], `${path}[${k}]`);
    return;
  }
  if (expected && typeof expected === 'object') {
    expect(actual, path).toBeTypeOf('object');
    for (const [k, v] of Object.entries(expected)) {
      expect(actual as object, `${path}.${k}`).toHaveProperty([k]);
      expectClose((actual as Record<string, unknown>)[k], v, `${path}.${k}`);
    }
  }
}
