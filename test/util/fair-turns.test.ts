import { describe, expect, it } from 'vitest';
import { FairTurns } from '../../src/util/fair-turns.js';

const settled = async <T>(p: Promise<T>) => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  return done;
};

describe('FairTurns', () => {
  it('keeps a turn for another key while one key holds all but one', async () => {
    const turns = new FairTurns(2);
    await turns.acquire('a');
    const secondA = turns.acquire('a');
    expect(await settled(secondA)).toBe(false);
    // b arrives after a's second request, and is served first: a may not hold both turns.
    await turns.acquire('b');
    expect(turns.used).toBe(2);
    turns.release('b');
    expect(await settled(secondA)).toBe(false);
    turns.release('a');
    expect(await settled(secondA)).toBe(true);
  });

  it('serves waiters in arrival order among those allowed a turn', async () => {
    const turns = new FairTurns(3);
    await turns.acquire('a');
    await turns.acquire('a');
    await turns.acquire('b');
    const order: string[] = [];
    const waits = [
      turns.acquire('a').then(() => order.push('a')),
      turns.acquire('c').then(() => order.push('c')),
      turns.acquire('b').then(() => order.push('b')),
    ];
    turns.release('a'); // a now holds 1: the a waiter (first) may take it
    turns.release('b');
    turns.release('a');
    await Promise.all(waits);
    expect(order).toEqual(['a', 'c', 'b']);
  });

  it('lets a single key use one turn at a time when there is one turn', async () => {
    const turns = new FairTurns(1);
    await turns.acquire('a');
    const next = turns.acquire('a');
    expect(await settled(next)).toBe(false);
    turns.release('a');
    expect(await settled(next)).toBe(true);
  });
});
