// The worked examples of docs/formats.md, so that the page stays true.
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { FormatName } from '../../src/formats/registry.js';
import { read, toExport, tracksOf } from './helpers.js';

const SIZE = { frameSize: { width: 1000, height: 500 } };
const BOX = { x: 0.1, y: 0.1, w: 0.2, h: 0.4 };

const examples: [FormatName, Uint8Array, object][] = [
  ['mot', strToU8('1,7,100,50,200,200,0.9,-1,-1,-1\n'), { id: '7', boxes: [{ frame: 0, ...BOX, confidence: 0.9 }] }],
  [
    'cvat-video',
    strToU8(`<annotations><meta><task><original_size><width>1000</width><height>500</height></original_size></task></meta>
<track id="3" label="car" source="manual">
  <box frame="12" keyframe="1" outside="0" occluded="0" xtl="100" ytl="50" xbr="300" ybr="250" z_order="0"/>
  <box frame="13" keyframe="1" outside="1" occluded="0" xtl="100" ytl="50" xbr="300" ybr="250" z_order="0"/>
</track></annotations>`),
    { id: '3', label: 'car', boxes: [{ frame: 12, ...BOX }] },
  ],
  [
    'coco',
    strToU8(
      JSON.stringify({
        images: [{ id: 5, video_id: 1, frame_index: 4, width: 1000, height: 500 }],
        annotations: [{ id: 1, image_id: 5, track_id: 7, category_id: 3, bbox: [100, 50, 200, 200], score: 0.8 }],
        categories: [{ id: 3, name: 'car' }],
      }),
    ),
    { id: '7', label: 'car', classId: 3, boxes: [{ frame: 4, ...BOX, confidence: 0.8 }] },
  ],
  [
    'yolo',
    zipSync({
      'labels/clip_5.txt': strToU8('2 0.2 0.3 0.2 0.4 0.8 7\n'),
      'data.yaml': strToU8('names:\n  0: person\n  1: bicycle\n  2: car\n'),
    }),
    { id: '7', label: 'car', classId: 2, boxes: [{ frame: 4, ...BOX, confidence: 0.8 }] },
  ],
  [
    'supervision-csv',
    strToU8(
      'x_min,y_min,x_max,y_max,class_id,confidence,tracker_id,class_name,frame_index\n100,50,300,250,2,0.8,7,car,4\n',
    ),
    { id: '7', label: 'car', classId: 2, boxes: [{ frame: 4, ...BOX, confidence: 0.8 }] },
  ],
  [
    'kitti',
    strToU8('4 7 Car 0 0 -1.57 100 50 300 250 1.5 1.6 3.9 2.1 1.7 13.4 -1.56 0.8\n'),
    { id: '7', label: 'Car', boxes: [{ frame: 4, ...BOX, confidence: 0.8 }] },
  ],
  [
    'sightline',
    strToU8(
      JSON.stringify({
        schemaVersion: '1.0',
        source: { kind: 'model' },
        coordinateSpace: 'pixel',
        media: { width: 1000, height: 500 },
        tracks: [{ id: 7, boxes: [{ frame: 4, x1: 100, y1: 50, x2: 300, y2: 250, confidence: 0.8 }] }],
      }),
    ),
    { id: '7', boxes: [{ frame: 4, ...BOX, confidence: 0.8 }] },
  ],
];

describe('docs/formats.md examples', () => {
  it.each(examples)('%s', (format, bytes, track) => {
    const tracks = tracksOf(toExport(read(format, bytes, SIZE)));
    expect(tracks).toHaveLength(1);
    const [got] = tracks;
    for (const b of got!.boxes) for (const k of ['x', 'y', 'w', 'h'] as const) b[k] = Math.round(b[k] * 1e12) / 1e12;
    expect(got).toEqual(track);
  });
});
