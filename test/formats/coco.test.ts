import { describe, expect, it } from 'vitest';
import { interpolate } from '../../src/formats/interpolate.js';
import { rejectionPositions } from '../../src/formats/rejection-positions.js';
import {
  exportRunOf,
  expectSameTracks,
  fixture,
  read,
  readInChunks,
  toExport,
  tracksOf,
  validate,
  write,
} from './helpers.js';

describe('coco reader', () => {
  it("reads a TAO / COCO-VID file: frame_index, track_id, category names, score, the images' size", () => {
    const result = read('coco', fixture('tao-coco-vid.json'));
    expect(result.run.media).toEqual({ width: 640, height: 480 });
    expect(result.malformed.map((m) => [m.position, m.detail])).toEqual([
      [{ index: 4 }, 'image_id 999 is not among the images'],
      [{ index: 5 }, 'category_id 12345 is not among the categories'],
    ]);
    const tracks = tracksOf(toExport(result));
    expect(tracks.map((t) => [t.id, t.label, t.classId, t.boxes.map((b) => b.frame)])).toEqual([
      ['7', 'person', 805, [0, 30, 60]],
      ['8', 'bicycle', 95, [0]],
    ]);
    expect(tracks[1]!.boxes[0]).toEqual({
      frame: 0,
      x: 400 / 640,
      y: 300 / 480,
      w: 150 / 640,
      h: 90 / 480,
      confidence: 0.75,
    });
    expect(tracksOf(toExport(readInChunks('coco', fixture('tao-coco-vid.json'), 13)))).toEqual(tracks);
  });

  it("fills TAO's 1 fps annotations to every frame with interpolation", () => {
    const run = toExport(read('coco', fixture('tao-coco-vid.json')));
    const filled = interpolate(run.boxes);
    const person = tracksOf({ boxes: filled.boxes })[0]!;
    expect(person.boxes.map((b) => b.frame)).toEqual(Array.from({ length: 61 }, (_, f) => f));
    expect(person.boxes[15]!.x * 640).toBeCloseTo(115, 9);
    expect(person.boxes[45]!.y * 480).toBeCloseTo(123, 9);
  });

  it('names validation rejections by the annotation index', () => {
    const doc = JSON.parse(fixture('tao-coco-vid.json').toString());
    doc.annotations[1].bbox = [10, 10, 0, 5];
    const result = read('coco', Buffer.from(JSON.stringify(doc)));
    validate(result);
    expect(rejectionPositions(result)).toEqual([{ index: 1 }]);
  });

  it('refuses what is not a COCO file', () => {
    const bad = (text: string) => () => read('coco', Buffer.from(text));
    expect(bad('')).toThrowError(expect.objectContaining({ code: 'invalid_file' }));
    expect(bad('{"images": [], \n"annotations": [')).toThrowError(
      expect.objectContaining({ code: 'invalid_file', position: { line: 2 } }),
    );
    expect(bad('{"images": []}')).toThrowError(/annotations/);
    expect(bad('{"images": [], "annotations": []}')).toThrowError(/no annotations/);
    const twoVideos = JSON.stringify({
      images: [
        { id: 1, video_id: 1 },
        { id: 2, video_id: 2 },
      ],
      annotations: [{ image_id: 1, track_id: 1, bbox: [0, 0, 1, 1] }],
    });
    expect(bad(twoVideos)).toThrowError(/2 videos/);
  });
});

describe('coco writer', () => {
  it('writes one image per frame with id frame + 1, so that ground truth and predictions line up', () => {
    const run = exportRunOf(
      [{ id: 'car-1', label: 'car', boxes: [{ frame: 2, x: 0.25, y: 0.5, w: 0.25, h: 0.25, confidence: 0.5 }] }],
      { width: 640, height: 480, frameCount: 4 },
    );
    const doc = JSON.parse(write('coco', run).toString());
    expect(doc.images.map((i: { id: number; frame_index: number }) => [i.id, i.frame_index])).toEqual([
      [1, 0],
      [2, 1],
      [3, 2],
      [4, 3],
    ]);
    expect(doc.categories).toEqual([{ id: 1, name: 'car' }]);
    expect(doc.annotations).toEqual([
      {
        id: 1,
        image_id: 3,
        video_id: 1,
        track_id: 'car-1',
        category_id: 1,
        bbox: [160, 240, 160, 120],
        area: 19200,
        iscrowd: 0,
        score: 0.5,
      },
    ]);
    expect(doc.tracks).toEqual([{ id: 'car-1', video_id: 1, category_id: 1 }]);
  });

  it('round trips: read → write → read the same run, write → read → write the same bytes', () => {
    const first = toExport(read('coco', fixture('tao-coco-vid.json')));
    const bytes = write('coco', first);
    const second = toExport(read('coco', bytes));
    expectSameTracks(tracksOf(second), tracksOf(first));
    expect(write('coco', second).equals(bytes)).toBe(true);
  });
});
