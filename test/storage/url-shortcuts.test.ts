// The hot paths' shortcuts against the plain definitions they stand in for: the filename check's one-pass accept
// and the bulk answer's one-pass double encoding.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { filenameProblem } from '../../src/storage/filename.js';
import { doublyEncodedMap } from '../../src/storage/url-requests.js';

// The rules as the spec states them, one at a time (the implementation before its shortcut).
function specProblem(name: string): boolean {
  if (name.length === 0 || /\p{Cs}/u.test(name) || Buffer.byteLength(name, 'utf8') > 1024) return true;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name) || name.startsWith('/') || name.includes('\\')) return true;
  return name.split('/').some((segment) => segment === '' || segment === '.' || segment === '..');
}

const keyText = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'b', '.', '/', '\\', ' ', '\u0000', '\u007f', 'é', '~', '"'), maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer({ min: 1015, max: 1030 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 1015, max: 1030 }).map((n) => `cam/${'y'.repeat(n - 4)}`),
);

describe('filenameProblem', () => {
  it('accepts and refuses exactly what the spec rules do', () => {
    fc.assert(fc.property(keyText, (name) => {
      expect(filenameProblem(name) !== undefined, JSON.stringify(name)).toBe(specProblem(name));
    }), { numRuns: 3000 });
  });

  it('refuses the edge segments the one-pass check must catch', () => {
    for (const bad of ['.', '..', 'a/.', 'a/..', './b', '../b', 'a/./b', 'a/../b', 'a/', 'a//b', '/a', '']) expect(filenameProblem(bad), bad).toBeTypeOf('string');
    for (const ok of ['...', 'a/...', '.a', 'a./b', '..a/b', 'a/b..', 'x'.repeat(1024)]) expect(filenameProblem(ok), ok).toBeUndefined();
  });
});

describe('doublyEncodedMap', () => {
  it('equals JSON.stringify(JSON.stringify(map)) for any keys and URLs', () => {
    const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 20 }), fc.constantFrom('__proto__', 'a"b', 'a\\b', 'https://x/y?a=1&b=%2F'));
    fc.assert(fc.property(fc.array(fc.tuple(text, text), { maxLength: 8 }), (pairs) => {
      const map = new Map(pairs);
      expect(doublyEncodedMap(map)).toBe(JSON.stringify(JSON.stringify(Object.fromEntries(map))));
      expect(JSON.parse(JSON.parse(doublyEncodedMap(map)))).toEqual(Object.fromEntries(map));
    }), { numRuns: 1000 });
  });
});
