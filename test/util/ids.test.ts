import { describe, expect, it } from 'vitest';
import { newId } from '../../src/util/ids.js';

describe('newId', () => {
  it('gives distinct ids within one millisecond, across refills of its random pool', () => {
    const ids = Array.from({ length: 2000 }, () => newId(1_700_000_000_000));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-hjkmnp-tv-z]{26}$/);
    // Each of the 16 random characters takes all 32 values over 2000 ids: the bytes are not stuck.
    for (let i = 10; i < 26; i++) expect(new Set(ids.map((id) => id[i])).size).toBe(32);
  });

  it('sorts by time first', () => {
    const earlier = newId(1_700_000_000_000);
    const later = newId(1_700_000_000_001);
    expect(earlier.slice(0, 10) < later.slice(0, 10)).toBe(true);
    expect([later, earlier].sort()).toEqual([earlier, later]);
  });
});
