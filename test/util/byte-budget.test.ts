import { describe, expect, it, vi } from 'vitest';
import { ByteBudget } from '../../src/util/byte-budget.js';

describe('ByteBudget', () => {
  it('reserves until full, then makes the next wait for room in arrival order', async () => {
    const budget = new ByteBudget(10);
    expect(await budget.reserve(6, 1000)).toBe(true);
    const big = budget.reserve(8, 1000);
    const small = budget.reserve(1, 1000);
    let smallDone = false;
    void small.then(() => (smallDone = true));
    await new Promise((r) => setImmediate(r));
    // 1 byte would fit, but the 8 came first: it is not overtaken.
    expect(smallDone).toBe(false);
    budget.release(6);
    expect(await big).toBe(true);
    expect(await small).toBe(true);
    expect(budget.used).toBe(9);
  });

  it('gives up after the wait, and the ones behind are served when the blocker leaves', async () => {
    vi.useFakeTimers();
    try {
      const budget = new ByteBudget(10);
      await budget.reserve(5, 100);
      const blocked = budget.reserve(10, 100);
      vi.advanceTimersByTime(50);
      const behind = budget.reserve(5, 1000);
      vi.advanceTimersByTime(60);
      expect(await blocked).toBe(false);
      expect(await behind).toBe(true);
      expect(budget.used).toBe(10);
    } finally {
      vi.useRealTimers();
    }
  });

  it('caps a reservation larger than the budget at the whole budget', async () => {
    const budget = new ByteBudget(10);
    expect(await budget.reserve(50, 10)).toBe(true);
    expect(budget.used).toBe(10);
    budget.release(50);
    expect(budget.used).toBe(0);
  });
});
