import { describe, expect, it } from 'vitest';
import { cellChange } from '../../src/search/label-cells.js';

describe('cellChange', () => {
  it('merges when the removed cells of a label are covered by the union of several added parts of it (runs written together)', () => {
    const removed = [{ label: 'car', mask: { lo: 0b11, hi: 0 }, count: 2 }];
    const added = [
      { label: 'car', mask: { lo: 0b01, hi: 0 }, count: 1 },
      { label: 'car', mask: { lo: 0b10, hi: 0 }, count: 1 },
    ];
    expect(cellChange(removed, added)).toEqual({
      merge: [...added, { label: 'car', mask: { lo: 0, hi: 0 }, count: -2 }],
    });
  });

  it('recomputes when a removed cell is in no added part of its label', () => {
    const removed = [{ label: 'car', mask: { lo: 0b100, hi: 0 }, count: 1 }];
    expect(cellChange(removed, [{ label: 'car', mask: { lo: 0b11, hi: 0 }, count: 2 }])).toBe('recompute');
    expect(cellChange(removed, [{ label: 'dog', mask: { lo: 0b100, hi: 0 }, count: 1 }])).toBe('recompute');
    expect(
      cellChange(
        [{ label: 'car', mask: { lo: 0, hi: 1 }, count: 1 }],
        [{ label: 'car', mask: { lo: 0xffffffff, hi: 0 }, count: 1 }],
      ),
    ).toBe('recompute');
  });
});
