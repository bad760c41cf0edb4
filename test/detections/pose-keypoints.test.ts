// A pose run's keypoints are not stored (a run is boxes): the run is, and its answer counts what was dropped.
import { describe, expect } from 'vitest';
import { serverTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { bearer, getJson, postJson } from '../support/server.js';

const tests = serverTests();

describe.each(DIALECTS)('pose keypoints on %s', (dialect) => {
  const it = tests[dialect];

  it('stores the boxes and warns KEYPOINTS_DROPPED with the number of boxes whose keypoints went', async ({
    server,
    org,
  }) => {
    const keypoints = [
      [0.15, 0.12, 0.9],
      [0.18, 0.2, 0.8],
    ];
    const run = {
      mediaKey: org.recording.mediaKey,
      schemaVersion: '1.0',
      task: 'pose',
      source: { kind: 'model', name: 'pose', runId: `pose-${dialect}` },
      coordinateSpace: 'normalized',
      tracks: [
        {
          id: 'p1',
          label: 'person',
          boxes: [
            { frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.3, keypoints },
            { frame: 1, x: 0.1, y: 0.1, w: 0.2, h: 0.3, keypoints },
            { frame: 2, x: 0.1, y: 0.1, w: 0.2, h: 0.3 },
            // Rejected (outside the frame): its keypoints go with it, and are not counted as dropped from a kept box.
            { frame: 3, x: 5, y: 5, w: 0.2, h: 0.3, keypoints },
          ],
        },
      ],
    };
    const res = await postJson(`${server.url}/detections`, run, bearer(org.token));
    expect(res.status).toBe(207);
    expect(res.body.boxesStored).toBe(3);
    expect(res.body.warnings).toEqual([
      {
        code: 'KEYPOINTS_DROPPED',
        count: 2,
        message: '2 box(es) carried keypoints (4 in all), which are not stored; their boxes are',
      },
    ]);
    const stored = await getJson(`${server.url}/detections/pose-${dialect}`, bearer(org.token));
    expect(stored.body.data.task).toBe('pose');
    expect(stored.body.data.tracks[0].boxes).toHaveLength(3);
  });

  it('no warning for a pose run without keypoints', async ({ server, org }) => {
    const res = await postJson(
      `${server.url}/detections`,
      {
        mediaKey: org.recording.mediaKey,
        schemaVersion: '1.0',
        task: 'pose',
        source: { kind: 'model', runId: `plain-${dialect}` },
        coordinateSpace: 'normalized',
        tracks: [{ id: 'p1', boxes: [{ frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.3 }] }],
      },
      bearer(org.token),
    );
    expect([res.status, res.body.warnings]).toEqual([201, []]);
  });
});
