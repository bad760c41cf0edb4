// The comparison's pure core, in Node: each box's part in CLEAR's matching lines up with the editor's frame index
// (the order the overlay draws in), the per-frame counts add up, and the figures are the evaluation engine's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/evaluation/evaluate.js';
import { boxSetFromRows } from '../../src/evaluation/layout.js';
import { compareRuns, FALSE_POSITIVE, MATCHED, MISSED } from '../../src/web/compare/comparison.js';
import { buildFrameIndex } from '../../src/web/editor/frame-index.js';
import type { Track } from '../../src/web/types.js';

const W = 640;
const H = 360;

/** Random tracks on a few frames; boxes in one of a few places so that matches, misses and switches all occur. */
const tracks = fc
  .array(
    fc.record({
      label: fc.constantFrom('person', 'car'),
      boxes: fc.uniqueArray(
        fc.record({
          frame: fc.integer({ min: 0, max: 7 }),
          spot: fc.integer({ min: 0, max: 3 }),
          d: fc.integer({ min: 0, max: 30 }),
        }),
        { selector: (b) => b.frame, maxLength: 8 },
      ),
    }),
    { maxLength: 6 },
  )
  .map((ts): Track[] =>
    ts.map((t, i) => ({
      id: `t${i}`,
      label: t.label,
      boxes: [...t.boxes]
        .sort((a, b) => a.frame - b.frame)
        .map((b) => ({ frame: b.frame, x: (40 + 120 * b.spot + b.d) / W, y: (60 + b.d) / H, w: 100 / W, h: 120 / H })),
    })),
  );

describe('compareRuns', () => {
  it("property: statuses in frame-index order, per-frame counts that add up, the engine's figures", () => {
    fc.assert(
      fc.property(tracks, tracks, (gt, pred) => {
        const out = compareRuns({ gt, pred, width: W, height: H, frameCount: 10, iouThreshold: 0.5 });
        const gi = buildFrameIndex(gt);
        const pi = buildFrameIndex(pred);
        for (let f = 0; f < 10; f++) {
          const count = (index: ReturnType<typeof buildFrameIndex>, status: Uint8Array, want: number) => {
            if (f >= index.frames) return 0;
            let n = 0;
            for (let i = index.start[f]!; i < index.start[f + 1]!; i++) if (status[i] === want) n++;
            return n;
          };
          expect(count(gi, out.gtStatus, MATCHED)).toBe(out.tp[f]);
          expect(count(pi, out.predStatus, MATCHED)).toBe(out.tp[f]);
          expect(count(gi, out.gtStatus, MISSED)).toBe(out.fn[f]);
          expect(count(pi, out.predStatus, FALSE_POSITIVE)).toBe(out.fp[f]);
          let switches = 0;
          if (f < gi.frames) for (let i = gi.start[f]!; i < gi.start[f + 1]!; i++) switches += out.gtSwitch[i]!;
          expect(switches).toBe(out.idsw[f]);
          expect(out.switchFrames.includes(f)).toBe(out.idsw[f]! > 0);
        }
        // A matched box overlaps a box of its class on the other side at IoU ≥ 0.5: same frame, same spot.
        for (let i = 0; i < out.gtStatus.length; i++) {
          if (out.gtStatus[i] !== MATCHED) continue;
          const f = gt[gi.track[i]!]!.boxes[gi.slot[i]!]!.frame;
          expect(pi.frames > f && pi.start[f + 1]! > pi.start[f]!).toBe(true);
        }
        // The figures: the engine on the same boxes in pixels, classes in order of first appearance.
        const names: string[] = [];
        const side = (ts: Track[]) => {
          const rows = {
            f: [] as number[],
            id: [] as number[],
            b: [] as number[],
            c: [] as number[],
            s: [] as number[],
          };
          ts.forEach((t, k) => {
            for (const b of t.boxes) {
              rows.f.push(b.frame);
              rows.id.push(k);
              rows.b.push(b.x * W, b.y * H, b.w * W, b.h * H);
              if (!names.includes(t.label!)) names.push(t.label!);
              rows.c.push(names.indexOf(t.label!));
              rows.s.push(1);
            }
          });
          return boxSetFromRows(10, rows.f, rows.id, rows.b, rows.c, rows.s);
        };
        const g = side(gt);
        const p = side(pred);
        if (names.length === 0) names.push('object');
        const want = evaluate([{ name: 'recording', numFrames: 10, gt: g, pred: p }], {
          classNames: names,
          metrics: ['hota', 'clear', 'identity', 'count', 'coco'],
        });
        expect(out.result.combined).toEqual(want.combined);
        expect(out.result.classes).toEqual(want.classes);
      }),
      { numRuns: 100 },
    );
  });

  it('a known case: one match, one miss, one false positive, one identity switch', () => {
    const box = (frame: number, x: number) => ({ frame, x: x / W, y: 0.2, w: 100 / W, h: 0.3 });
    const gt: Track[] = [
      { id: 'a', boxes: [box(0, 0), box(1, 0), box(2, 0)] },
      { id: 'b', boxes: [box(1, 300)] },
    ];
    const pred: Track[] = [
      { id: 'p', boxes: [box(0, 2), box(1, 2)] },
      { id: 'q', boxes: [box(2, 2)] },
      { id: 'fp', boxes: [box(1, 500)] },
    ];
    const out = compareRuns({ gt, pred, width: W, height: H, frameCount: 3, iouThreshold: 0.5 });
    expect(Array.from(out.tp)).toEqual([1, 1, 1]);
    expect(Array.from(out.fn)).toEqual([0, 1, 0]);
    expect(Array.from(out.fp)).toEqual([0, 1, 0]);
    expect(out.switchFrames).toEqual([2]);
    // Frame index order: frame 0: a; frame 1: a, b; frame 2: a.
    expect(Array.from(out.gtStatus)).toEqual([MATCHED, MATCHED, MISSED, MATCHED]);
    expect(Array.from(out.gtSwitch)).toEqual([0, 0, 0, 1]);
    // Frame 0: p; frame 1: p, fp; frame 2: q.
    expect(Array.from(out.predStatus)).toEqual([MATCHED, MATCHED, FALSE_POSITIVE, MATCHED]);
    expect(out.result.combined.IDSW).toBe(1);
  });
});
