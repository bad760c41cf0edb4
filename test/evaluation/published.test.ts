// Small published cases re-expressed as boxes: TrackEval's tests/test_metrics.py sequences and py-motmetrics'
// inline accumulator cases. Identical boxes have IoU 1 and boxes far apart IoU 0, so the similarity matrices are the
// ones the cases give; where a case relies on partial overlaps, the boxes overlap by 8/12.
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/evaluation/evaluate.js';
import { boxSetFromRows, type SequenceInput } from '../../src/evaluation/layout.js';

/** One frame: [track id, x] pairs per side; every box is 10 × 10 at (x, 0). */
interface Frame {
  gt: [number, number][];
  pred: [number, number][];
}

function sequence(frames: Frame[]): SequenceInput {
  const side = (pick: (f: Frame) => [number, number][]) => {
    const rows = frames.flatMap((f, t) => pick(f).map(([id, x]) => ({ t, id, x })));
    return boxSetFromRows(
      frames.length,
      rows.map((r) => r.t),
      rows.map((r) => r.id),
      rows.flatMap((r) => [r.x, 0, 10, 10]),
      rows.map(() => 0),
      rows.map(() => 1),
    );
  };
  return { name: 'case', numFrames: frames.length, gt: side((f) => f.gt), pred: side((f) => f.pred) };
}

/** TrackEval's `_from_dense` inputs: a tracker at IoU 1 with a gt takes that gt's box, else a box of its own. */
function fromDense(gtPresent: number[][], trPresent: number[][], sim: (t: number, g: number, p: number) => number) {
  const frames: Frame[] = gtPresent.map((gts, t) => {
    const gt = gts.flatMap((on, g) => (on ? [[g, 100 * g] as [number, number]] : []));
    const pred = trPresent[t]!.flatMap((on, p) => {
      if (!on) return [];
      const g = gts.findIndex((present, gi) => present && sim(t, gi, p) === 1);
      return [[p, g >= 0 ? 100 * g : 1000 + 100 * p] as [number, number]];
    });
    return { gt, pred };
  });
  return sequence(frames);
}

/** Columns of the test's per-id arrays become per-timestep rows. */
function present(...perId: number[][]): number[][] {
  return perId[0]!.map((_, t) => perId.map((col) => col[t]!));
}

function scores(seq: SequenceInput) {
  return evaluate([seq], { classNames: ['object'] }).combined;
}

describe("TrackEval's tests/test_metrics.py", () => {
  it('no_confusion', () => {
    const sim = (t: number, g: number, p: number) =>
      g === 0 && p === 1 ? [0, 0, 0, 1, 1][t]! : g === 1 && p === 0 ? [1, 1, 0, 0, 0][t]! : 0;
    const r = scores(
      fromDense(present([1, 1, 1, 1, 1], [1, 1, 1, 0, 0]), present([1, 1, 1, 1, 0], [1, 1, 1, 1, 1]), sim),
    );
    expect(r).toMatchObject({ CLR_TP: 4, CLR_FN: 4, CLR_FP: 5, IDSW: 0, IDTP: 4, IDFN: 4, IDFP: 5 });
    expect(r.MOTA).toBeCloseTo(1 - 9 / 8, 12);
    expect(r.IDR).toBeCloseTo(4 / 8, 12);
    expect(r.IDP).toBeCloseTo(4 / 9, 12);
    expect(r.IDF1).toBeCloseTo((2 * 4) / 17, 12);
  });

  it('with_confusion', () => {
    const table: Record<string, number[]> = {
      '0,1': [0, 0, 0, 1, 1],
      '1,0': [1, 1, 0, 0, 0],
      '0,0': [0, 0, 1, 0, 0],
      '1,1': [0, 1, 0, 0, 0],
    };
    const sim = (t: number, g: number, p: number) => table[`${g},${p}`]?.[t] ?? 0;
    // At t = 1 gt 1 is at IoU 1 with both trackers: both take its box.
    const r = scores(
      fromDense(present([1, 1, 1, 1, 1], [1, 1, 1, 0, 0]), present([1, 1, 1, 1, 0], [1, 1, 1, 1, 1]), sim),
    );
    expect(r).toMatchObject({ CLR_TP: 5, CLR_FN: 3, CLR_FP: 4, IDSW: 1, IDTP: 4, IDFN: 4, IDFP: 5 });
    expect(r.MOTA).toBeCloseTo(1 - 8 / 8, 12);
    expect(r.IDF1).toBeCloseTo((2 * 4) / 17, 12);
  });

  it('split_tracks', () => {
    const table: Record<string, number[]> = {
      '0,0': [1, 1, 0, 0, 0],
      '0,3': [0, 0, 0, 1, 1],
      '1,1': [0, 0, 1, 1, 0],
      '1,2': [0, 0, 0, 0, 1],
      '1,4': [1, 1, 0, 0, 0],
    };
    const sim = (t: number, g: number, p: number) => table[`${g},${p}`]?.[t] ?? 0;
    const r = scores(
      fromDense(
        present([1, 1, 0, 1, 1], [1, 1, 1, 1, 1]),
        present([1, 1, 0, 0, 0], [0, 0, 1, 1, 1], [0, 0, 0, 0, 1], [0, 0, 1, 1, 1], [1, 1, 0, 0, 0]),
        sim,
      ),
    );
    expect(r).toMatchObject({ CLR_TP: 9, CLR_FN: 0, CLR_FP: 2, IDSW: 3, IDTP: 4, IDFN: 5, IDFP: 7 });
    expect(r.MOTA).toBeCloseTo(1 - 5 / 9, 12);
    expect(r.IDR).toBeCloseTo(4 / 9, 12);
    expect(r.IDP).toBeCloseTo(4 / 11, 12);
    expect(r.IDF1).toBeCloseTo((2 * 4) / 20, 12);
  });
});

describe("py-motmetrics' inline cases", () => {
  it('MOTA 0.25: all FP, all miss, match, switch, and history preferred over a better new match', () => {
    const a = 1;
    const b = 2;
    const r = scores(
      sequence([
        {
          gt: [],
          pred: [
            [a, 500],
            [b, 600],
          ],
        },
        {
          gt: [
            [1, 0],
            [2, 100],
          ],
          pred: [],
        },
        // 1 and 2 overlap (IoU 8/12); b sits on 1 and a on 2.
        {
          gt: [
            [1, 0],
            [2, 2],
          ],
          pred: [
            [a, 2],
            [b, 0],
          ],
        },
        {
          gt: [
            [1, 0],
            [2, 100],
          ],
          pred: [
            [a, 0],
            [b, 100],
          ],
        },
        // The same layout as two frames before: a better total exists, but the previous pairs are kept.
        {
          gt: [
            [1, 0],
            [2, 2],
          ],
          pred: [
            [a, 2],
            [b, 0],
          ],
        },
        { gt: [], pred: [] },
      ]),
    );
    expect(r).toMatchObject({ CLR_TP: 6, CLR_FP: 2, CLR_FN: 2, IDSW: 2 });
    expect(r.MOTA).toBeCloseTo(0.25, 12);
  });

  it('MOTA 0.7: transfers, an ascending and a migrating track', () => {
    const r = scores(
      sequence([
        { gt: [], pred: [] },
        {
          gt: [
            [1, 0],
            [2, 100],
          ],
          pred: [
            [2, 0],
            [1, 100],
          ],
        },
        {
          gt: [
            [1, 0],
            [2, 100],
          ],
          pred: [
            [1, 0],
            [2, 100],
          ],
        },
        {
          gt: [
            [1, 0],
            [2, 100],
          ],
          pred: [
            [1, 0],
            [2, 100],
          ],
        },
        {
          gt: [
            [1, 0],
            [2, 100],
          ],
          pred: [
            [3, 0],
            [2, 100],
          ],
        },
        {
          gt: [
            [1, 0],
            [3, 100],
          ],
          pred: [
            [3, 0],
            [2, 100],
          ],
        },
        { gt: [], pred: [] },
      ]),
    );
    expect(r).toMatchObject({ CLR_TP: 10, CLR_FP: 0, CLR_FN: 0, IDSW: 3 });
    expect(r.MOTA).toBeCloseTo(0.7, 12);
  });

  it("MOTA 0.2: figure 3 of 'Evaluating MOT Performance'", () => {
    const four: [number, number][] = [
      [1, 0],
      [2, 100],
      [3, 200],
      [4, 300],
    ];
    const frames: Frame[] = [
      ...Array.from({ length: 4 }, () => ({ gt: four, pred: [] })),
      ...Array.from({ length: 4 }, (): Frame => ({ gt: [[4, 300]], pred: [[4, 300]] })),
    ];
    const r = scores(sequence(frames));
    expect(r).toMatchObject({ CLR_TP: 4, CLR_FN: 16, CLR_FP: 0, IDSW: 0 });
    expect(r.MOTA).toBeCloseTo(0.2, 12);
  });
});
