// The queue's own logic, with an in-memory writer whose batches finish when the test says so.
import { describe, expect, it } from 'vitest';
import { RunWriteQueue } from '../../src/detections/run-write-queue.js';
import type { StoredRun } from '../../src/detections/run-write-batch.js';

interface W {
  key: string;
  body: string;
}

function controlledWriter(fail: (groups: W[][]) => boolean = () => false) {
  const batches: Array<{ groups: W[][]; finish(): void }> = [];
  const stored = new Map<string, string>();
  let writing = 0;
  let mostAtOnce = 0;
  const write = (groups: W[][]) =>
    new Promise<StoredRun[]>((resolve, reject) => {
      writing++;
      mostAtOnce = Math.max(mostAtOnce, writing);
      batches.push({
        groups,
        finish() {
          writing--;
          if (fail(groups)) {
            reject(new Error(`failed: ${groups.map((g) => g[0]!.key).join(',')}`));
            return;
          }
          resolve(
            groups.map((g) => {
              const last = g[g.length - 1]!;
              const created = !stored.has(last.key);
              stored.set(last.key, last.body);
              return { created, runPk: `pk-${last.key}` };
            }),
          );
        },
      });
    });
  return { write, batches, stored, mostAtOnce: () => mostAtOnce };
}

/** Lets every promise callback that is ready run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('RunWriteQueue', () => {
  it('writes alone at once when idle, and collapses what waits for one key into one write answered in order', async () => {
    const w = controlledWriter();
    const queue = new RunWriteQueue(w.write, { maxInFlight: 1, maxKeys: 8, deferToCheckPhase: false });
    const first = queue.write({ key: 'k', body: '1' });
    expect(w.batches).toHaveLength(1);
    const later = [2, 3, 4].map((n) => queue.write({ key: 'k', body: String(n) }));
    const other = queue.write({ key: 'j', body: 'x' });
    w.batches[0]!.finish();
    expect(await first).toEqual({ created: true, runPk: 'pk-k' });
    await settle();
    expect(w.batches).toHaveLength(2);
    expect(w.batches[1]!.groups.map((g) => g.map((x) => x.body))).toEqual([['2', '3', '4'], ['x']]);
    w.batches[1]!.finish();
    expect(await Promise.all(later)).toEqual([1, 2, 3].map(() => ({ created: false, runPk: 'pk-k' })));
    expect(await other).toEqual({ created: true, runPk: 'pk-j' });
    expect(w.stored.get('k')).toBe('4');
  });

  it('never writes one key in two batches at once, and keeps at most maxInFlight batches', async () => {
    const w = controlledWriter();
    const queue = new RunWriteQueue(w.write, { maxInFlight: 2, maxKeys: 8, deferToCheckPhase: false });
    const answers = [
      queue.write({ key: 'a', body: '1' }),
      queue.write({ key: 'a', body: '2' }),
      queue.write({ key: 'b', body: '1' }),
      queue.write({ key: 'c', body: '1' }),
    ];
    // Two batches went out at once; the second 'a' and 'c' wait.
    expect(w.batches.map((b) => b.groups.map((g) => g[0]!.key))).toEqual([['a'], ['b']]);
    w.batches[1]!.finish();
    await settle();
    // A slot is free: 'c' goes, the second 'a' still waits for the first.
    expect(w.batches.map((b) => b.groups.map((g) => g[0]!.key))).toEqual([['a'], ['b'], ['c']]);
    w.batches[0]!.finish();
    await settle();
    expect(w.batches[3]!.groups.map((g) => g.map((x) => x.body))).toEqual([['2']]);
    w.batches[2]!.finish();
    w.batches[3]!.finish();
    expect((await Promise.all(answers)).map((a) => a.created)).toEqual([true, false, true, true]);
    expect(w.mostAtOnce()).toBe(2);
  });

  it('when a batch fails, writes each of its writes alone so only the failing one fails', async () => {
    const w = controlledWriter((groups) => groups.some((g) => g.some((x) => x.body === 'bad')));
    const queue = new RunWriteQueue(w.write, { maxInFlight: 1, maxKeys: 8, deferToCheckPhase: false });
    const head = queue.write({ key: 'h', body: 'ok' });
    const rest = [
      queue.write({ key: 'a', body: 'ok' }),
      queue.write({ key: 'b', body: 'bad' }),
      queue.write({ key: 'c', body: 'ok' }),
    ];
    const outcomes = Promise.allSettled(rest);
    w.batches[0]!.finish();
    await head;
    // The batch of a, b and c fails, then each goes alone, one after another.
    for (let i = 1; i <= 4; i++) {
      await settle();
      expect(w.batches).toHaveLength(i + 1);
      w.batches[i]!.finish();
    }
    const settled = await outcomes;
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((settled[1] as PromiseRejectedResult).reason)).toContain('failed: b');
    expect(w.batches.slice(2).map((b) => b.groups.map((g) => g[0]!.key))).toEqual([['a'], ['b'], ['c']]);
    expect([...w.stored.keys()].sort()).toEqual(['a', 'c', 'h']);
  });

  it('deferring to the check phase puts the writes of one turn into one batch', async () => {
    const w = controlledWriter();
    const queue = new RunWriteQueue(w.write, { maxInFlight: 1, maxKeys: 8, deferToCheckPhase: true });
    const answers = ['a', 'b', 'a'].map((key, i) => queue.write({ key, body: String(i) }));
    expect(w.batches).toHaveLength(0);
    await settle();
    expect(w.batches.map((b) => b.groups.map((g) => g.map((x) => x.body)))).toEqual([[['0', '2'], ['1']]]);
    w.batches[0]!.finish();
    expect((await Promise.all(answers)).map((a) => a.created)).toEqual([true, true, false]);
  });

  it('a batch holds at most maxKeys keys; the rest go in the next', async () => {
    const w = controlledWriter();
    const queue = new RunWriteQueue(w.write, { maxInFlight: 1, maxKeys: 2, deferToCheckPhase: true });
    const answers = ['a', 'b', 'c', 'a', 'd'].map((key) => queue.write({ key, body: key }));
    await settle();
    expect(w.batches[0]!.groups.map((g) => g.map((x) => x.key))).toEqual([['a', 'a'], ['b']]);
    w.batches[0]!.finish();
    await settle();
    expect(w.batches[1]!.groups.map((g) => g.map((x) => x.key))).toEqual([['c'], ['d']]);
    w.batches[1]!.finish();
    expect(await Promise.all(answers)).toHaveLength(5);
  });
});
