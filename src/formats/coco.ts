// COCO JSON with the video fields of TAO / COCO-VID: images are frames (frame_index, video_id), annotations carry
// track_id (TAO) or instance_id (COCO-VID), bbox [x, y, w, h] in pixels, category_id and an optional score.
import { BOX_STRIDE } from '../detections/run-types.js';
import { isObject } from '../util/is-object.js';
import { classIdOf, classesOf, exportView, frameCountOf, frameOf, labelOf, columnOf } from './export-view.js';
import { exportFrameSize, resolveFrameSize } from './frame-size.js';
import { invalidFile } from './format-error.js';
import { classTable } from './id-numbering.js';
import { ByteCollector, parseJsonFile } from './json-input.js';
import { isIntegerId, pixelText, plainText } from './numbers.js';
import { RunBuilder, type RunHeader } from './run-builder.js';
import type { FormatReader, FormatWriter, ReadOptions } from './types.js';

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export function cocoReader(options: ReadOptions = {}): FormatReader {
  const input = new ByteCollector();
  return {
    write: (chunk) => input.write(chunk),
    end() {
      const doc = parseJsonFile(input.bytes());
      if (!isObject(doc) || !Array.isArray(doc.images) || !Array.isArray(doc.annotations)) {
        throw invalidFile('Not a COCO file: an object with "images" and "annotations" arrays is expected', { line: 1 });
      }
      if (doc.annotations.length === 0) throw invalidFile('The file has no annotations', { line: 1 });
      const b = new RunBuilder('index');
      // Frames: frame_index (TAO), else frame_id (COCO-VID), else the image's place among the images.
      const frames = new Map<unknown, number>();
      const videos = new Set<unknown>();
      let fileSize: { width?: number; height?: number } | undefined;
      doc.images.forEach((image, i) => {
        if (!isObject(image)) return;
        const frame = Number.isInteger(image.frame_index)
          ? image.frame_index
          : Number.isInteger(image.frame_id)
            ? image.frame_id
            : i;
        frames.set(image.id, frame as number);
        videos.add(image.video_id);
        if (fileSize === undefined && finite(image.width) && finite(image.height)) {
          fileSize = { width: image.width, height: image.height };
        }
      });
      if (videos.size > 1) {
        throw invalidFile(`The file holds ${videos.size} videos; a run is one video: split the file per video_id`, {
          line: 1,
        });
      }
      const categories = new Map<unknown, string>();
      if (Array.isArray(doc.categories)) {
        for (const c of doc.categories) if (isObject(c) && typeof c.name === 'string') categories.set(c.id, c.name);
      }
      doc.annotations.forEach((a, index) => {
        const position = { index };
        if (!isObject(a)) {
          b.reject('the annotation is not an object', position);
          return;
        }
        // No track_id / instance_id at all (plain COCO detections): a track of its own (see untrackedBox).
        const rawId = a.track_id ?? a.instance_id;
        const id =
          rawId === undefined || rawId === null
            ? null
            : typeof rawId === 'number' && Number.isFinite(rawId)
              ? String(rawId)
              : rawId;
        if (id !== null && (typeof id !== 'string' || id === '')) {
          b.reject('track_id (or instance_id) must be a number or a non-empty string', position);
          return;
        }
        const frame = frames.get(a.image_id);
        if (frame === undefined) {
          b.reject(`image_id ${JSON.stringify(a.image_id)} is not among the images`, position, id);
          return;
        }
        const bbox = a.bbox;
        if (!Array.isArray(bbox) || bbox.length !== 4 || !bbox.every(finite)) {
          b.reject('bbox must be an array of four numbers [x, y, width, height]', position, id, frame);
          return;
        }
        let label: string | undefined;
        let classId: number | string | undefined;
        if (a.category_id !== undefined && a.category_id !== null) {
          label = categories.get(a.category_id);
          if (label === undefined && categories.size > 0) {
            b.reject(`category_id ${JSON.stringify(a.category_id)} is not among the categories`, position, id, frame);
            return;
          }
          if (typeof a.category_id === 'number' || typeof a.category_id === 'string') classId = a.category_id;
        }
        if (a.score !== undefined && !finite(a.score)) {
          b.reject('score must be a number', position, id, frame);
          return;
        }
        const [x, y, w, h] = bbox as [number, number, number, number];
        const score = finite(a.score) ? a.score : NaN;
        if (id === null) b.untrackedBox(frame, 'xywh', x, y, w, h, score, label, classId, index);
        else b.box(id, frame, 'xywh', x, y, w, h, score, label, classId, index);
      });
      const size = resolveFrameSize(fileSize, options.frameSize, options.recordingSize);
      const header: RunHeader = {
        coordinateSpace: 'pixel',
        media: { width: size.width, height: size.height },
      };
      if (Array.isArray(doc.categories)) header.categories = doc.categories;
      return b.finish(header);
    },
  };
}

const json = (v: unknown): string => JSON.stringify(v);

/**
 * One image per frame (0 … frameCount − 1 when known, else every frame up to the last box) with id frame + 1, so
 * that a ground-truth export and a prediction export line up; track ids kept as they are (integers as numbers).
 */
export const cocoWriter: FormatWriter = function* (run, options = {}) {
  const v = exportView(run);
  const { width, height } = exportFrameSize(run.media, options.frameSize);
  const stem = options.stem ?? run.name ?? 'video';
  const classes = classTable(classesOf(v), 1);
  const frames = frameCountOf(v);
  yield `{"info":{"description":${json(`Sightline run ${run.runId ?? ''}`.trim())}},\n"videos":[{"id":1,"name":${json(stem)},"width":${width},"height":${height}}],\n"images":[\n`;
  let piece = '';
  for (let f = 0; f < frames; f++) {
    piece += `${f === 0 ? '' : ',\n'}{"id":${f + 1},"video_id":1,"frame_index":${f},"file_name":${json(`${stem}/${String(f).padStart(6, '0')}.jpg`)},"width":${width},"height":${height}}`;
    if (piece.length >= 65_536) {
      yield piece;
      piece = '';
    }
  }
  piece += '],\n"categories":[';
  const names = [...classes.names].sort((a, b) => a[0] - b[0]);
  piece += names.map(([id, name]) => `\n{"id":${id},"name":${json(name)}}`).join(',');
  piece += '],\n"tracks":[';
  const trackIdText = (id: string) => (isIntegerId(id) ? id : json(id));
  v.boxes.headers.forEach((h, t) => {
    const category = classes.numberOf(labelOf(v, v.startOf[t]!), classIdOf(v, v.startOf[t]!));
    piece += `${t === 0 ? '' : ','}\n{"id":${trackIdText(h.id)},"video_id":1${category === undefined ? '' : `,"category_id":${category}`}}`;
  });
  piece += '],\n"annotations":[';
  const c = v.boxes.columns;
  for (let i = 0; i < v.boxes.count; i++) {
    const o = i * BOX_STRIDE;
    // The area of the box as written (rounded sides), so that a file read and written again has the same area.
    const pw = Number(pixelText(c[o + 3]! * width));
    const ph = Number(pixelText(c[o + 4]! * height));
    const category = classes.numberOf(labelOf(v, i), classIdOf(v, i));
    const score = columnOf(v, i, 5);
    piece += `${i === 0 ? '' : ','}\n{"id":${i + 1},"image_id":${frameOf(v, i) + 1},"video_id":1,"track_id":${trackIdText(v.boxes.headers[v.trackOf[i]!]!.id)}`;
    piece += `${category === undefined ? '' : `,"category_id":${category}`},"bbox":[${pixelText(c[o + 1]! * width)},${pixelText(c[o + 2]! * height)},${pixelText(pw)},${pixelText(ph)}]`;
    piece += `,"area":${pixelText(pw * ph)},"iscrowd":0${!Number.isNaN(score) ? `,"score":${plainText(score)}` : ''}}`;
    if (piece.length >= 65_536) {
      yield piece;
      piece = '';
    }
  }
  yield `${piece}]}\n`;
};
