// Rows without a track id (untracked detections): each box a track of its own, with an id the file does not use.
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { importRun } from '../../src/formats/import-run.js';
import { read, toExport, tracksOf } from './helpers.js';

const zipOf = (files: Record<string, string>) =>
  zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)])), {
    mtime: new Date(2000, 0, 1),
  });
const SIZE = { frameSize: { width: 1000, height: 500 } };

describe('rows without a track id', () => {
  it('yolo: 5 fields, and 6 whose last is a confidence, are one-box tracks; 6 with an integer last are tracked', () => {
    const result = read(
      'yolo',
      zipOf({
        'labels/v_1.txt': '0 0.2 0.3 0.2 0.4\n1 0.5 0.5 0.1 0.1 0.75\n0 0.5 0.5 0.1 0.1 4\n',
        'labels/v_2.txt': '0 0.2 0.3 0.2 0.4 0.9 4\n2 0.6 0.6 0.2 0.2\n',
      }),
    );
    expect(result.malformed).toEqual([]);
    expect(result.skipped.untracked).toBe(3);
    const tracks = tracksOf(toExport(result));
    expect(tracks.map((t) => [t.id, t.classId, t.boxes.map((b) => [b.frame, b.confidence])])).toEqual([
      ['untracked-1', 0, [[0, undefined]]],
      ['untracked-2', 1, [[0, 0.75]]],
      [
        '4',
        0,
        [
          [0, undefined],
          [1, 0.9],
        ],
      ],
      ['untracked-3', 2, [[1, undefined]]],
    ]);
    expect(tracks[0]!.boxes[0]).toMatchObject({ x: 0.1, w: 0.2 });
    expect(result.positionOf(3, 0)).toEqual({ entry: 'labels/v_2.txt:2' });
  });

  it('the ids given to untracked boxes skip every id the file uses, wherever it uses it', () => {
    const csv =
      'x_min,y_min,x_max,y_max,class_id,confidence,tracker_id,frame_index\n' +
      '10,10,20,20,0,0.5,,0\n' +
      '10,10,20,20,0,0.5,untracked-1,0\n' +
      '10,10,20,20,0,0.5,,1\n' +
      '10,10,20,20,0,0.5,untracked-3,2\n';
    const result = read('supervision-csv', Buffer.from(csv), SIZE);
    expect(tracksOf(toExport(result)).map((t) => t.id)).toEqual([
      'untracked-2',
      'untracked-1',
      'untracked-4',
      'untracked-3',
    ]);
  });

  it('coco: annotations without track_id or instance_id are one-box tracks; a bad track_id is row_malformed', () => {
    const doc = {
      images: [
        { id: 1, frame_index: 0, width: 1000, height: 500 },
        { id: 2, frame_index: 1, width: 1000, height: 500 },
      ],
      annotations: [
        { image_id: 1, category_id: 1, bbox: [100, 50, 200, 200], score: 0.8 },
        { image_id: 2, category_id: 1, bbox: [100, 50, 200, 200], track_id: 7 },
        { image_id: 2, category_id: 1, bbox: [100, 50, 200, 200] },
        { image_id: 2, category_id: 1, bbox: [100, 50, 200, 200], track_id: '' },
      ],
      categories: [{ id: 1, name: 'car' }],
    };
    const result = read('coco', Buffer.from(JSON.stringify(doc)));
    expect(result.malformed.map((m) => m.position)).toEqual([{ index: 3 }]);
    const tracks = tracksOf(toExport(result));
    expect(tracks.map((t) => [t.id, t.label, t.boxes.map((b) => [b.frame, b.confidence])])).toEqual([
      ['untracked-1', 'car', [[0, 0.8]]],
      ['7', 'car', [[1, undefined]]],
      ['untracked-2', 'car', [[1, undefined]]],
    ]);
  });

  it('the import counts them in the warning UNTRACKED_BOXES', () => {
    const result = read('yolo', zipOf({ 'labels/v_1.txt': '0 0.2 0.3 0.2 0.4\n0 0.5 0.5 0.1 0.1\n' }));
    const outcome = importRun(result, { target: { mediaKey: 'm' }, fallbackRunId: 'r' });
    if (!outcome.ok) throw new Error(outcome.detail);
    expect(outcome.run.warnings).toEqual([expect.objectContaining({ code: 'UNTRACKED_BOXES', count: 2 })]);
    expect(outcome.run.boxes.headers.map((h) => [h.id, h.n])).toEqual([
      ['untracked-1', 1],
      ['untracked-2', 1],
    ]);
  });
});
