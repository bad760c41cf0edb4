import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answersOf, pickBatch } from '../../src/detections/run-write-batch.js';

const writes = fc
  .array(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { maxLength: 30 })
  .map((keys) => keys.map((key, seq) => ({ key, seq })));

describe('pickBatch', () => {
  it('takes each waiting write exactly once, oldest keys first, keeps arrival order, and leaves busy keys waiting', () => {
    fc.assert(
      fc.property(
        writes,
        fc.subarray(['a', 'b', 'c', 'd', 'e']),
        fc.integer({ min: 1, max: 6 }),
        (waiting, busyKeys, maxKeys) => {
          const busy = new Set(busyKeys);
          const { groups, rest } = pickBatch(waiting, busy, maxKeys);
          // Every write once, and in arrival order within each group and in what stays.
          expect([...groups.flat(), ...rest].map((w) => w.seq).sort((x, y) => x - y)).toEqual(
            waiting.map((w) => w.seq),
          );
          for (const list of [...groups, rest])
            expect(list.map((w) => w.seq)).toEqual([...list.map((w) => w.seq)].sort((x, y) => x - y));
          // One key per group, never a busy one, at most maxKeys of them; a key is either taken whole or left whole.
          expect(groups.length).toBeLessThanOrEqual(maxKeys);
          const taken = groups.map((g) => g[0]!.key);
          expect(new Set(taken).size).toBe(taken.length);
          for (const g of groups) expect(g.every((w) => w.key === g[0]!.key && !busy.has(w.key))).toBe(true);
          for (const w of rest) expect(taken).not.toContain(w.key);
          // The keys taken are the oldest eligible ones: what stays is busy or came after the batch was full.
          const eligible = [...new Set(waiting.map((w) => w.key))].filter((k) => !busy.has(k));
          expect(taken).toEqual(eligible.slice(0, maxKeys));
        },
      ),
    );
  });
});

describe('answersOf', () => {
  it('gives the stored result to the first write of a group and "replaced" to the rest', () => {
    expect(answersOf(3, { created: true, runPk: 'p' })).toEqual([
      { created: true, runPk: 'p' },
      { created: false, runPk: 'p' },
      { created: false, runPk: 'p' },
    ]);
    expect(answersOf(1, { created: false, runPk: 'q' })).toEqual([{ created: false, runPk: 'q' }]);
  });
});
