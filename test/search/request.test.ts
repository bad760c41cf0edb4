// The start-time range of the recording list and the region search.
import { describe, expect, it } from 'vitest';
import { parseTimeRange } from '../../src/recordings/page-params.js';

describe('parseTimeRange', () => {
  it('rounds a bound between two whole seconds inwards: from up, to down', () => {
    for (const value of [1_700_000_000.5, '1700000000.5', 1_700_000_000_500, '2023-11-14T22:13:20.001Z']) {
      expect([
        value,
        parseTimeRange(value, undefined, 'body').from,
        parseTimeRange(undefined, value, 'body').to,
      ]).toEqual([value, 1_700_000_001, 1_700_000_000]);
    }
  });

  it('takes a whole second as it is, in every form', () => {
    for (const value of [
      1_700_000_000,
      '1700000000',
      1_700_000_000_000,
      '2023-11-14T22:13:20Z',
      '2023-11-14T22:13:20.000Z',
    ]) {
      expect([value, parseTimeRange(value, value, 'query')]).toEqual([
        value,
        { from: 1_700_000_000, to: 1_700_000_000 },
      ]);
    }
  });

  it('takes a range within one second (it matches no start), and refuses one that ends before it starts', () => {
    expect(parseTimeRange('1700000000.2', '1700000000.8', 'query')).toEqual({ from: 1_700_000_001, to: 1_700_000_000 });
    expect(parseTimeRange('2023-11-14T22:13:20.200Z', '2023-11-14T22:13:20.200Z', 'query')).toEqual({
      from: 1_700_000_001,
      to: 1_700_000_000,
    });
    expect(() => parseTimeRange('1700000000.8', '1700000000.2', 'query')).toThrow(/from must not be after to/);
  });

  it('takes the last second of year 9999 with a fraction in every form, and refuses the second after it', () => {
    for (const value of [
      253_402_300_799.5,
      '253402300799.5',
      253_402_300_799_999,
      '9999-12-31T23:59:59.5Z',
      '9999-12-31T23:59:59.001Z',
    ]) {
      expect([value, parseTimeRange(undefined, value, 'query').to]).toEqual([value, 253_402_300_799]);
    }
    for (const value of [253_402_300_800, '253402300800', '10000-01-01T00:00:00Z']) {
      expect(() => parseTimeRange(undefined, value, 'query'), String(value)).toThrow(
        /to must be Unix seconds or an ISO-8601 date/,
      );
    }
  });
});
