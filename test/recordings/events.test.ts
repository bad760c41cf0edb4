import { describe, expect } from 'vitest';
import { serverTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { bearer, getJson, postJson } from '../support/server.js';

// An upload event as the storage pipeline emits it.
const uploadEvent = (key: string, metadata: Record<string, unknown> = {}) => ({
  source: 'minio-eu',
  payload: {
    key,
    fileSize: 18_734_112,
    metadata: {
      'event-timestamp': '1700001234',
      productid: '6-967003',
      'content-type': 'video/mp4',
      duration: '24',
      ...metadata,
    },
  },
});

const tests = serverTests();

describe.each(DIALECTS)('pipeline upload events on %s', (dialect) => {
  const it = tests[dialect].extend(
    'post',
    ({ server, org }) =>
      (body: unknown, token = org.token) =>
        postJson(`${server.url}/recordings/events`, body, bearer(token)),
  );

  it('registers the recording from a real event body, idempotently', async ({ server, org, post }) => {
    const key = 'alice/1700001200_6-967003_cam1_200-200-400-400_24_769.mp4';
    const first = await post(uploadEvent(key));
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({
      mediaKey: key,
      startTimestamp: 1_700_001_234,
      deviceKey: '6-967003',
      provider: 'minio-eu',
    });
    const again = await post(uploadEvent(key));
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    // A redelivered event with other metadata leaves the registered recording as it was.
    const later = await post(uploadEvent(key, { 'event-timestamp': '1700009999' }));
    expect(later.status).toBe(200);
    expect(later.body.data.startTimestamp).toBe(1_700_001_234);
    const read = await getJson(`${server.url}/recordings/${encodeURIComponent(key)}`, bearer(org.sessions.viewer));
    expect(read.body.data).toMatchObject({ mediaKey: key, deviceKey: '6-967003', provider: 'minio-eu', runs: [] });
  });

  it('accepts millisecond and ISO timestamps, and falls back to the time in the key', async ({ post }) => {
    expect(
      (await post(uploadEvent('ts/a.mp4', { 'event-timestamp': 1_700_002_000_123 }))).body.data.startTimestamp,
    ).toBe(1_700_002_000);
    expect(
      (await post(uploadEvent('ts/b.mp4', { 'event-timestamp': '2023-11-14T22:13:20Z' }))).body.data.startTimestamp,
    ).toBe(1_700_000_000);
    expect(
      (await post(uploadEvent('ts/1700003000_c.mp4', { 'event-timestamp': undefined }))).body.data.startTimestamp,
    ).toBe(1_700_003_000);
    expect((await post(uploadEvent('ts/d.mp4', { 'event-timestamp': undefined }))).body).toMatchObject({
      status: 400,
      code: 'invalid_field',
    });
    expect((await post(uploadEvent('ts/e.mp4', { 'event-timestamp': 'soon' }))).body).toMatchObject({
      status: 400,
      code: 'invalid_field',
    });
    // Only seconds, milliseconds and strict ISO-8601: loose text would file the recording under a guessed date.
    // Past year 9999 (or milliseconds past it): no cursor or column holds such a start.
    for (const stamp of [
      '-5',
      'May 1',
      '1/2/2003',
      'foo 2020',
      '2024-02-30',
      '2024-13-01',
      '2024-01-01T25:00Z',
      '9999999999999999999999',
      '+010000-01-01T00:00:00Z',
      // 12 digits are seconds, not milliseconds of the 1970s: past year 9999 they are refused.
      '253402300800',
    ]) {
      const res = await post(uploadEvent('ts/f.mp4', { 'event-timestamp': stamp }));
      expect(res.body, stamp).toMatchObject({
        status: 400,
        code: 'invalid_field',
        field: 'payload.metadata.event-timestamp',
      });
    }
    // ISO forms producers write: date only (UTC midnight), a time without zone (UTC), an offset, a fraction.
    for (const [stamp, seconds] of [
      ['2023-11-14', 1_699_920_000],
      ['2023-11-14T22:13:20', 1_700_000_000],
      ['2023-11-14T23:13:20+01:00', 1_700_000_000],
      ['2023-11-14T22:13:20.999Z', 1_700_000_000],
      ['2023-11-14 22:13:20+0000', 1_700_000_000],
      // The last second of year 9999 is taken with a fraction in every form, not only as seconds.
      ['9999-12-31T23:59:59.5Z', 253_402_300_799],
      ['253402300799.5', 253_402_300_799],
    ] as const) {
      const res = await post(uploadEvent(`ts/iso-${stamp.replace(/[^0-9]/g, '')}.mp4`, { 'event-timestamp': stamp }));
      expect(res.body.data?.startTimestamp, stamp).toBe(seconds);
    }
  });

  it('reads the metadata names case-insensitively, with or without the x-amz-meta- prefix', async ({ post }) => {
    expect(
      (
        await post(
          uploadEvent('meta/a.mp4', {
            'event-timestamp': undefined,
            productid: undefined,
            'Event-Timestamp': '1700004000',
            ProductId: 'cam7',
          }),
        )
      ).body.data,
    ).toMatchObject({ startTimestamp: 1_700_004_000, deviceKey: 'cam7' });
    expect(
      (
        await post(
          uploadEvent('meta/b.mp4', { 'event-timestamp': undefined, 'X-Amz-Meta-Event-Timestamp': '1700005000' }),
        )
      ).body.data.startTimestamp,
    ).toBe(1_700_005_000);
  });

  it('ignores uploads that are not recordings', async ({ server, org, post }) => {
    for (const key of [
      'alice/1700001200_x_redacted.mp4',
      'alice/1700001200_x_thumbnail.jpg',
      'alice/1700001200_x_sprite.jpg',
    ]) {
      const res = await post(uploadEvent(key));
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ ignored: true, key, reason: 'not_a_recording' });
      expect((await getJson(`${server.url}/recordings/${encodeURIComponent(key)}`, bearer(org.token))).status).toBe(
        404,
      );
    }
  });

  it('rejects malformed events and callers without write access', async ({ server, org, post }) => {
    expect((await post({ source: 'x' })).body).toMatchObject({ status: 400, code: 'invalid_field', field: 'payload' });
    expect((await post({ source: 'x', payload: {} })).body).toMatchObject({ status: 400, code: 'media_key_missing' });
    expect((await post('event')).body).toMatchObject({ status: 400, code: 'invalid_body' });
    expect((await post(uploadEvent('roles/1700001200_v.mp4'), org.sessions.viewer)).status).toBe(403);
    expect((await postJson(`${server.url}/recordings/events`, uploadEvent('roles/1700001200_v.mp4'))).status).toBe(401);
  });
});
