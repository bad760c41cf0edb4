// The timeline's row diff, in Node: which rows an edit changed, the pixel bands they cover, and the rows that
// must be painted again in a band (thin rows share pixels with their neighbours).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  changedRows,
  dirtyBands,
  type PaintedRow,
  rowGeometry,
  rowsInBand,
} from '../../src/web/editor/timeline-rows.js';

const row = (spans: Array<[number, number]>, extra: Partial<PaintedRow> = {}): PaintedRow => ({
  spans,
  color: '#ff0000',
  alpha: 1,
  name: '',
  ...extra,
});

describe('changedRows', () => {
  it('names the rows whose spans, colour, opacity or name differ, comparing spans by value', () => {
    const before = [row([[0, 9]]), row([[5, 6]]), row([[1, 2]]), row([[3, 4]]), row([[7, 8]])];
    const after = [
      row([[0, 9]]), // equal spans in a new array: unchanged
      row([
        [5, 5],
        [7, 7],
      ]),
      row([[1, 2]], { color: '#00ff00' }),
      row([[3, 4]], { alpha: 0.5 }),
      row([[7, 8]], { name: 'car #1' }),
    ];
    expect(changedRows(before, after)).toEqual([1, 2, 3, 4]);
    expect(changedRows(before, before)).toEqual([]);
  });

  it('gives up when the row count changed (every row below moved)', () => {
    expect(changedRows([row([[0, 1]])], [row([[0, 1]]), row([[2, 3]])])).toBeUndefined();
  });
});

describe('dirtyBands and rowsInBand', () => {
  it('cover every pixel of a changed row, and every row reaching into a band is repainted', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6000 }),
        fc.integer({ min: 20, max: 400 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 20 }),
        (rows, height, picks) => {
          const g = rowGeometry(rows, 30, height);
          const changed = [...new Set(picks.map((p) => p % rows))];
          const bands = dirtyBands(changed, g);
          for (let i = 1; i < bands.length; i++) expect(bands[i]![0]).toBeGreaterThan(bands[i - 1]![1]);
          for (const r of changed) {
            const top = g.top + r * g.rowH;
            expect(bands.some(([a, b]) => a <= top && top + g.barH <= b)).toBe(true);
          }
          for (const [a, b] of bands) {
            const [first, last] = rowsInBand(a, b, rows, g);
            // Every row whose bar overlaps [a, b) lies within [first, last].
            for (let r = 0; r < rows; r++) {
              const top = g.top + r * g.rowH;
              if (top < b && top + g.barH > a) expect(r >= first && r <= last).toBe(true);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
