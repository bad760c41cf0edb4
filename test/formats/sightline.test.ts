import { describe, expect, it } from 'vitest';
import { interpolate } from '../../src/formats/interpolate.js';
import { exportRunOf, read, toExport, tracksOf, write } from './helpers.js';

describe('sightline', () => {
  const body = {
    schemaVersion: '1.0',
    source: { kind: 'model', name: 'yolov8n', runId: 'r1' },
    coordinateSpace: 'pixel',
    media: { width: 1000, height: 500, fps: 25 },
    tracks: [
      { id: 7, label: 'car', classId: 2, boxes: [{ frame: 3, x1: 100, y1: 50, x2: 300, y2: 250, confidence: 0.5 }] },
      { id: 'p', boxes: [{ frame: 0, x: 10, y: 10, w: 5, h: 5, label: 'x' }, { frame: 'bad' }] },
    ],
  };

  it('reads the run JSON as POST /detections takes it, boxes by index', () => {
    const result = read('sightline', Buffer.from(JSON.stringify(body)));
    const run = toExport(result);
    expect(tracksOf(run)[0]).toEqual({
      id: '7',
      label: 'car',
      classId: 2,
      boxes: [{ frame: 3, x: 0.1, y: 0.1, w: 0.2, h: 0.4, confidence: 0.5 }],
    });
    expect(result.positionOf(1, 1)).toEqual({ index: 1 });
    expect(() => read('sightline', Buffer.from('[1,2]'))).toThrowError(
      expect.objectContaining({ code: 'invalid_file' }),
    );
    expect(() => read('sightline', Buffer.from('{"tracks": ['))).toThrowError(
      expect.objectContaining({ code: 'invalid_file' }),
    );
  });

  it('writes every number exactly, with the box labels and interpolated marks', () => {
    const first = toExport(read('sightline', Buffer.from(JSON.stringify(body))));
    const bytes = write('sightline', { ...first, runId: 'r1', source: { kind: 'model' } });
    const doc = JSON.parse(bytes.toString());
    expect(doc).toMatchObject({
      schemaVersion: '1.0',
      source: { kind: 'model', runId: 'r1' },
      coordinateSpace: 'normalized',
    });
    expect(doc.tracks[1].boxes[0]).toEqual({ frame: 0, x: 0.01, y: 0.02, w: 0.005, h: 0.01, label: 'x' });
    const second = toExport(read('sightline', bytes));
    expect(tracksOf(second)).toEqual(tracksOf(first));
    expect(write('sightline', { ...second, runId: 'r1', source: { kind: 'model' } }).equals(bytes)).toBe(true);

    const run = exportRunOf([
      {
        id: 'a',
        boxes: [
          { frame: 0, x: 0, y: 0, w: 0.5, h: 0.5, confidence: 1 },
          { frame: 2, x: 0.5, y: 0, w: 0.5, h: 0.5 },
        ],
      },
    ]);
    const filled = interpolate(run.boxes);
    const out = JSON.parse(write('sightline', { boxes: filled.boxes, interpolated: filled.interpolated }).toString());
    expect(out.tracks[0].boxes[1]).toEqual({ frame: 1, x: 0.25, y: 0, w: 0.5, h: 0.5, interpolated: true });
  });
});
