// MOTChallenge text: `frame,id,left,top,width,height,conf,class,visibility` (gt) or
// `frame,id,left,top,width,height,conf,x,y,z` (results). 1-based frames, pixels, no frame size in the file.
import { BOX_STRIDE } from '../detections/run-types.js';
import { exportView, frameOrder, labelOf, classIdOf, frameOf, columnOf } from './export-view.js';
import { exportFrameSize } from './frame-size.js';
import { invalidFile } from './format-error.js';
import { integerIds } from './id-numbering.js';
import { byteLineSplitter } from './lines.js';
import { decimalEnd, idText, parseNumber, readDecimal } from './numbers.js';
import { RunBuilder } from './run-builder.js';
import { TextPieces } from './text-pieces.js';
import type { FormatReader, FormatWriter, ReadOptions } from './types.js';

/** MOT17's class numbers (MOT20 uses the same). */
export const MOT_CLASSES: readonly string[] = [
  '',
  'pedestrian',
  'person_on_vehicle',
  'car',
  'bicycle',
  'motorbike',
  'non_mot_vehicle',
  'static_person',
  'distractor',
  'occluder',
  'occluder_on_ground',
  'occluder_full',
  'reflection',
  'crowd',
];
const MOT_CLASS_OF = new Map(MOT_CLASSES.map((name, i) => [name, i]));

// MOT files are comma-separated; some tools write spaces or tabs instead.
const split = (line: string): string[] => (line.includes(',') ? line.split(',') : line.trim().split(/\s+/));

export function motReader(options: ReadOptions = {}): FormatReader {
  const gt = options.flavor === 'gt';
  const b = new RunBuilder('line');
  let rows = 0;
  /** A row read from its text: any row that readRow (below) does not take, with every message a row can have. */
  const textRow = (line: string, n: number) => {
    if (line.trim() === '') return;
    rows++;
    const f = split(line);
    const need = gt ? 7 : 6;
    if (f.length < need) {
      b.reject(`${f.length} columns; MOT ${gt ? 'ground truth' : 'results'} rows have at least ${need}`, { line: n });
      return;
    }
    const id = idText(f[1]!.trim());
    const frameNumber = parseNumber(f[0]);
    if (!Number.isInteger(frameNumber)) {
      b.reject(`frame "${f[0]}" is not an integer`, { line: n }, id);
      return;
    }
    const frame = frameNumber - 1;
    if (id === '') {
      b.reject('the track id is empty', { line: n }, null, frame);
      return;
    }
    const l = parseNumber(f[2]);
    const t = parseNumber(f[3]);
    const w = parseNumber(f[4]);
    const h = parseNumber(f[5]);
    if (Number.isNaN(l + t + w + h)) {
      b.reject('left, top, width and height must be numbers', { line: n }, id, frame);
      return;
    }
    const conf = f.length > 6 ? parseNumber(f[6]) : NaN;
    if (f.length > 6 && Number.isNaN(conf)) {
      b.reject(`column 7 ("${f[6]}") is not a number`, { line: n }, id, frame);
      return;
    }
    let label: string | undefined;
    let classId: number | undefined;
    let confidence = NaN;
    if (gt) {
      // The consider flag: 0 marks a row the benchmark ignores (not an object).
      if (conf === 0) {
        b.skipped.notObjects++;
        return;
      }
      const cls = f.length > 7 ? parseNumber(f[7]) : -1;
      if (cls !== -1) {
        if (!Number.isInteger(cls) || MOT_CLASSES[cls] === undefined || cls === 0) {
          b.reject(`class "${f[7]}" is not one of MOT17's classes 1 … 13`, { line: n }, id, frame);
          return;
        }
        classId = cls;
        label = MOT_CLASSES[cls];
      }
    } else if (conf !== -1) {
      if (conf !== -1) confidence = conf;
    }
    b.box(id, frame, 'xywh', l, t, w, h, confidence, label, classId, n);
  };
  /**
   * A row as trackers write it (comma-separated decimal numbers, an integer id, no spaces) read from its bytes
   * straight into the builder; false, having read nothing, for any other row, which textRow then reads. The two
   * give the same boxes for the rows this one takes (see mot.test.ts).
   */
  const readRow = (bytes: Buffer, start: number, end: number, n: number): boolean => {
    // frame, id, left, top, width, height: each followed by a comma but the last.
    const frameNumber = readDecimal(bytes, start, end);
    if (bytes[decimalEnd] !== 44 || !Number.isInteger(frameNumber)) return false;
    const id = readDecimal(bytes, decimalEnd + 1, end);
    if (bytes[decimalEnd] !== 44 || !Number.isSafeInteger(id)) return false;
    const l = readDecimal(bytes, decimalEnd + 1, end);
    if (bytes[decimalEnd] !== 44 || Number.isNaN(l)) return false;
    const t = readDecimal(bytes, decimalEnd + 1, end);
    if (bytes[decimalEnd] !== 44 || Number.isNaN(t)) return false;
    const w = readDecimal(bytes, decimalEnd + 1, end);
    if (bytes[decimalEnd] !== 44 || Number.isNaN(w)) return false;
    const h = readDecimal(bytes, decimalEnd + 1, end);
    if ((decimalEnd !== end && bytes[decimalEnd] !== 44) || Number.isNaN(h)) return false;
    let conf = NaN;
    if (decimalEnd !== end) {
      conf = readDecimal(bytes, decimalEnd + 1, end);
      if ((decimalEnd !== end && bytes[decimalEnd] !== 44) || Number.isNaN(conf)) return false;
    } else if (gt) return false;
    let label: string | undefined;
    let classId: number | undefined;
    let confidence = NaN;
    if (gt) {
      let cls = -1;
      if (decimalEnd !== end) {
        cls = readDecimal(bytes, decimalEnd + 1, end);
        if (decimalEnd !== end && bytes[decimalEnd] !== 44) return false;
        if (cls !== -1 && (!Number.isInteger(cls) || MOT_CLASSES[cls] === undefined || cls === 0)) return false;
      }
      rows++;
      if (conf === 0) {
        b.skipped.notObjects++;
        return true;
      }
      if (cls !== -1) {
        classId = cls;
        label = MOT_CLASSES[cls];
      }
    } else {
      rows++;
      if (conf !== -1) confidence = conf;
    }
    // The columns after these (visibility; x, y, z) are not read.
    b.numberedBox(id, frameNumber - 1, 'xywh', l, t, w, h, confidence, label, classId, n);
    return true;
  };
  const lines = byteLineSplitter((bytes, start, end, n) => {
    if (start === end) return;
    if (!readRow(bytes, start, end, n)) textRow(bytes.toString('utf8', start, end), n);
  });
  return {
    write: (chunk) => lines.write(chunk),
    end() {
      lines.end();
      if (rows === 0) throw invalidFile('The file has no rows', { line: 1 });
      return b.finishInPixels(options);
    },
  };
}

/** Rows in frame order; ground truth writes the consider flag 1, the class number and visibility 1. */
export const motWriter: FormatWriter = function* (run, options = {}) {
  const gt = options.flavor === 'gt';
  const v = exportView(run);
  const { width, height } = exportFrameSize(run.media, options.frameSize);
  const ids = integerIds(v.boxes.headers.map((h) => h.id));
  const c = v.boxes.columns;
  const out = new TextPieces();
  for (const i of frameOrder(v)) {
    const o = i * BOX_STRIDE;
    out
      .integer(frameOf(v, i) + 1)
      .char(44)
      .integer(ids[v.trackOf[i]!]!)
      .char(44);
    out
      .rounded(c[o + 1]! * width, 9)
      .char(44)
      .rounded(c[o + 2]! * height, 9)
      .char(44);
    out
      .rounded(c[o + 3]! * width, 9)
      .char(44)
      .rounded(c[o + 4]! * height, 9);
    if (gt) {
      const label = labelOf(v, i);
      const classId = classIdOf(v, i);
      const cls =
        (label !== undefined ? MOT_CLASS_OF.get(label) : undefined) ??
        (typeof classId === 'number' && MOT_CLASSES[classId] && classId > 0 ? classId : -1);
      out.text(',1,').integer(cls).text(',1\n');
    } else {
      const conf = columnOf(v, i, 5);
      out.char(44);
      if (Number.isNaN(conf)) out.text('-1');
      else out.plain(conf);
      out.text(',-1,-1,-1\n');
    }
    if (out.full) yield out.take();
  }
  if (!out.empty) yield out.take();
};
