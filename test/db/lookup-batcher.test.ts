// The batcher's own logic, with an in-memory fetcher whose queries finish when the test says so.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LookupBatcher } from '../../src/db/lookup-batcher.js';

function controlledFetcher(table: Map<string, string>) {
  const queries: Array<{ keys: string[]; finish(fail?: boolean): void }> = [];
  let open = 0;
  let mostAtOnce = 0;
  const fetchMany = (keys: string[]) =>
    new Promise<Map<string, string>>((resolve, reject) => {
      open++;
      mostAtOnce = Math.max(mostAtOnce, open);
      queries.push({
        keys,
        finish(fail = false) {
          open--;
          if (fail) reject(new Error(`failed: ${keys.join(',')}`));
          else resolve(new Map(keys.filter((k) => table.has(k)).map((k) => [k, table.get(k)!])));
        },
      });
    });
  return { fetchMany, queries, mostAtOnce: () => mostAtOnce };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('LookupBatcher', () => {
  it('sends a lookup alone and at once when nothing is in flight', async () => {
    const f = controlledFetcher(new Map([['a', 'A']]));
    const batcher = new LookupBatcher(f.fetchMany, { maxInFlight: 1, maxKeys: 8 });
    const a = batcher.load('a');
    expect(f.queries.map((q) => q.keys)).toEqual([['a']]);
    f.queries[0]!.finish();
    expect(await a).toBe('A');
  });

  it('collects what arrives meanwhile into one query, one key once however many ask for it', async () => {
    const f = controlledFetcher(
      new Map([
        ['a', 'A'],
        ['b', 'B'],
        ['c', 'C'],
      ]),
    );
    const batcher = new LookupBatcher(f.fetchMany, { maxInFlight: 1, maxKeys: 8 });
    const first = batcher.load('a');
    const later = ['b', 'c', 'b', 'missing', 'a'].map((k) => batcher.load(k));
    expect(f.queries).toHaveLength(1);
    f.queries[0]!.finish();
    await settle();
    expect(f.queries.map((q) => q.keys)).toEqual([['a'], ['b', 'c', 'missing', 'a']]);
    f.queries[1]!.finish();
    expect(await first).toBe('A');
    expect(await Promise.all(later)).toEqual(['B', 'C', 'B', undefined, 'A']);
  });

  it('fails only the lookups of the query that failed', async () => {
    const f = controlledFetcher(
      new Map([
        ['a', 'A'],
        ['b', 'B'],
      ]),
    );
    const batcher = new LookupBatcher(f.fetchMany, { maxInFlight: 1, maxKeys: 8 });
    const a = batcher.load('a');
    const b = batcher.load('b');
    f.queries[0]!.finish(true);
    await expect(a).rejects.toThrow('failed: a');
    await settle();
    f.queries[1]!.finish();
    expect(await b).toBe('B');
  });

  it("property: every lookup settles with its key's value, or with the failure of a query that held its key", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), fc.constant('finish'), fc.constant('fail')), {
          maxLength: 60,
        }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 4 }),
        async (steps, maxInFlight, maxKeys) => {
          const table = new Map([
            ['a', 'A'],
            ['b', 'B'],
            ['c', 'C'],
            ['d', 'D'],
          ]);
          const f = controlledFetcher(table);
          const batcher = new LookupBatcher(f.fetchMany, { maxInFlight, maxKeys });
          const outcomes: Array<Promise<{ key: string; value?: string; error?: boolean }>> = [];
          const failedKeys = new Set<string>();
          let finished = 0;
          const finishNext = async (fail: boolean) => {
            if (finished < f.queries.length) {
              const query = f.queries[finished++]!;
              if (fail) for (const k of query.keys) failedKeys.add(k);
              query.finish(fail);
            }
            await settle();
          };
          for (const step of steps) {
            if (step === 'finish' || step === 'fail') await finishNext(step === 'fail');
            else
              outcomes.push(
                batcher.load(step).then(
                  (value) => ({ key: step, value }),
                  () => ({ key: step, error: true }),
                ),
              );
          }
          while (finished < f.queries.length) await finishNext(false);
          for (const outcome of await Promise.all(outcomes)) {
            if (outcome.error) expect(failedKeys.has(outcome.key)).toBe(true);
            else expect(outcome.value).toBe(table.get(outcome.key));
          }
          for (const q of f.queries) {
            expect(q.keys.length).toBeLessThanOrEqual(maxKeys);
            expect(new Set(q.keys).size).toBe(q.keys.length);
          }
          expect(f.mostAtOnce()).toBeLessThanOrEqual(maxInFlight);
          // A key is fetched at most once per lookup of it: waiting lookups of one key share a query.
          const asked = new Map<string, number>();
          for (const s of steps) if (s.length === 1) asked.set(s, (asked.get(s) ?? 0) + 1);
          for (const [key, n] of asked)
            expect(f.queries.filter((q) => q.keys.includes(key)).length).toBeLessThanOrEqual(n);
        },
      ),
      { numRuns: 300 },
    );
  });
});
