// The two scans of a JSON body: its nesting depth (before parsing) and where it stops being JSON (after JSON.parse
// refused it).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tooDeepAt } from '../../src/http/json-depth.js';
import { jsonErrorOffset, positionAt } from '../../src/http/json-position.js';

/** The nesting depth of a parsed value, as JSON.parse built it. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

describe('tooDeepAt', () => {
  it('agrees with the depth of what JSON.parse builds, on strings and on UTF-8 bytes', () => {
    fc.assert(
      fc.property(fc.json({ depthSize: 'large', maxDepth: 12 }), fc.integer({ min: 0, max: 12 }), (text, max) => {
        const deeper = depthOf(JSON.parse(text)) > max;
        expect(tooDeepAt(text, max) >= 0).toBe(deeper);
        expect(tooDeepAt(Buffer.from(text), max) >= 0).toBe(deeper);
      }),
    );
  });

  it('counts no bracket inside a string, escaped quotes included', () => {
    expect(tooDeepAt('["[[[[\\"[[[["]', 1)).toBe(-1);
    expect(tooDeepAt('[[1]]', 1)).toBe(1);
  });
});

describe('jsonErrorOffset', () => {
  it('runs to the end of every valid JSON text', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(jsonErrorOffset(text)).toBe(text.length);
      }),
    );
  });

  it('stops inside a text JSON.parse refuses, at a place where the valid prefix cannot go on', () => {
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.constantFrom('}', ']', ',', ':', 'x', '"', '\u0001', ''), (text, at, bad) => {
        const cut = at % (text.length + 1);
        const broken = text.slice(0, cut) + bad + text.slice(cut + 1);
        let valid = true;
        try {
          JSON.parse(broken);
        } catch {
          valid = false;
        }
        const offset = jsonErrorOffset(broken);
        if (valid) expect(offset).toBe(broken.length);
        else {
          expect(offset).toBeLessThanOrEqual(broken.length);
          // Everything before the offset is a prefix of some valid text; the text up to and including it is not.
          expect(offset < broken.length || broken.trim() === '' || !isValid(broken)).toBe(true);
        }
      }),
    );
  });

  it('names the first bad character', () => {
    expect(jsonErrorOffset('{"a":}')).toBe(5);
    expect(jsonErrorOffset('[1,2,]')).toBe(5);
    expect(jsonErrorOffset('{"a" 1}')).toBe(5);
    expect(jsonErrorOffset('{"a":1}x')).toBe(7);
    expect(jsonErrorOffset('{"a":01}')).toBe(6);
    expect(jsonErrorOffset('"\\x"')).toBe(2);
    expect(jsonErrorOffset('{"a":1')).toBe(6);
  });
});

function isValid(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('positionAt', () => {
  it('counts lines at LF and columns in characters', () => {
    expect(positionAt('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
    expect(positionAt('😀x', 2)).toEqual({ line: 1, column: 2 });
    expect(positionAt('', 0)).toEqual({ line: 1, column: 1 });
  });
});
