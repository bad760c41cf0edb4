// Shared steps of the format tests: read a file, validate it as the JSON route would, write it back.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { zipSync } from 'fflate';
import { BOX_STRIDE } from '../../src/detections/run-types.js';
import { validateRun, type ValidatedRun } from '../../src/detections/validate-run.js';
import { collect, readBytes } from '../../src/formats/read-all.js';
import { formats, type FormatName } from '../../src/formats/registry.js';
import type { ExportRun, ReadOptions, ReadResult, WriteOptions } from '../../src/formats/types.js';

export const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;
export const fixture = (name: string): Buffer => readFileSync(join(FIXTURES, name));

/** A folder of the fixtures as a zip, as a user would zip ultralytics' run folder. */
export function zipFolder(folder: string): Uint8Array {
  const root = join(FIXTURES, folder);
  const files: Record<string, Uint8Array> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(root, path)] = readFileSync(path);
    }
  };
  walk(root);
  return zipSync(files, { mtime: new Date(2000, 0, 1) });
}

export function read(format: FormatName, bytes: Uint8Array, options?: ReadOptions): ReadResult {
  return readBytes(formats[format].reader(options), bytes);
}

/** Bytes in pieces of `size`, to check that a reader takes input as it arrives. */
export function readInChunks(format: FormatName, bytes: Uint8Array, size: number, options?: ReadOptions): ReadResult {
  const reader = formats[format].reader(options);
  for (let o = 0; o < bytes.length; o += size) reader.write(bytes.subarray(o, o + size));
  return reader.end();
}

export function validate(result: ReadResult): ValidatedRun {
  const v = validateRun({ ...result.run, mediaKey: 'rec-1' });
  if (!v.ok) throw new Error(`${v.code}: ${v.detail}`);
  return v;
}

export function toExport(result: ReadResult): ExportRun {
  const v = validate(result);
  const run: ExportRun = { boxes: v.boxes };
  if (v.meta.media) run.media = v.meta.media;
  return run;
}

export function write(format: FormatName, run: ExportRun, options?: WriteOptions): Buffer {
  return collect(formats[format].writer(run, options));
}

export interface SimpleBox {
  frame: number;
  x: number;
  y: number;
  w: number;
  h: number;
  confidence?: number;
}
export interface SimpleTrack {
  id: string;
  label?: string;
  classId?: unknown;
  boxes: SimpleBox[];
}

/** A run's tracks as plain objects, for comparisons. */
export function tracksOf(run: ExportRun): SimpleTrack[] {
  const c = run.boxes.columns;
  let i = 0;
  return run.boxes.headers.map((h) => {
    const track: SimpleTrack = { id: h.id, boxes: [] };
    if (h.label !== undefined) track.label = h.label;
    if (h.classId !== undefined) track.classId = h.classId;
    for (let k = 0; k < h.n; k++, i++) {
      const o = i * BOX_STRIDE;
      const box: SimpleBox = { frame: c[o]!, x: c[o + 1]!, y: c[o + 2]!, w: c[o + 3]!, h: c[o + 4]! };
      if (!Number.isNaN(c[o + 5]!)) box.confidence = c[o + 5]!;
      track.boxes.push(box);
    }
    return track;
  });
}

/** A stored run from plain tracks (boxes in frame order), as the writers take it. */
export function exportRunOf(tracks: SimpleTrack[], media?: Record<string, unknown>): ExportRun {
  const count = tracks.reduce((s, t) => s + t.boxes.length, 0);
  const columns = new Float64Array(count * BOX_STRIDE);
  let i = 0;
  const headers = tracks.map((t) => {
    for (const b of t.boxes) {
      columns.set([b.frame, b.x, b.y, b.w, b.h, b.confidence ?? NaN, NaN], i * BOX_STRIDE);
      i++;
    }
    const h: { id: string; n: number; label?: string; classId?: string | number } = { id: t.id, n: t.boxes.length };
    if (t.label !== undefined) h.label = t.label;
    if (typeof t.classId === 'number' || typeof t.classId === 'string') h.classId = t.classId;
    return h;
  });
  const run: ExportRun = { boxes: { headers, columns, count } };
  if (media) run.media = media;
  return run;
}

/** Box values compared within `tolerance`; everything else exactly. */
export function expectSameTracks(actual: SimpleTrack[], expected: SimpleTrack[], tolerance = 1e-9): void {
  const problems: string[] = [];
  if (actual.length !== expected.length) problems.push(`${actual.length} tracks, expected ${expected.length}`);
  expected.forEach((e, t) => {
    const a = actual[t];
    if (!a) return;
    for (const key of ['id', 'label', 'classId'] as const) {
      if (a[key] !== e[key]) problems.push(`track ${t} ${key}: ${String(a[key])} ≠ ${String(e[key])}`);
    }
    if (a.boxes.length !== e.boxes.length)
      problems.push(`track ${t}: ${a.boxes.length} boxes, expected ${e.boxes.length}`);
    e.boxes.forEach((eb, k) => {
      const ab = a.boxes[k];
      if (!ab) return;
      if (ab.frame !== eb.frame) problems.push(`track ${t} box ${k} frame ${ab.frame} ≠ ${eb.frame}`);
      if (ab.confidence !== eb.confidence)
        problems.push(`track ${t} box ${k} confidence ${ab.confidence} ≠ ${eb.confidence}`);
      for (const key of ['x', 'y', 'w', 'h'] as const) {
        if (!(Math.abs(ab[key] - eb[key]) <= tolerance))
          problems.push(`track ${t} box ${k} ${key} ${ab[key]} ≠ ${eb[key]}`);
      }
    });
  });
  if (problems.length > 0) throw new Error(problems.slice(0, 10).join('\n'));
}
