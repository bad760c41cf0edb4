// The pure core: the point-in-polygon rule and the grid cover it relies on.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellMasksOfPoints, cellOf, intersects } from '../../src/search/grid.js';
import { containsPoint, coverCells, polygonOf } from '../../src/search/region.js';

const U = polygonOf([10, 10, 30, 10, 30, 60, 70, 60, 70, 10, 90, 10, 90, 90, 10, 90]);

describe('region core', () => {
  it('tests a concave polygon with its edges and vertices inside', () => {
    expect(containsPoint(U, 20, 20)).toBe(true);
    expect(containsPoint(U, 50, 30)).toBe(false); // the notch
    expect(containsPoint(U, 50, 60)).toBe(true); // on the notch's floor
    expect(containsPoint(U, 30, 35)).toBe(true); // on an inner edge
    expect(containsPoint(U, 90, 90)).toBe(true); // a vertex
    expect(containsPoint(U, 90.000001, 50)).toBe(false);
    expect(containsPoint(U, 5, 50)).toBe(false);
  });

  it('puts points on the outer edge in the last cell', () => {
    expect(cellOf(0, 0)).toBe(0);
    expect(cellOf(100, 100)).toBe(63);
    expect(cellOf(12.5, 0)).toBe(1);
    expect(cellOf(99.99, 0)).toBe(7);
  });

  it('covers every cell that holds a point the polygon contains', () => {
    const coord = fc.oneof(
      fc.integer({ min: 0, max: 8 }).map((i) => i * 12.5),
      fc.double({ min: -5, max: 105, noNaN: true }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(coord, coord), { minLength: 3, maxLength: 10 }),
        fc.array(fc.tuple(coord, coord), { minLength: 1, maxLength: 40 }),
        (vertices, points) => {
          const poly = polygonOf(vertices.flat());
          const cover = coverCells(poly);
          for (const [x, y] of points) {
            const px = Math.min(100, Math.max(0, x));
            const py = Math.min(100, Math.max(0, y));
            if (containsPoint(poly, px, py)) expect(intersects(cover, cellMasksOfPoints([px, py]))).toBe(true);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
