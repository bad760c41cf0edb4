// splitByClass gives, in one pass, what filterBoxSet gives class by class: the same boxes in the same frames and
// order, and the set itself (not a copy) for a class that holds every box.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boxSetFromRows, filterBoxSet, splitByClass } from '../../src/evaluation/layout.js';

const row = (frames: number, classes: number) =>
  fc.record({
    frame: fc.integer({ min: 0, max: frames - 1 }),
    id: fc.integer({ min: 0, max: 20 }),
    box: fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 4, maxLength: 4 }),
    cls: fc.integer({ min: 0, max: classes - 1 }),
    conf: fc.double({ min: 0, max: 1, noNaN: true }),
  });

describe('splitByClass', () => {
  it('equals filterBoxSet by class, class by class', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 6 })
          .chain((frames) =>
            fc
              .integer({ min: 1, max: 4 })
              .chain((classes) =>
                fc.tuple(fc.constant(frames), fc.constant(classes), fc.array(row(frames, classes), { maxLength: 40 })),
              ),
          ),
        ([frames, classes, rows]) => {
          const set = boxSetFromRows(
            frames,
            rows.map((r) => r.frame),
            rows.map((r) => r.id),
            rows.flatMap((r) => r.box),
            rows.map((r) => r.cls),
            rows.map((r) => r.conf),
          );
          const split = splitByClass(set, classes);
          expect(split).toHaveLength(classes);
          for (let c = 0; c < classes; c++) {
            const want = filterBoxSet(set, (k) => set.classes[k] === c);
            expect(split[c]).toEqual(want);
            if (want === set) expect(split[c]).toBe(set);
          }
        },
      ),
    );
  });

  it('leaves out boxes of a class outside the range', () => {
    const set = boxSetFromRows(2, [0, 1, 1], [1, 2, 3], new Array(12).fill(1), [0, 5, 1], [1, 1, 1]);
    const [zero, one] = splitByClass(set, 2);
    expect(Array.from(zero!.ids)).toEqual([1]);
    expect(Array.from(one!.ids)).toEqual([3]);
    expect(Array.from(one!.frameStart)).toEqual([0, 0, 1]);
  });
});
