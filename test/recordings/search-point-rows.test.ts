// The stored centroid layout: points ordered by grid row with each row's start, and the row slice a search
// reads. Reading only the rows of the region's cells must never lose a point the region contains.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodePoints, encodePoints } from '../../src/detections/centroids.js';
import { cellOf, GRID } from '../../src/search/grid.js';
import { orderByRow, POINT_BYTES, ROW_START_COLUMNS, rowOf, rowSpan } from '../../src/search/point-rows.js';
import { containsPoint, coverCells, polygonOf } from '../../src/search/region.js';

// Coordinates on the grid's row borders (multiples of 12.5), the frame's edges and anywhere in between.
const coord = fc.oneof(
  fc.integer({ min: 0, max: 8 }).map((i) => i * 12.5),
  fc.double({ min: 0, max: 100, noNaN: true }),
);
const pointList = fc.array(fc.tuple(coord, coord), { maxLength: 60 }).map((ps) => ps.flat());

/** The slice search reads for rows first..last, exactly as the SQL substr does. */
function slice(blob: Buffer, starts: number[], first: number, last: number): Float64Array {
  return decodePoints(blob.subarray(POINT_BYTES * starts[first]!, POINT_BYTES * starts[last + 1]!));
}

function allStarts(points: number[]) {
  const { ordered, starts } = orderByRow(points);
  return { ordered, starts: [0, ...ROW_START_COLUMNS.map((c) => starts[c]), points.length / 2] };
}

describe('centroid rows', () => {
  it('keeps every point, ordered by row, each row starting where its column says', () => {
    fc.assert(
      fc.property(pointList, (points) => {
        const { ordered, starts } = allStarts(points);
        const pairs = (xy: number[]) =>
          Array.from({ length: xy.length / 2 }, (_, i) => `${xy[2 * i]},${xy[2 * i + 1]}`).sort();
        expect(pairs(ordered)).toEqual(pairs(points));
        for (let r = 0; r < GRID; r++) {
          for (let i = starts[r]!; i < starts[r + 1]!; i++) expect(rowOf(ordered[2 * i + 1]!)).toBe(r);
        }
      }),
    );
  });

  it('puts a point in the row of its cell, the bottom edge in the last row', () => {
    expect(rowOf(0)).toBe(0);
    expect(rowOf(12.5)).toBe(1);
    expect(rowOf(100)).toBe(GRID - 1);
    fc.assert(
      fc.property(coord, coord, (x, y) => {
        expect(rowOf(y)).toBe(Math.floor(cellOf(x, y) / GRID));
      }),
    );
  });

  it('reads, for any region, a row slice holding every point the region contains', () => {
    const region = fc.array(fc.tuple(coord, coord), { minLength: 3, maxLength: 8 }).map((ps) => polygonOf(ps.flat()));
    fc.assert(
      fc.property(pointList, region, (points, poly) => {
        const mask = coverCells(poly);
        const [first, last] = rowSpan(mask);
        const { ordered, starts } = allStarts(points);
        const read = slice(encodePoints(ordered), starts, first, last);
        const inside = (xy: ArrayLike<number>) => {
          let n = 0;
          for (let i = 0; i < xy.length; i += 2) if (containsPoint(poly, xy[i]!, xy[i + 1]!)) n++;
          return n;
        };
        expect(inside(read)).toBe(inside(points));
      }),
      { numRuns: 500 },
    );
  });

  it('spans the rows of the mask', () => {
    expect(rowSpan(coverCells(polygonOf([1, 1, 2, 1, 2, 2])))).toEqual([0, 0]);
    expect(rowSpan(coverCells(polygonOf([40, 30, 60, 30, 60, 60, 40, 60])))).toEqual([2, 4]);
    expect(rowSpan(coverCells(polygonOf([0, 0, 100, 0, 100, 100])))).toEqual([0, GRID - 1]);
  });
});
