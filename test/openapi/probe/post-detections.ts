// Compiled by generated-types.test.ts beside the types openapi-typescript generates from /docs/json (openapi.d.ts):
// a right body for POST /detections compiles, each wrong one must not.
import type { components, paths } from './openapi.js';

type Body = paths['/detections']['post']['requestBody']['content']['application/json'];

export const right: Body = {
  mediaKey: 'demo/cam1.mp4',
  schemaVersion: '1.0',
  coordinateSpace: 'normalized',
  source: { runId: 'probe' },
  tracks: [{ id: 1, label: 'person', boxes: [{ frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] }],
};

// @ts-expect-error a number is no run
export const notAnObject: Body = 42;

export const boxWithoutFrame: Body = {
  mediaKey: 'demo/cam1.mp4',
  schemaVersion: '1.0',
  coordinateSpace: 'normalized',
  source: {},
  // @ts-expect-error a box needs its frame
  tracks: [{ id: 1, boxes: [{ x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] }],
};

export const unknownSpace: Body = {
  mediaKey: 'demo/cam1.mp4',
  schemaVersion: '1.0',
  // @ts-expect-error pixel or normalized only
  coordinateSpace: 'meters',
  source: {},
  tracks: [],
};

export const answer = (result: components['schemas']['PostResult']): string => result.rejected[0]?.reason ?? '';
