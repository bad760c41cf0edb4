/**
 * MOTChallenge text as the evaluator reads it: `frame,id,left,top,width,height[,conf,class,visibility,…]`, 1-based
 * frames. Columns 7–9 are kept as read (NaN when absent): in ground truth they are the consider flag, the class and
 * the visibility; in a results file the confidence and world coordinates, which the evaluator ignores.
 */
import { InputError } from './input-error.js';

export interface MotRows {
  file: string;
  /** Line number (1-based) of each row, for errors found later (a frame past `seqLength`). */
  lines: number[];
  /** 1-based frame of each row. */
  frames: number[];
  ids: number[];
  /** `[left, top, width, height]` per row. */
  boxes: number[];
  conf: number[];
  classes: number[];
  visibility: number[];
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

export function parseMotText(text: string, file: string): MotRows {
  const rows: MotRows = { file, lines: [], frames: [], ids: [], boxes: [], conf: [], classes: [], visibility: [] };
  // TrackEval keys rows by (frame, id): an id twice in one frame is an error there, and here it names both lines.
  const seen = new Map<string, number>();
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!.trim();
    if (line === '') continue;
    const at = n + 1;
    const cells = line.split(',').map((c) => c.trim());
    if (cells.length < 6) throw new InputError(file, at, 'expected at least 6 comma-separated numbers');
    const values: number[] = [];
    for (let c = 0; c < Math.min(cells.length, 9); c++) {
      if (!NUMBER.test(cells[c]!)) throw new InputError(file, at, `column ${c + 1} is not a number: "${cells[c]}"`);
      values.push(Number(cells[c]));
    }
    const [frame, id] = values as [number, number];
    if (!Number.isInteger(frame) || frame < 1)
      throw new InputError(file, at, `frame must be an integer from 1, got ${cells[0]}`);
    if (!Number.isSafeInteger(id)) throw new InputError(file, at, `id must be an integer, got ${cells[1]}`);
    const key = `${frame},${id}`;
    const first = seen.get(key);
    if (first !== undefined)
      throw new InputError(file, at, `id ${id} appears twice in frame ${frame} (also line ${first})`);
    seen.set(key, at);
    rows.lines.push(at);
    rows.frames.push(frame);
    rows.ids.push(id);
    rows.boxes.push(values[2]!, values[3]!, values[4]!, values[5]!);
    rows.conf.push(values[6] ?? Number.NaN);
    rows.classes.push(values[7] ?? Number.NaN);
    rows.visibility.push(values[8] ?? Number.NaN);
  }
  return rows;
}

/** The largest frame of the rows (0 when there are none). */
export function lastFrame(rows: MotRows): number {
  let last = 0;
  for (const f of rows.frames) if (f > last) last = f;
  return last;
}
