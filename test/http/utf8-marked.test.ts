import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8OrMarked } from '../../src/http/utf8-marked.js';

describe('utf8OrMarked', () => {
  it('decodes well-formed UTF-8 as it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(utf8OrMarked(Buffer.from(s, 'utf8'))).toBe(s);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['a stray continuation byte', [0x61, 0x80, 0x62], 'a\\uDFFFb'],
    ['0xFF 0xFE', [0x61, 0xff, 0xfe, 0x62], 'a\\uDFFF\\uDFFFb'],
    ['an overlong slash', [0xc0, 0xaf], '\\uDFFF\\uDFFF'],
    ['an encoded surrogate', [0xed, 0xa0, 0x80], '\\uDFFF\\uDFFF\\uDFFF'],
    ['a truncated sequence at the end', [0x61, 0xe2, 0x82], 'a\\uDFFF\\uDFFF'],
    ['beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80], '\\uDFFF\\uDFFF\\uDFFF\\uDFFF'],
  ])('marks %s', (_name, bytes, text) => {
    expect(utf8OrMarked(Buffer.from(bytes))).toBe(text);
  });

  it('property: any bytes give text without U+FFFD unless the bytes spelled it, and JSON strings of it never hold U+FFFD for a bad byte', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const text = utf8OrMarked(Buffer.from(bytes));
        const spelled = Buffer.from(bytes).includes(Buffer.from('\uFFFD', 'utf8'));
        if (!spelled) expect(text.includes('\uFFFD')).toBe(false);
        // Every well-formed byte survives: removing the marks and re-encoding loses only the bad bytes.
        expect(Buffer.byteLength(text.replaceAll('\\uDFFF', ''), 'utf8')).toBeLessThanOrEqual(bytes.length);
      }),
      { numRuns: 3000 },
    );
  });
});
