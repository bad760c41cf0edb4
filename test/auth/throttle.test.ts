// The login throttle's policy, pure: a sliding window estimated from two fixed ones.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recentFailures, retryAfterSeconds, type FailureCounter } from '../../src/auth/throttle.js';

const W = 900;
const at = (failures: number, previous: number, elapsedMs: number, now = 10_000_000_000): [FailureCounter, number] => [
  { failures, previous, windowStart: now - elapsedMs },
  now,
];

describe('login throttle policy', () => {
  it('lets a key under the limit try, and refuses one at it', () => {
    expect(retryAfterSeconds(undefined, 5, W, 0)).toBe(0);
    expect(retryAfterSeconds(...withMax(at(4, 0, 1000), 5))).toBe(0);
    // Five failures in the current window, which began a second ago: open again as the window turns (899.001 s
    // from now, rounded up), when they start to fade below five.
    expect(retryAfterSeconds(...withMax(at(5, 0, 1000), 5))).toBe(W);
  });

  it('counts the previous window for as much of it as still lies within the window: no burst around an edge', () => {
    // Five failures just before the window turned, one second ago: the estimate is still ~5.
    const [counter, now] = at(0, 5, 1000);
    expect(recentFailures(counter, W * 1000, now)).toBeCloseTo(5 * (1 - 1 / W), 6);
    expect(retryAfterSeconds(counter, 5, W, now)).toBe(0);
    const [after, then] = at(1, 5, 1000);
    expect(retryAfterSeconds(after, 5, W, then)).toBeGreaterThan(W / 5 - 2);
  });

  it('does not lengthen the wait for claims of concurrent attempts beyond the limit (they are refused and uncounted)', () => {
    const [counter, now] = at(5, 3, 1000);
    expect(retryAfterSeconds({ ...counter, failures: 40 }, 5, W, now)).toBe(retryAfterSeconds(counter, 5, W, now));
  });

  it('waits exactly until the estimate falls below the limit (property)', () => {
    // A window's real failures never exceed max (an attempt is tried only while the estimate, which counts them
    // all, is below max); the previous window's are any number up to max as well.
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 30 })
          .chain((max) => fc.tuple(fc.integer({ min: 0, max }), fc.integer({ min: 0, max }), fc.constant(max))),
        fc.integer({ min: 1, max: 3600 }),
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        ([failures, previous, max], windowSeconds, fraction) => {
          const windowMs = windowSeconds * 1000;
          const [counter, now] = at(failures, previous, Math.floor(fraction * windowMs));
          const wait = retryAfterSeconds(counter, max, windowSeconds, now);
          const estimate = (t: number) => recentFailures(counter, windowMs, t);
          if (wait === 0) return estimate(now) < max;
          const allowedAgain = estimate(now + wait * 1000) < max;
          const stillRefused = wait === 1 || estimate(now + (wait - 1) * 1000 - 2) >= max - 1e-9;
          return estimate(now) >= max && allowedAgain && stillRefused && wait <= 2 * windowSeconds;
        },
      ),
      { numRuns: 2000 },
    );
  });
});

function withMax([counter, now]: [FailureCounter, number], max: number): [FailureCounter, number, number, number] {
  return [counter, max, W, now];
}
