import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linearSumAssignment, negativePairs } from '../../src/evaluation/assignment.js';
import { maxWeightMatching } from '../../src/evaluation/matching.js';
import { readJson } from './fixtures.js';

/** The least total cost over every assignment of min(n, m) pairs, by enumeration over the smaller side. */
function bruteForce(cost: number[][], n: number, m: number): number {
  const small = Math.min(n, m);
  const large = Math.max(n, m);
  const at = (i: number, j: number): number => (n <= m ? cost[i]![j]! : cost[j]![i]!);
  const used = new Array<boolean>(large).fill(false);
  let best = Number.POSITIVE_INFINITY;
  const go = (i: number, acc: number): void => {
    if (i === small) {
      best = Math.min(best, acc);
      return;
    }
    for (let j = 0; j < large; j++) {
      if (used[j]) continue;
      used[j] = true;
      go(i + 1, acc + at(i, j));
      used[j] = false;
    }
  };
  go(0, 0);
  return best;
}

function solve(cost: number[][], maximize = false) {
  const n = cost.length;
  const m = cost[0]?.length ?? 0;
  return linearSumAssignment(Float64Array.from(cost.flat()), n, m, maximize);
}

describe('linearSumAssignment', () => {
  it('equals SciPy 1.17 on 400 small matrices full of ties, pair for pair', () => {
    const { cases } = readJson<{ cases: { cost: number[][]; rows: number[]; cols: number[] }[] }>(
      'expected/assignment.json',
    );
    for (const c of cases) {
      const { rows, cols } = solve(c.cost);
      expect({ rows: Array.from(rows), cols: Array.from(cols) }, JSON.stringify(c.cost)).toEqual({
        rows: c.rows,
        cols: c.cols,
      });
    }
  });

  it('property: the total equals brute force, every row (or column) is used once', () => {
    const matrix = fc
      .tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }), fc.boolean())
      .chain(([n, m, ints]) =>
        fc.array(
          fc.array(ints ? fc.integer({ min: -3, max: 3 }) : fc.double({ min: -10, max: 10, noNaN: true }), {
            minLength: m,
            maxLength: m,
          }),
          { minLength: n, maxLength: n },
        ),
      );
    fc.assert(
      fc.property(matrix, (cost) => {
        const n = cost.length;
        const m = cost[0]!.length;
        const { rows, cols } = solve(cost);
        expect(rows.length).toBe(Math.min(n, m));
        expect(new Set(rows).size).toBe(rows.length);
        expect(new Set(cols).size).toBe(cols.length);
        for (let k = 1; k < rows.length; k++) expect(rows[k]!).toBeGreaterThan(rows[k - 1]!);
        let total = 0;
        for (let k = 0; k < rows.length; k++) total += cost[rows[k]!]![cols[k]!]!;
        expect(total).toBeCloseTo(bruteForce(cost, n, m), 9);
      }),
      { numRuns: 800 },
    );
  });

  it('maximize gives the assignment of the negated matrix', () => {
    const cost = [
      [0.6, 0.9, 0],
      [0.8, 0.7, 0.1],
    ];
    const max = solve(cost, true);
    const min = solve(cost.map((r) => r.map((x) => -x)));
    expect(Array.from(max.cols)).toEqual(Array.from(min.cols));
    expect(Array.from(max.cols)).toEqual([1, 0]);
  });

  it('empty and invalid matrices', () => {
    expect(linearSumAssignment(new Float64Array(0), 0, 3).rows.length).toBe(0);
    expect(() => solve([[Number.NaN]])).toThrow(/invalid/);
    expect(() => solve([[Number.POSITIVE_INFINITY]])).toThrow(/infeasible/);
  });
});

describe('negativePairs', () => {
  // Sparse score matrices as the metrics make them: most cells 0, some negative, values from a small set so that
  // exact ties (which only the full solver breaks as SciPy does) are common, and from a wide one so they are not.
  const sparse = fc
    .record({
      n: fc.integer({ min: 1, max: 9 }),
      m: fc.integer({ min: 1, max: 9 }),
      tied: fc.boolean(),
      seed: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 162, maxLength: 162 }),
    })
    .map(({ n, m, tied, seed }) => {
      const cost = new Float64Array(n * m);
      for (let c = 0; c < n * m; c++) {
        if (seed[2 * c]! < 0.7) continue;
        const v = seed[2 * c + 1]!;
        cost[c] = -(tied ? Math.ceil(v * 3) / 4 : v + 1e-6);
      }
      return { n, m, cost };
    });

  it('property: the same negative pairs, in the same order, as the full SciPy-order solver', () => {
    fc.assert(
      fc.property(sparse, ({ n, m, cost }) => {
        const cells = Int32Array.from(Array.from({ length: n * m }, (_, c) => c));
        const got = negativePairs(cost, n, m, cells, 0, n * m);
        const all = linearSumAssignment(cost, n, m);
        const want: [number, number][] = [];
        all.rows.forEach((r, k) => {
          if (cost[r * m + all.cols[k]!]! < 0) want.push([r, all.cols[k]!]);
        });
        expect(Array.from(got.rows, (r, k) => [r, got.cols[k]!])).toEqual(want);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('maxWeightMatching', () => {
  it('property: equals the dense assignment on the weights (unmatched = weight 0)', () => {
    const graph = fc.tuple(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 7 })).chain(([n, m]) =>
      fc.array(fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 6 })), { minLength: m, maxLength: m }), {
        minLength: n,
        maxLength: n,
      }),
    );
    fc.assert(
      fc.property(graph, (w) => {
        const n = w.length;
        const m = w[0]!.length;
        const rowStart = new Int32Array(n + 1);
        const colIndex: number[] = [];
        const weights: number[] = [];
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < m; j++) {
            if (w[i]![j]! > 0) {
              colIndex.push(j);
              weights.push(w[i]![j]!);
            }
          }
          rowStart[i + 1] = colIndex.length;
        }
        const sparse = maxWeightMatching({
          rows: n,
          cols: m,
          rowStart,
          colIndex: Int32Array.from(colIndex),
          weights: Float64Array.from(weights),
        });
        const { rows, cols } = solve(w, true);
        let dense = 0;
        for (let k = 0; k < rows.length; k++) dense += w[rows[k]!]![cols[k]!]!;
        expect(sparse).toBe(dense);
      }),
      { numRuns: 1000 },
    );
  });
});
