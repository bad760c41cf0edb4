import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Semaphore } from '../../src/util/semaphore.js';

describe('Semaphore', () => {
  it('never lets more than its slots hold at once, and serves waiters in arrival order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 30 }),
        async (slots, delays) => {
          const gate = new Semaphore(slots);
          let holding = 0;
          let most = 0;
          const started: number[] = [];
          await Promise.all(
            delays.map(async (delay, i) => {
              await gate.acquire();
              started.push(i);
              holding++;
              most = Math.max(most, holding);
              for (let k = 0; k < delay; k++) await Promise.resolve();
              holding--;
              gate.release();
            }),
          );
          expect(most).toBeLessThanOrEqual(slots);
          expect(started).toEqual(delays.map((_, i) => i));
        },
      ),
    );
  });
});
