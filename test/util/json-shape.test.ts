import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWellFormed, jsonBytesOver, nestedDeeperThan, textNestedDeeperThan } from '../../src/util/json-shape.js';

const depthOf = (v: unknown): number =>
  v === null || typeof v !== 'object' ? 0 : 1 + Math.max(0, ...Object.values(v).map(depthOf));

describe('json-shape', () => {
  it('jsonBytesOver agrees with the UTF-8 length of JSON.stringify at every limit around it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: -3, max: 3 }), (value, delta) => {
        const size = Buffer.byteLength(JSON.stringify(value), 'utf8');
        const limit = Math.max(0, size + delta);
        expect(jsonBytesOver(value, limit)).toBe(size > limit);
      }),
      { numRuns: 500 },
    );
  });

  it('jsonBytesOver counts escapes, multi-byte characters and lone surrogates as JSON.stringify writes them', () => {
    for (const value of [{ 'k"\\': 'é\n\u0001' }, ['\ud800', '😀'], { a: [null, true, false, -0, 1e21, 1.5e-7] }]) {
      const size = Buffer.byteLength(JSON.stringify(value), 'utf8');
      expect([jsonBytesOver(value, size), jsonBytesOver(value, size - 1)]).toEqual([false, true]);
    }
  });

  it('measures a value nested far deeper than JSON.stringify can go, without recursion', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = { a: deep };
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(jsonBytesOver(deep, 4096)).toBe(true);
    expect(nestedDeeperThan(deep, 64)).toBe(true);
  });

  it('nestedDeeperThan agrees with the recursive depth', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 7 }), (value, max) => {
        expect(nestedDeeperThan(value, max)).toBe(depthOf(value) > max);
      }),
      { numRuns: 500 },
    );
  });

  it('textNestedDeeperThan reads from the bytes what nestedDeeperThan finds in the parsed value', () => {
    // Strings full of brackets, quotes and backslashes: only real nesting counts.
    const tricky = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', 'é') });
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        tricky,
        fc.integer(),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(tricky, tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 7 }), (v, max) => {
        expect(textNestedDeeperThan(Buffer.from(JSON.stringify(v)), max)).toBe(nestedDeeperThan(v, max));
      }),
      { numRuns: 1000 },
    );
  });

  it('isWellFormed refuses lone surrogates and accepts pairs', () => {
    expect(['a', '😀', '\ud83d\ude00', ''].map(isWellFormed)).toEqual([true, true, true, true]);
    expect(['\ud800', 'a\udc00', '\ude00\ud83d', '\ud83dx'].map(isWellFormed)).toEqual([false, false, false, false]);
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(isWellFormed(s)).toBe(Buffer.from(s, 'utf8').toString('utf8') === s);
      }),
    );
  });
});
