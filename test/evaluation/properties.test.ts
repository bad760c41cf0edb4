// Properties of the metrics on random runs. Coordinates come from a seeded generator over a continuous range, so
// exact ties (which would let the assignment pick either of two equal matchings) have probability zero.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/evaluation/evaluate.js';
import { type BoxSet, boxSetFromRows, type SequenceInput } from '../../src/evaluation/layout.js';

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Row {
  t: number;
  id: number;
  box: [number, number, number, number];
  cls: number;
  conf: number;
}

function toSet(frames: number, rows: Row[]): BoxSet {
  return boxSetFromRows(
    frames,
    rows.map((r) => r.t),
    rows.map((r) => r.id),
    rows.flatMap((r) => r.box),
    rows.map((r) => r.cls),
    rows.map((r) => r.conf),
  );
}

/** Random tracks moving with jitter; `separated` keeps every track in its own lane so boxes never overlap. */
function randomRows(seed: number, frames: number, tracks: number, separated: boolean, classes: number): Row[] {
  const rnd = mulberry32(seed);
  const rows: Row[] = [];
  for (let k = 0; k < tracks; k++) {
    const a = Math.floor(rnd() * frames);
    const b = a + 1 + Math.floor(rnd() * (frames - a));
    const x0 = separated ? 200 * k + rnd() * 20 : rnd() * 120;
    const y0 = rnd() * 120;
    const w = 20 + rnd() * 60;
    const h = 20 + rnd() * 60;
    const cls = Math.floor(rnd() * classes);
    for (let t = a; t < b; t++) {
      if (rnd() < 0.15) continue;
      const box: Row['box'] = [x0 + t * rnd() * 3, y0 + rnd() * 5, w + rnd() * 4, h + rnd() * 4];
      rows.push({ t, id: 10 + k, box, cls, conf: rnd() });
    }
  }
  return rows;
}

function jittered(seed: number, rows: Row[]): Row[] {
  const rnd = mulberry32(seed ^ 0x5bd1e995);
  return rows
    .filter(() => rnd() > 0.2)
    .map((r) => ({
      ...r,
      id: r.id + (r.t > 3 && r.id % 2 === 0 ? 50 : 0),
      box: [r.box[0] + rnd() * 12 - 6, r.box[1] + rnd() * 12 - 6, r.box[2] * (0.85 + rnd() * 0.3), r.box[3]],
      conf: rnd(),
    }));
}

const runs = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  frames: fc.integer({ min: 1, max: 12 }),
  tracks: fc.integer({ min: 1, max: 6 }),
});

describe('properties', () => {
  it('a run against itself scores HOTA = MOTA = IDF1 = AP50 = 1', () => {
    fc.assert(
      fc.property(runs, ({ seed, frames, tracks }) => {
        const rows = randomRows(seed, frames, tracks, true, 1);
        const seq: SequenceInput = { name: 's', numFrames: frames, gt: toSet(frames, rows), pred: toSet(frames, rows) };
        const r = evaluate([seq], { classNames: ['object'], metrics: ['hota', 'clear', 'identity', 'coco'] }).combined;
        if (rows.length === 0) return;
        expect(r.HOTA).toBeCloseTo(1, 12);
        expect(r.MOTA).toBe(1);
        expect(r.IDF1).toBe(1);
        expect(r.AP50).toBeCloseTo(1, 12);
        expect(r.IDSW).toBe(0);
      }),
      { numRuns: 150 },
    );
  });

  it('renaming track ids changes nothing', () => {
    fc.assert(
      fc.property(runs, fc.integer({ min: 1, max: 1000 }), ({ seed, frames, tracks }, shift) => {
        const gt = randomRows(seed, frames, tracks, false, 2);
        const pred = jittered(seed, gt);
        // An order-reversing rename on one side and a shift on the other: the ranks of the ids change too.
        const renamed = (rows: Row[], f: (id: number) => number) => rows.map((r) => ({ ...r, id: f(r.id) }));
        const a: SequenceInput = { name: 's', numFrames: frames, gt: toSet(frames, gt), pred: toSet(frames, pred) };
        const b: SequenceInput = {
          name: 's',
          numFrames: frames,
          gt: toSet(
            frames,
            renamed(gt, (id) => 100000 - id * 7),
          ),
          pred: toSet(
            frames,
            renamed(pred, (id) => id + shift),
          ),
        };
        const opts = { classNames: ['c0', 'c1'], metrics: ['hota', 'clear', 'identity', 'count', 'coco'] as const };
        const ra = evaluate([a], opts);
        const rb = evaluate([b], opts);
        for (const [k, v] of Object.entries(ra.combined)) {
          if (typeof v === 'number') expect(rb.combined[k] as number, k).toBeCloseTo(v, 12);
        }
        for (const [k, v] of Object.entries(ra.classAveraged)) {
          if (typeof v === 'number' && !Number.isNaN(v)) expect(rb.classAveraged[k] as number, k).toBeCloseTo(v, 12);
        }
      }),
      { numRuns: 120 },
    );
  });

  it('swapping ground truth and prediction swaps recall and precision', () => {
    fc.assert(
      fc.property(runs, ({ seed, frames, tracks }) => {
        const gt = randomRows(seed, frames, tracks, false, 1);
        const pred = jittered(seed, gt);
        const fwd = evaluate([{ name: 's', numFrames: frames, gt: toSet(frames, gt), pred: toSet(frames, pred) }], {
          classNames: ['object'],
        }).combined;
        const rev = evaluate([{ name: 's', numFrames: frames, gt: toSet(frames, pred), pred: toSet(frames, gt) }], {
          classNames: ['object'],
        }).combined;
        const pairs: [string, string][] = [
          ['CLR_Re', 'CLR_Pr'],
          ['CLR_FN', 'CLR_FP'],
          ['CLR_TP', 'CLR_TP'],
          ['IDR', 'IDP'],
          ['IDFN', 'IDFP'],
          ['IDTP', 'IDTP'],
          ['DetRe', 'DetPr'],
          ['AssRe', 'AssPr'],
          ['HOTA', 'HOTA'],
          ['DetA', 'DetA'],
          ['AssA', 'AssA'],
          ['LocA', 'LocA'],
          ['MOTP', 'MOTP'],
        ];
        for (const [x, y] of pairs) {
          expect(rev[y] as number, `${x} ↔ ${y}`).toBeCloseTo(fwd[x] as number, 12);
          expect(rev[x] as number, `${y} ↔ ${x}`).toBeCloseTo(fwd[y] as number, 12);
        }
      }),
      { numRuns: 150 },
    );
  });
});
