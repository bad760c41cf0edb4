// The start-time bounds of the recording list and the region search.
import { describe, expect, it } from 'vitest';
import { parseTimeBound } from '../../src/search/request.js';

describe('parseTimeBound', () => {
  it('rounds a bound between two whole seconds inwards: from up, to down', () => {
    for (const value of [1_700_000_000.5, '1700000000.5', 1_700_000_000_500, '2023-11-14T22:13:20.001Z']) {
      expect([value, parseTimeBound(value, 'from', 'body'), parseTimeBound(value, 'to', 'body')]).toEqual([value, 1_700_000_001, 1_700_000_000]);
    }
  });

  it('takes a whole second as it is, in every form', () => {
    for (const value of [1_700_000_000, '1700000000', 1_700_000_000_000, '2023-11-14T22:13:20Z', '2023-11-14T22:13:20.000Z']) {
      expect([value, parseTimeBound(value, 'from', 'query'), parseTimeBound(value, 'to', 'query')]).toEqual([value, 1_700_000_000, 1_700_000_000]);
    }
  });
});
