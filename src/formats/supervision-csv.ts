// Roboflow supervision CSVSink output: `x_min,y_min,x_max,y_max,class_id,confidence,tracker_id` then the sink's
// extra columns sorted by name (detections.data such as class_name, and custom_data such as frame_index).
import { BOX_STRIDE } from '../detections/run-types.js';
import { classIdOf, exportView, frameOf, frameOrder, labelOf, columnOf } from './export-view.js';
import { exportFrameSize } from './frame-size.js';
import { invalidFile } from './format-error.js';
import { csvField, csvFields, lineSplitter } from './lines.js';
import { idText, parseNumber } from './numbers.js';
import { RunBuilder } from './run-builder.js';
import { TextPieces } from './text-pieces.js';
import type { FormatReader, FormatWriter, ReadOptions } from './types.js';

const REQUIRED = ['x_min', 'y_min', 'x_max', 'y_max'] as const;

export function supervisionCsvReader(options: ReadOptions = {}): FormatReader {
  const b = new RunBuilder('line');
  let header: Map<string, number> | undefined;
  let headerLength = 0;
  let frameColumn = -1;
  let rows = 0;
  // A quoted field may hold a line break: the record then goes on over the next line(s).
  let pending = '';
  let pendingLine = 0;
  const record = (fields: string[], n: number) => {
    if (header === undefined) {
      header = new Map(fields.map((name, i) => [name.trim(), i]));
      headerLength = fields.length;
      const missing = REQUIRED.filter((name) => !header!.has(name));
      frameColumn = header.get('frame_index') ?? header.get('frame') ?? -1;
      if (missing.length > 0 || frameColumn === -1) {
        throw invalidFile(
          `The header lacks ${[...missing, ...(frameColumn === -1 ? ['frame_index (or frame)'] : [])].join(', ')}`,
          { line: n },
        );
      }
      return;
    }
    if (fields.length === 1 && fields[0]!.trim() === '') return;
    rows++;
    const get = (name: string) => {
      const k = header!.get(name);
      return k === undefined ? undefined : fields[k]?.trim();
    };
    if (fields.length < headerLength) {
      b.reject(`${fields.length} fields; the header has ${headerLength}`, { line: n });
      return;
    }
    // An empty tracker_id is a detection the tracker did not (yet) match: a track of its own (see untrackedBox).
    const trackField = get('tracker_id') ?? '';
    const id = trackField === '' ? null : idText(trackField);
    const frameText = fields[frameColumn]!.trim();
    const frame = parseNumber(frameText);
    if (!Number.isInteger(frame)) {
      b.reject(`frame "${frameText}" is not an integer`, { line: n }, id);
      return;
    }
    const corners = REQUIRED.map((name) => parseNumber(get(name)));
    if (corners.some((c) => Number.isNaN(c))) {
      b.reject('x_min, y_min, x_max and y_max must be numbers', { line: n }, id, frame);
      return;
    }
    const confText = get('confidence') ?? '';
    const confidence = confText === '' ? NaN : parseNumber(confText);
    if (confText !== '' && Number.isNaN(confidence)) {
      b.reject(`confidence "${confText}" is not a number`, { line: n }, id, frame);
      return;
    }
    const classText = get('class_id') ?? '';
    const classNumber = classText === '' ? undefined : parseNumber(classText);
    if (classNumber !== undefined && !Number.isInteger(classNumber)) {
      b.reject(`class_id "${classText}" is not an integer`, { line: n }, id, frame);
      return;
    }
    const name = get('class_name');
    const label = name === undefined || name === '' ? undefined : name;
    const [x1, y1, x2, y2] = corners as [number, number, number, number];
    if (id === null) b.untrackedBox(frame, 'xyxy', x1, y1, x2, y2, confidence, label, classNumber, n);
    else b.box(id, frame, 'xyxy', x1, y1, x2, y2, confidence, label, classNumber, n);
  };
  const lines = lineSplitter((line, n) => {
    const text = pending === '' ? line : `${pending}\n${line}`;
    const at = pending === '' ? n : pendingLine;
    const fields = csvFields(text);
    if (fields === undefined) {
      pending = text;
      pendingLine = at;
      return;
    }
    pending = '';
    if (header === undefined && text.trim() === '') return;
    record(fields, at);
  });
  return {
    write: (chunk) => lines.write(chunk),
    end() {
      lines.end();
      if (pending !== '') b.reject('a quoted field is not closed at the end of the file', { line: pendingLine });
      if (header === undefined) throw invalidFile('The file is empty: no header', { line: 1 });
      if (rows === 0) throw invalidFile('The file has a header and no rows', { line: 2 });
      return b.finishInPixels(options);
    },
  };
}

/** The sink's own layout: base columns, then class_name and frame_index (sorted, as the sink sorts them). */
export const supervisionCsvWriter: FormatWriter = function* (run, options = {}) {
  const v = exportView(run);
  const { width, height } = exportFrameSize(run.media, options.frameSize);
  const c = v.boxes.columns;
  const out = new TextPieces().text('x_min,y_min,x_max,y_max,class_id,confidence,tracker_id,class_name,frame_index\n');
  for (const i of frameOrder(v)) {
    const o = i * BOX_STRIDE;
    const classId = classIdOf(v, i);
    const conf = columnOf(v, i, 5);
    const label = labelOf(v, i);
    out.pixelCorners(c[o + 1]!, c[o + 2]!, c[o + 3]!, c[o + 4]!, width, height, 44).char(44);
    if (typeof classId === 'number' && Number.isInteger(classId)) out.text(String(classId));
    out.char(44);
    if (!Number.isNaN(conf)) out.plain(conf);
    out.char(44).text(csvField(v.boxes.headers[v.trackOf[i]!]!.id)).char(44);
    if (label !== undefined) out.text(csvField(label));
    out.char(44).integer(frameOf(v, i)).char(10);
    if (out.full) yield out.take();
  }
  yield out.take();
};
