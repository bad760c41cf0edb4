// KITTI tracking labels: `frame track_id type truncated occluded alpha left top right bottom h w l x y z rotation_y
// [score]`, space-separated, 0-based frames, pixel corners. `DontCare` rows mark regions, not objects.
import { BOX_STRIDE } from '../detections/run-types.js';
import { exportView, frameOf, frameOrder, labelOf, columnOf } from './export-view.js';
import { exportFrameSize } from './frame-size.js';
import { invalidFile } from './format-error.js';
import { integerIds } from './id-numbering.js';
import { lineSplitter } from './lines.js';
import { idText, parseNumber } from './numbers.js';
import { RunBuilder } from './run-builder.js';
import { TextPieces } from './text-pieces.js';
import type { FormatReader, FormatWriter, ReadOptions } from './types.js';

export function kittiReader(options: ReadOptions = {}): FormatReader {
  const b = new RunBuilder('line');
  let rows = 0;
  const lines = lineSplitter((line, n) => {
    if (line.trim() === '') return;
    rows++;
    const f = line.trim().split(/\s+/);
    if (f.length < 17) {
      b.reject(`${f.length} fields; KITTI tracking rows have 17 (18 with a score)`, { line: n });
      return;
    }
    const type = f[2]!;
    if (type === 'DontCare') {
      b.skipped.notObjects++;
      return;
    }
    const id = idText(f[1]!);
    const frame = parseNumber(f[0]);
    if (!Number.isInteger(frame)) {
      b.reject(`frame "${f[0]}" is not an integer`, { line: n }, id);
      return;
    }
    const [l, t, r, btm] = [6, 7, 8, 9].map((k) => parseNumber(f[k]));
    if ([l, t, r, btm].some((v) => Number.isNaN(v))) {
      b.reject('left, top, right and bottom must be numbers', { line: n }, id, frame);
      return;
    }
    const score = f.length > 17 ? parseNumber(f[17]) : NaN;
    if (f.length > 17 && Number.isNaN(score)) {
      b.reject(`score "${f[17]}" is not a number`, { line: n }, id, frame);
      return;
    }
    b.box(id, frame, 'xyxy', l!, t!, r!, btm!, score, type, undefined, n);
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

/** Rows in frame order; the 3D fields KITTI's tools take as unknown (-1, -10, -1000) since a run has no 3D. */
export const kittiWriter: FormatWriter = function* (run, options = {}) {
  const v = exportView(run);
  const { width, height } = exportFrameSize(run.media, options.frameSize);
  const ids = integerIds(v.boxes.headers.map((h) => h.id));
  const c = v.boxes.columns;
  const out = new TextPieces();
  for (const i of frameOrder(v)) {
    const o = i * BOX_STRIDE;
    // KITTI's type is one word; spaces would shift every later field.
    const type = (labelOf(v, i) ?? 'Misc').replace(/\s+/g, '_');
    out.integer(frameOf(v, i)).char(32).integer(ids[v.trackOf[i]!]!).char(32).text(type).text(' -1 -1 -10 ');
    out.pixelCorners(c[o + 1]!, c[o + 2]!, c[o + 3]!, c[o + 4]!, width, height, 32);
    out.text(' -1 -1 -1 -1000 -1000 -1000 -10');
    const conf = columnOf(v, i, 5);
    if (!Number.isNaN(conf)) out.char(32).plain(conf);
    out.char(10);
    if (out.full) yield out.take();
  }
  if (!out.empty) yield out.take();
};
