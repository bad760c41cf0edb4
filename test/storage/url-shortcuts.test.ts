// The hot paths' shortcuts against the plain definitions they stand in for: the filename check's one-pass accept,
// the answers' JSON strings written without an escaping pass, and the one-pass duration parser.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { filenameProblem } from '../../src/storage/filename.js';
import { doublyEncodedMap, jsonString } from '../../src/storage/url-requests.js';
import { parseDuration } from '../../src/util/duration.js';

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

// The map as a JSON object in the map's order, encoded twice: what the answer's `data` must be.
function specDoublyEncoded(map: Map<string, string>): string {
  return JSON.stringify(`{${[...map].map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`);
}

describe('doublyEncodedMap', () => {
  it('is the map as a JSON object in request order, encoded twice, for any keys and URLs', () => {
    const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 20 }), fc.constantFrom('__proto__', 'a"b', 'a\\b', '0', '12', 'https://x/y?a=1&b=%2F'));
    fc.assert(fc.property(fc.array(fc.tuple(text, text), { maxLength: 8 }), (pairs) => {
      const map = new Map(pairs);
      expect(doublyEncodedMap(map)).toBe(specDoublyEncoded(map));
      expect(JSON.parse(JSON.parse(doublyEncodedMap(map)))).toEqual(Object.fromEntries(map));
    }), { numRuns: 1000 });
  });

  it('keeps integer-like filenames in request order on both the one-pass and the escaping path', () => {
    for (const last of ['u', 'u"quoted']) {
      const map = new Map([['b.jpg', 'u1'], ['10', 'u2'], ['a/2', last]]);
      const inner = JSON.parse(JSON.parse(doublyEncodedMap(map))) as Record<string, string>;
      expect(Object.keys(inner).sort()).toEqual(['10', 'a/2', 'b.jpg']);
      expect(JSON.parse(doublyEncodedMap(map)).indexOf('"b.jpg"')).toBeLessThan(JSON.parse(doublyEncodedMap(map)).indexOf('"10"'));
    }
  });
});

describe('jsonString', () => {
  it('equals JSON.stringify for any string', () => {
    const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 20 }), fc.constantFrom('a"b', 'a\\b', '\u2028', 'https://x/y?a=1&s=abc_-'));
    fc.assert(fc.property(text, (t) => { expect(jsonString(t)).toBe(JSON.stringify(t)); }), { numRuns: 2000 });
  });
});

// The duration grammar as a regular expression (the parser before its one-pass form). Whitespace is not part of it.
function specDuration(input: string): number | undefined {
  const text = input;
  if (/^\d+$/.test(text)) return Number.isSafeInteger(Number(text)) ? Number(text) : undefined;
  if (!/^(?:\d+[smhd])+$/.test(text)) return undefined;
  const unit: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };
  let total = 0;
  for (const [, amount, u] of text.matchAll(/(\d+)([smhd])/g)) total += Number(amount) * unit[u!]!;
  return Number.isSafeInteger(total) ? total : undefined;
}

describe('parseDuration', () => {
  it('reads exactly what the grammar reads, to the same number of seconds', () => {
    const text = fc.oneof(
      fc.string({ unit: fc.constantFrom('0', '1', '5', '9', 's', 'm', 'h', 'd', 'x', ' ', '\t', '-', '.', '٣'), maxLength: 12 }),
      fc.array(fc.tuple(fc.nat({ max: 10_000 }), fc.constantFrom('s', 'm', 'h', 'd', '')), { maxLength: 4 }).map((pairs) => pairs.map(([n, u]) => `${n}${u}`).join('')),
      fc.bigInt({ min: 0n, max: 10n ** 20n }).map((n) => `${n}${['', 's', 'd'][Number(n % 3n)]}`),
    );
    fc.assert(fc.property(text, (t) => { expect(parseDuration(t), JSON.stringify(t)).toBe(specDuration(t)); }), { numRuns: 5000 });
  });
});
