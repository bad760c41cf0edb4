import { describe, expect, it } from 'vitest';
import { serverTest } from '../support/fixtures.js';
import { isDatabaseUnavailable } from '../../src/db/unavailable.js';
import { bearer, getJson, postJson } from '../support/server.js';

const embedded = serverTest('sqlite');

describe('isDatabaseUnavailable', () => {
  it.each([
    [{ code: 'ECONNREFUSED' }],
    [{ code: '57P01', message: 'terminating connection due to administrator command' }],
    [{ code: '08006' }],
    [{ code: '53300' }],
    [{ code: 'SQLITE_BUSY' }],
    [{ code: 'SQLITE_FULL', message: 'database or disk is full' }],
    [{ code: 'SQLITE_READONLY', message: 'attempt to write a readonly database' }],
    [{ code: 'SQLITE_READONLY_DBMOVED' }],
    [{ code: 'SQLITE_IOERR_WRITE' }],
    [{ code: '53100', message: 'could not extend file: No space left on device' }],
    [{ code: '40P01', message: 'deadlock detected' }],
    [{ code: '40001', message: 'could not serialize access due to concurrent update' }],
    [new Error('Connection terminated unexpectedly')],
    [new Error('timeout exceeded when trying to connect')],
    [new Error('The database did not answer within 1000 ms')],
  ])('retryable: %o', (error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    [{ code: '23505', message: 'duplicate key value violates unique constraint' }],
    [{ code: '22021' }],
    [{ code: 'SQLITE_CONSTRAINT_UNIQUE' }],
    [{ code: 'SQLITE_FULLY' }],
    [new TypeError("Cannot read properties of undefined (reading 'x')")],
    [new Error('some Connection terminated text in the middle')],
    [null],
    [undefined],
    ['ECONNREFUSED'],
  ])('not retryable: %o', (error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('an embedded store that cannot be written any more (disk full, files made read-only)', () => {
  embedded(
    'answers 503 service_unavailable with Retry-After, writes nothing, and serves again once it can',
    async ({ server, org }) => {
      const run = (label: string) => ({
        mediaKey: org.recording.mediaKey,
        schemaVersion: '1.0',
        source: { runId: 'r-readonly' },
        coordinateSpace: 'normalized',
        tracks: [{ id: 't1', label, boxes: [{ frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] }],
      });
      expect((await postJson(`${server.url}/detections`, run('before'), bearer(org.token))).status).toBe(201);
      // Every write fails as on a read-only file (SQLITE_READONLY); a full disk fails the same way (SQLITE_FULL).
      server.store.sqlite!.pragma('query_only = ON');
      const refused = await postJson(`${server.url}/detections`, run('during'), bearer(org.token));
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('2');
      expect(refused.body).toMatchObject({ code: 'service_unavailable' });
      server.store.sqlite!.pragma('query_only = OFF');
      const stored = await getJson(`${server.url}/detections/r-readonly`, bearer(org.token));
      expect(stored.body.data.tracks[0].label).toBe('before');
      expect((await postJson(`${server.url}/detections`, run('after'), bearer(org.token))).status).toBe(200);
    },
  );
});
