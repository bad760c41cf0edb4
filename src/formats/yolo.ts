// Ultralytics tracking output: a zip of `<stem>_<frame>.txt` label files (frames counted from 1, as the video
// loader counts them), rows `class cx cy w h [conf] [track_id]` normalised, names from data.yaml or classes.txt.
import { crc32 } from 'node:zlib';
import { Zip, type ZipInputFile } from 'fflate';
import { BOX_STRIDE } from '../detections/run-types.js';
import {
  classIdOf,
  classesOf,
  exportView,
  frameOf,
  frameOrder,
  labelOf,
  columnOf,
  PIECE_CHARS,
} from './export-view.js';
import { invalidFile } from './format-error.js';
import { classTable, integerIds } from './id-numbering.js';
import { ByteCollector } from './json-input.js';
import { idText, parseNumber } from './numbers.js';
import { RunBuilder } from './run-builder.js';
import { TextPieces } from './text-pieces.js';
import { stemOf } from './export-view.js';
import { namesFromClassesTxt, namesFromYaml, yamlOfNames } from './yolo-names.js';
import { readZip } from './zip-input.js';
import type { FormatReader, FormatWriter } from './types.js';

const LABEL_FILE = /^(?:.*\/)?([^/]+)_(\d+)\.txt$/;
const basename = (name: string) => name.slice(name.lastIndexOf('/') + 1);

export function yoloReader(): FormatReader {
  const input = new ByteCollector();
  return {
    write: (chunk) => input.write(chunk),
    end() {
      const entries = readZip(input.bytes());
      const b = new RunBuilder('entry');
      let names: Map<number, string> | undefined;
      for (const e of entries) {
        if (/\.ya?ml$/.test(e.name)) names ??= namesFromYaml(new TextDecoder().decode(e.data));
      }
      const classesTxt = entries.find((e) => basename(e.name) === 'classes.txt');
      if (names === undefined && classesTxt) names = namesFromClassesTxt(new TextDecoder().decode(classesTxt.data));
      // An empty names list says nothing about the classes: the class numbers are kept without names.
      if (names?.size === 0) names = undefined;
      const labels: { entry: number; frame: number; data: Uint8Array }[] = [];
      const stems = new Set<string>();
      for (const e of entries) {
        if (!e.name.endsWith('.txt') || basename(e.name) === 'classes.txt') continue;
        const entry = b.entries.push(e.name) - 1;
        const m = LABEL_FILE.exec(e.name);
        if (!m) {
          b.reject('not a label file: its name is not <stem>_<frame>.txt', { entry: `${e.name}:0` });
          continue;
        }
        stems.add(m[1]!);
        labels.push({ entry, frame: Number(m[2]) - 1, data: e.data });
      }
      if (labels.length === 0) throw invalidFile('The zip has no <stem>_<frame>.txt label files', { entry: '' });
      if (stems.size > 1) {
        throw invalidFile(`The zip holds the labels of ${stems.size} videos (${[...stems].join(', ')}); a run is one`, {
          entry: '',
        });
      }
      labels.sort((x, y) => x.frame - y.frame);
      const decoder = new TextDecoder('utf-8');
      for (const { entry, frame, data } of labels) {
        const rows = decoder.decode(data).split('\n');
        for (let k = 0; k < rows.length; k++) readRow(b, names, rows[k]!.trim(), frame, entry, k + 1);
      }
      return b.finish({ coordinateSpace: 'normalized' });
    },
  };
}

function readRow(
  b: RunBuilder,
  names: Map<number, string> | undefined,
  line: string,
  frame: number,
  entry: number,
  lineNumber: number,
): void {
  if (line === '') return;
  const position = b.position(entry, lineNumber);
  const f = line.split(/\s+/);
  if (f.length < 5 || f.length > 7) {
    b.reject(`${f.length} fields; rows are "class cx cy w h [conf] [track_id]" (5 to 7 fields)`, position, null, frame);
    return;
  }
  // 5 fields: a detection without a track id. 6: the last is the track id when it is an integer (ultralytics writes
  // ids as integers), else the confidence of an untracked detection (save_conf without tracking). 7: both.
  const sixth = f.length === 6 ? parseNumber(f[5]) : NaN;
  const tracked = f.length === 7 || (f.length === 6 && (Number.isInteger(sixth) || Number.isNaN(sixth)));
  const id = tracked ? idText(f[f.length - 1]!) : null;
  const cls = parseNumber(f[0]);
  const [cx, cy, w, h] = [1, 2, 3, 4].map((k) => parseNumber(f[k]));
  const confField = f.length === 7 || (f.length === 6 && !tracked) ? f[5] : undefined;
  const conf = confField === undefined ? NaN : parseNumber(confField);
  if ([cls, cx, cy, w, h].some((v) => Number.isNaN(v)) || (confField !== undefined && Number.isNaN(conf))) {
    b.reject('class, cx, cy, w, h and conf must be numbers', position, id, frame);
    return;
  }
  if (!Number.isInteger(cls) || cls < 0) {
    b.reject(`class "${f[0]}" is not a class number`, position, id, frame);
    return;
  }
  let label: string | undefined;
  if (names !== undefined) {
    label = names.get(cls);
    if (label === undefined) {
      b.reject(`class ${cls} is not among the ${names.size} names of the dataset`, position, id, frame);
      return;
    }
  }
  const [x, y] = [cx! - w! / 2, cy! - h! / 2];
  if (id === null) b.untrackedBox(frame, 'xywh', x, y, w!, h!, conf, label, cls, entry, lineNumber);
  else b.box(id, frame, 'xywh', x, y, w!, h!, conf, label, cls, entry, lineNumber);
}

/** A fixed time stamp for every entry, so that the same run gives the same zip bytes. */
const MTIME = new Date(2000, 0, 1);

export const yoloWriter: FormatWriter = function* (run, options = {}) {
  const v = exportView(run);
  const classes = classTable(classesOf(v), 0);
  const ids = integerIds(v.boxes.headers.map((h) => h.id));
  const stem = stemOf(run, options.stem);
  const out: Uint8Array[] = [];
  let outBytes = 0;
  const zip = new Zip((err, data) => {
    if (err) throw err;
    out.push(data);
    outBytes += data.length;
  });
  /** The zip's bytes so far as one piece (fflate gives each header and entry on its own). */
  const flush = () => {
    outBytes = 0;
    return out.length === 0 ? [] : [Buffer.concat(out.splice(0))];
  };
  // Each entry is handed to fflate's Zip whole, stored (method 0): the spec asks for no compression, and deflating
  // 5000 label files even at zlib's level 1 was about half of the export's CPU time (see docs/formats.md).
  const add = (name: string, data: Uint8Array) => {
    const file: ZipInputFile = {
      filename: name,
      size: data.length,
      crc: crc32(data),
      compression: 0,
      mtime: MTIME,
      terminate: () => {},
    };
    zip.add(file);
    file.ondata!(null, data as Uint8Array<ArrayBuffer>, true);
  };
  // Every class number up to the largest gets a name, as data.yaml lists names without gaps.
  const names = new Map<number, string>();
  const largest = Math.max(-1, ...classes.names.keys());
  for (let k = 0; k <= largest; k++) names.set(k, classes.names.get(k) ?? `class${k}`);
  const encoder = new TextEncoder();
  add('data.yaml', encoder.encode(yamlOfNames(names)));
  add('classes.txt', encoder.encode([...names.values()].map((n) => `${n}\n`).join('')));
  yield* flush();
  const c = v.boxes.columns;
  const order = frameOrder(v);
  const text = new TextPieces();
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const o = i * BOX_STRIDE;
    const w = c[o + 3]!;
    const h = c[o + 4]!;
    const cls = classes.numberOf(labelOf(v, i), classIdOf(v, i)) ?? 0;
    const conf = columnOf(v, i, 5);
    text
      .integer(cls)
      .char(32)
      .rounded(c[o + 1]! + w / 2, 12)
      .char(32)
      .rounded(c[o + 2]! + h / 2, 12)
      .char(32);
    text.rounded(w, 12).char(32).rounded(h, 12);
    if (!Number.isNaN(conf)) text.char(32).plain(conf);
    text.char(32).integer(ids[v.trackOf[i]!]!).char(10);
    const next = order[k + 1];
    if (next === undefined || frameOf(v, next) !== frameOf(v, i)) {
      add(`labels/${stem}_${frameOf(v, i) + 1}.txt`, text.takeCopy());
      // Entries are small (a frame's rows): they leave in pieces of about 64 KiB, as the text formats do.
      if (outBytes >= PIECE_CHARS) yield* flush();
    }
  }
  zip.end();
  yield* flush();
};
