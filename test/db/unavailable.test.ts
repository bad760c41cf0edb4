import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../src/db/unavailable.js';

describe('isDatabaseUnavailable', () => {
  it.each([
    [{ code: 'ECONNREFUSED' }],
    [{ code: '57P01', message: 'terminating connection due to administrator command' }],
    [{ code: '08006' }],
    [{ code: '53300' }],
    [{ code: 'SQLITE_BUSY' }],
    [new Error('Connection terminated unexpectedly')],
    [new Error('timeout exceeded when trying to connect')],
    [new Error('The database did not answer within 1000 ms')],
  ])('retryable: %o', (error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    [{ code: '23505', message: 'duplicate key value violates unique constraint' }],
    [{ code: '22021' }],
    [new TypeError("Cannot read properties of undefined (reading 'x')")],
    [new Error('some Connection terminated text in the middle')],
    [null], [undefined], ['ECONNREFUSED'],
  ])('not retryable: %o', (error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
