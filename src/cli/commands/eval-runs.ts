// A CVAT-for-video or Sightline run file pair read through the formats' readers and the run validator, as an upload
// would be: a row the reader or the validator refuses is bad input, reported with its place in the file.
import path from 'node:path';
import { validateRun } from '../../detections/validate-run.js';
import { InputError } from '../../evaluation/inputs/input-error.js';
import { type RunSide, runSequence } from '../../evaluation/inputs/run-boxes.js';
import { FormatError, type Position, readerFor } from '../../formats/index.js';
import type { SequenceInput } from '../../evaluation/layout.js';
import { readText } from './eval-files.js';

function where(file: string, position: Position | undefined, reason: string): InputError {
  if (position && 'line' in position) return new InputError(file, position.line, reason);
  const place = !position
    ? ''
    : 'element' in position
      ? `${position.element}: `
      : 'index' in position
        ? `box ${position.index}: `
        : `${position.entry}: `;
  return new InputError(file, undefined, `${place}${reason}`);
}

function readRun(format: 'cvat-video' | 'sightline', file: string): RunSide {
  const reader = readerFor(format);
  let read: ReturnType<typeof reader.end>;
  try {
    reader.write(new TextEncoder().encode(readText(file)));
    read = reader.end();
  } catch (err) {
    if (err instanceof FormatError) throw where(file, err.position, err.message);
    throw err;
  }
  const bad = read.malformed[0];
  if (bad) throw where(file, bad.position, bad.detail);
  // Provenance is not scored: a run file without a source is as good as one with.
  const run = validateRun({ source: { kind: 'import' }, ...read.run, mediaKey: 'eval' });
  if (!run.ok) throw new InputError(file, undefined, run.detail);
  if (run.rejected.length > 0) {
    const r = run.rejected.at(0);
    throw new InputError(
      file,
      undefined,
      `track "${r.trackId}"${r.frame === null ? '' : ` frame ${r.frame}`}: ${r.reason}`,
    );
  }
  return { file, boxes: run.boxes, ...(run.meta.media ? { media: run.meta.media } : {}) };
}

export function runFiles(
  format: 'cvat-video' | 'sightline',
  gtFile: string,
  predFile: string,
): { sequence: SequenceInput; classNames: string[] } {
  return runSequence(path.basename(gtFile, path.extname(gtFile)), readRun(format, gtFile), readRun(format, predFile));
}
