// CVAT for video 1.1 XML, streamed through XmlTokenizer: `<meta>` (original_size, start_frame, stop_frame, frame_filter,
// labels), then `<track id label>` elements of `<box frame outside occluded keyframe xtl ytl xbr ybr z_order>`.
// Frames are taken as written; boxes with outside="1" end a track (not objects); other shapes are counted, skipped.
import { BOX_STRIDE } from '../detections/run-types.js';
import {
  classesOf,
  exportView,
  frameCountOf,
  frameOf,
  isInterpolated,
  labelOf,
  FIRST_PIECE_CHARS,
  PIECE_CHARS,
} from './export-view.js';
import { exportFrameSize, resolveFrameSize } from './frame-size.js';
import { invalidFile } from './format-error.js';
import { integerIds } from './id-numbering.js';
import { parseNumber, pixelText } from './numbers.js';
import { RunBuilder } from './run-builder.js';
import type { FormatReader, FormatWriter, ReadOptions } from './types.js';
import { attributeOf, XmlError, XmlTokenizer } from './xml-tokenizer.js';
import { INCOMPLETE, newPlainBox } from './cvat-plain-box.js';
import { readCvatBox } from './cvat-layout-box.js';

/** Bytes decoded at a time (see write). */
const DECODE_BYTES = 64 * 1024;
/** A plain box is never longer than this: bytes that are not one by then go to the tokenizer (no quadratic wait). */
const PLAIN_BOX_BYTES = 4096;
/** `<box` as bytes: where readPlainBox may take over from the tokenizer again. */
const BOX_START = Buffer.from('<box');
const SHAPES = new Set(['polygon', 'polyline', 'points', 'skeleton', 'mask', 'cuboid', 'ellipse', 'tag']);
const UNSIGNED = /^\d+$/;
/** Meta fields whose text is kept (by the name of their element). */
const META_TEXT = new Set(['width', 'height', 'start_frame', 'stop_frame', 'frame_filter', 'size', 'name']);

export interface CvatMeta {
  startFrame?: number;
  stopFrame?: number;
  frameFilter?: string;
  labels: string[];
}

/**
 * `plainBoxes: false` leaves every box to the tokenizer (tests compare the two paths); `boxesReadFromBytes` counts
 * the boxes the byte path took.
 */
export function cvatVideoReader(
  options: ReadOptions = {},
  { plainBoxes = true } = {},
): FormatReader & { meta: CvatMeta; readonly boxesReadFromBytes: number } {
  const b = new RunBuilder('element');
  const meta: CvatMeta = { labels: [] };
  const fileSize: { width?: number; height?: number } = {};
  const decoder = new TextDecoder('utf-8');
  const stack: string[] = [];
  let text = '';
  let trackOrdinal = 0;
  let track: { id: string; label?: string; boxes: number } | undefined;
  let sawRoot = false;

  const fail = (message: string) => {
    throw invalidFile(message, { line: parser.line });
  };
  const open = (name: string, attributes: readonly string[]) => {
    const parent = stack[stack.length - 1];
    stack.push(name);
    text = '';
    if (stack.length === 1) {
      if (name !== 'annotations') fail(`The root element is <${name}>, not <annotations>`);
      sawRoot = true;
      return;
    }
    if (parent === 'annotations') {
      if (name === 'image') fail('This is CVAT for images (an <image> element); export the task as CVAT for video 1.1');
      if (name === 'track') {
        trackOrdinal++;
        const id = attributeOf(attributes, 'id');
        const label = attributeOf(attributes, 'label');
        track = { id: id === undefined || id === '' ? String(trackOrdinal - 1) : id, boxes: 0 };
        if (label !== undefined) track.label = label;
      }
      return;
    }
    if (parent === 'track' && track !== undefined) {
      if (name === 'box') {
        track.boxes++;
        readBox(attributes, track.id, track.label, track.boxes);
      } else if (SHAPES.has(name)) {
        b.skipped.nonBoxShapes++;
      }
    }
  };
  const readBox = (attributes: readonly string[], id: string, label: string | undefined, ordinal: number) => {
    // One pass over the attributes into locals: this runs for every box of the file.
    let frameText = '';
    let outside: string | undefined;
    let xtl: string | undefined;
    let ytl: string | undefined;
    let xbr: string | undefined;
    let ybr: string | undefined;
    for (let k = 0; k < attributes.length; k += 2) {
      const value = attributes[k + 1];
      switch (attributes[k]) {
        case 'frame':
          frameText = value!;
          break;
        case 'outside':
          outside = value;
          break;
        case 'xtl':
          xtl = value;
          break;
        case 'ytl':
          ytl = value;
          break;
        case 'xbr':
          xbr = value;
          break;
        case 'ybr':
          ybr = value;
          break;
      }
    }
    const position = () => ({ element: `track[${trackOrdinal}]/box[${ordinal}]` });
    if (!UNSIGNED.test(frameText)) {
      b.reject(`frame "${frameText}" is not a non-negative integer`, position(), id);
      return;
    }
    const frame = Number(frameText);
    if (outside === '1') {
      b.skipped.notObjects++;
      return;
    }
    const x1 = parseNumber(xtl);
    const y1 = parseNumber(ytl);
    const x2 = parseNumber(xbr);
    const y2 = parseNumber(ybr);
    if (Number.isNaN(x1) || Number.isNaN(y1) || Number.isNaN(x2) || Number.isNaN(y2)) {
      b.reject('xtl, ytl, xbr and ybr must be numbers', position(), id, frame);
      return;
    }
    b.box(id, frame, 'xyxy', x1, y1, x2, y2, NaN, label, undefined, trackOrdinal, ordinal);
  };
  /** A box readPlainBox took: what open() and readBox do with the same box. */
  const plain = newPlainBox();
  let boxesReadFromBytes = 0;
  const takePlainBox = () => {
    const t = track!;
    t.boxes++;
    boxesReadFromBytes++;
    if (plain.outside) b.skipped.notObjects++;
    else
      b.box(
        t.id,
        plain.frame,
        'xyxy',
        plain.xtl,
        plain.ytl,
        plain.xbr,
        plain.ybr,
        NaN,
        t.label,
        undefined,
        trackOrdinal,
        t.boxes,
      );
  };
  const close = (name: string) => {
    stack.pop();
    if (name === 'track') track = undefined;
    if (!stack.includes('meta') || !META_TEXT.has(name)) return;
    const parent = stack[stack.length - 1];
    const value = text.trim();
    if (parent === 'original_size' && (name === 'width' || name === 'height')) {
      fileSize[name] ??= parseNumber(value);
    } else if (parent === 'label' && name === 'name') {
      if (!meta.labels.includes(value)) meta.labels.push(value);
    } else if (name === 'start_frame' && meta.startFrame === undefined && UNSIGNED.test(value)) {
      meta.startFrame = Number(value);
    } else if (name === 'stop_frame' && meta.stopFrame === undefined && UNSIGNED.test(value)) {
      meta.stopFrame = Number(value);
    } else if (name === 'frame_filter' && meta.frameFilter === undefined) {
      meta.frameFilter = value;
    }
  };
  const parser = new XmlTokenizer({
    open,
    close,
    text: (t) => {
      text += t;
    },
  });

  // A CSV or JSON file fails here at once, before the tokenizer reads it all as text outside the root.
  let started = false;
  let leadingLines = 1;
  const feed = (text: string) => {
    if (!started) {
      const first = text.search(/[^\s\uFEFF]/);
      leadingLines += (text.slice(0, first === -1 ? text.length : first).match(/\n/g) ?? []).length;
      if (first !== -1) {
        if (text[first] !== '<')
          throw invalidFile('Not XML: the file does not start with a tag', { line: leadingLines });
        started = true;
      }
    }
    try {
      parser.write(text);
    } catch (err) {
      throw notWellFormed(err);
    }
  };

  const decode = (bytes: Uint8Array) => {
    // In pieces: TextDecoder's streaming decode of a whole 31 MiB body in one call was a third of an import.
    for (let at = 0; at < bytes.length; at += DECODE_BYTES)
      feed(decoder.decode(bytes.subarray(at, at + DECODE_BYTES), { stream: true }));
  };
  /** Bytes of an unfinished plain box at the end of the last chunk. */
  let carry: Buffer | undefined;
  /**
   * Inside a track, with the tokenizer waiting on nothing, plain boxes are read from the bytes; the bytes up to the
   * next `<box` go to the tokenizer. Cuts fall on ASCII bytes ("<" or a box's end), or at a chunk's end, where the
   * streaming decoder keeps a split character (the next chunk then starts with bytes no plain box starts with).
   */
  const scan = (bytes: Buffer, final: boolean, from = 0) => {
    const n = bytes.length;
    let p = from;
    while (p < n) {
      if (stack.length === 2 && track !== undefined && parser.idle) {
        const end = readCvatBox(bytes, p, n, plain);
        if (end >= 0) {
          parser.line += plain.lines;
          takePlainBox();
          p = end;
          continue;
        }
        if (end === INCOMPLETE && !final && n - p < PLAIN_BOX_BYTES) {
          carry = Buffer.from(bytes.subarray(p));
          return;
        }
      }
      let next = bytes.indexOf(BOX_START, p + 1);
      if (next === -1) next = n;
      decode(bytes.subarray(p, next));
      p = next;
    }
  };

  return {
    meta,
    get boxesReadFromBytes() {
      return boxesReadFromBytes;
    },
    write(chunk) {
      if (!plainBoxes) return decode(chunk);
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      if (carry === undefined) return scan(bytes, false);
      // The cut box is finished on the carry and the chunk's first bytes, so that the chunk is not copied whole.
      const cut = carry;
      carry = undefined;
      const joined = Buffer.concat([cut, bytes.subarray(0, PLAIN_BOX_BYTES)]);
      const end = readCvatBox(joined, 0, joined.length, plain);
      if (end <= cut.length) return scan(Buffer.concat([cut, bytes]), false);
      parser.line += plain.lines;
      takePlainBox();
      scan(bytes, false, end - cut.length);
    },
    end() {
      if (carry !== undefined) scan(carry, true);
      carry = undefined;
      const rest = decoder.decode();
      if (rest !== '') feed(rest);
      if (!sawRoot) throw invalidFile('The file is empty or holds no XML element', { line: parser.line });
      try {
        parser.close();
      } catch (err) {
        throw notWellFormed(err);
      }
      if (trackOrdinal === 0) throw invalidFile('The file has no <track> elements', { line: parser.line });
      const size = resolveFrameSize(fileSize, options.frameSize, options.recordingSize);
      const media: Record<string, unknown> = { width: size.width, height: size.height };
      if (meta.stopFrame !== undefined) media.frameCount = meta.stopFrame + 1;
      return b.finish({ coordinateSpace: 'pixel', media });
    },
  };
}

const notWellFormed = (err: unknown) =>
  err instanceof XmlError ? invalidFile(`Not well-formed XML: ${err.message}`, { line: err.line }) : err;

const xmlText = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * The file CVAT itself exports for a video task: every box a keyframe unless interpolation filled it, and an
 * outside="1" box on the frame after a track's last box and after each gap, so that CVAT does not interpolate over
 * frames the track was not seen in. Track ids are integers (CVAT parses them as such).
 */
export const cvatVideoWriter: FormatWriter = function* (run, options = {}) {
  const v = exportView(run);
  const { width, height } = exportFrameSize(run.media, options.frameSize);
  const frames = frameCountOf(v);
  const ids = integerIds(v.boxes.headers.map((h) => h.id));
  const labels: string[] = [];
  for (const { label } of classesOf(v)) if (label !== undefined && !labels.includes(label)) labels.push(label);
  let limit = FIRST_PIECE_CHARS;
  let piece = `<?xml version="1.0" encoding="utf-8"?>\n<annotations>\n  <version>1.1</version>\n  <meta>\n    <task>\n`;
  piece += `      <name>${xmlText(run.name ?? 'video')}</name>\n      <size>${frames}</size>\n      <mode>interpolation</mode>\n`;
  piece += `      <overlap>0</overlap>\n      <start_frame>0</start_frame>\n      <stop_frame>${Math.max(0, frames - 1)}</stop_frame>\n      <frame_filter></frame_filter>\n`;
  piece += '      <labels>\n';
  for (const label of labels) {
    piece += `        <label>\n          <name>${xmlText(label)}</name>\n          <type>rectangle</type>\n          <attributes>\n          </attributes>\n        </label>\n`;
  }
  piece += `      </labels>\n      <original_size>\n        <width>${width}</width>\n        <height>${height}</height>\n      </original_size>\n    </task>\n  </meta>\n`;
  const c = v.boxes.columns;
  const box = (frame: number, o: number, keyframe: boolean, outside: boolean) => {
    const x = c[o + 1]!;
    const y = c[o + 2]!;
    return `    <box frame="${frame}" keyframe="${keyframe ? 1 : 0}" outside="${outside ? 1 : 0}" occluded="0" xtl="${pixelText(x * width)}" ytl="${pixelText(y * height)}" xbr="${pixelText((x + c[o + 3]!) * width)}" ybr="${pixelText((y + c[o + 4]!) * height)}" z_order="0">\n    </box>\n`;
  };
  for (let t = 0; t < v.boxes.headers.length; t++) {
    const header = v.boxes.headers[t]!;
    const start = v.startOf[t]!;
    piece += `  <track id="${ids[t]}" label="${xmlText(labelOf(v, start) ?? 'object')}" source="auto">\n`;
    for (let i = start; i < start + header.n; i++) {
      const frame = frameOf(v, i);
      piece += box(frame, i * BOX_STRIDE, !isInterpolated(v, i), false);
      const next = i + 1 < start + header.n ? frameOf(v, i + 1) : frames;
      if (next > frame + 1) piece += box(frame + 1, i * BOX_STRIDE, true, true);
    }
    piece += '  </track>\n';
    if (piece.length >= limit) {
      yield piece;
      piece = '';
      limit = PIECE_CHARS;
    }
  }
  yield `${piece}</annotations>\n`;
};
