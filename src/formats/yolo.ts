// Ultralytics tracking output: a zip of `<stem>_<frame>.txt` label files (frames counted from 1, as the video
// loader counts them), rows `class cx cy w h [conf] [track_id]` normalised, names from data.yaml or classes.txt.
import { deflateRawSync, crc32 } from 'node:zlib';
import { Zip, type ZipInputFile } from 'fflate';
import { BOX_STRIDE } from '../detections/run-types.js';
import { classIdOf, classesOf, exportView, frameOf, frameOrder, labelOf, columnOf } from './export-view.js';
import { invalidFile } from './format-error.js';
import { classTable, integerIds } from './id-numbering.js';
import { ByteCollector } from './json-input.js';
import { idText, parseNumber, plainText, unitText } from './numbers.js';
import { RunBuilder } from './run-builder.js';
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
  const zip = new Zip((err, data) => {
    if (err) throw err;
    out.push(data);
  });
  // Each entry deflated whole by zlib, then handed to fflate's Zip as a finished entry: fflate's streaming
  // ZipDeflate set up a deflate state per entry, and a run of 5000 frames spent 2.5 s of CPU on that alone.
  // Level 1: on 5000 label files (19.5 MB of text) it deflates in about half the CPU time of level 6, for a zip
  // 2 % larger; storing them undeflated would save a little more time for a zip 2.2 times as large.
  const encoder = new TextEncoder();
  const add = (name: string, text: string) => {
    const data = encoder.encode(text);
    const file: ZipInputFile = {
      filename: name,
      size: data.length,
      crc: crc32(data),
      compression: 8,
      flag: 6, // level 1: "super fast" in the general purpose bits (bits 1 and 2)
      mtime: MTIME,
      terminate: () => {},
    };
    zip.add(file);
    file.ondata!(null, deflateRawSync(data, { level: 1 }), true);
  };
  // Every class number up to the largest gets a name, as data.yaml lists names without gaps.
  const names = new Map<number, string>();
  const largest = Math.max(-1, ...classes.names.keys());
  for (let k = 0; k <= largest; k++) names.set(k, classes.names.get(k) ?? `class${k}`);
  add('data.yaml', yamlOfNames(names));
  add('classes.txt', [...names.values()].map((n) => `${n}\n`).join(''));
  yield* out.splice(0);
  const c = v.boxes.columns;
  const order = frameOrder(v);
  let text = '';
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const o = i * BOX_STRIDE;
    const w = c[o + 3]!;
    const h = c[o + 4]!;
    const cls = classes.numberOf(labelOf(v, i), classIdOf(v, i)) ?? 0;
    const conf = columnOf(v, i, 5);
    text += `${cls} ${unitText(c[o + 1]! + w / 2)} ${unitText(c[o + 2]! + h / 2)} ${unitText(w)} ${unitText(h)}${!Number.isNaN(conf) ? ` ${plainText(conf)}` : ''} ${ids[v.trackOf[i]!]}\n`;
    const next = order[k + 1];
    if (next === undefined || frameOf(v, next) !== frameOf(v, i)) {
      add(`labels/${stem}_${frameOf(v, i) + 1}.txt`, text);
      text = '';
      yield* out.splice(0);
    }
  }
  zip.end();
  yield* out.splice(0);
};
