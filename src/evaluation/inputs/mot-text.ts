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

/** Characters a line of plain numbers is made of: digits, `+-.eE`, commas, spaces, tabs and `\r`. */
const PLAIN = /^[\d+\-.eE, \t\r]*$/;

/** What `trim` removes around a cell of a plain line. */
const isBlank = (code: number) => code === 32 || code === 9 || code === 13;

const values = new Float64Array(9);

function addRow(rows: MotRows, file: string, at: number, cells: string[]): void {
  if (cells.length < 6) throw new InputError(file, at, 'expected at least 6 comma-separated numbers');
  const read = Math.min(cells.length, 9);
  for (let c = 0; c < read; c++) {
    if (!NUMBER.test(cells[c]!)) throw new InputError(file, at, `column ${c + 1} is not a number: "${cells[c]}"`);
    values[c] = Number(cells[c]);
  }
  for (let c = read; c < 9; c++) values[c] = Number.NaN;
  const frame = values[0]!;
  const id = values[1]!;
  if (!Number.isInteger(frame) || frame < 1)
    throw new InputError(file, at, `frame must be an integer from 1, got ${cells[0]}`);
  if (!Number.isSafeInteger(id)) throw new InputError(file, at, `id must be an integer, got ${cells[1]}`);
  rows.lines.push(at);
  rows.frames.push(frame);
  rows.ids.push(id);
  rows.boxes.push(values[2]!, values[3]!, values[4]!, values[5]!);
  rows.conf.push(values[6]!);
  rows.classes.push(values[7]!);
  rows.visibility.push(values[8]!);
}

/**
 * TrackEval keys rows by (frame, id): an id twice in one frame is an error there. Throws for the earliest line
 * (in file order) that repeats an earlier line's frame and id, naming both lines.
 */
function checkDuplicates(rows: MotRows): void {
  const n = rows.frames.length;
  // Ids as dense indices, and the rows grouped by frame in file order (a counting sort): then one pass per frame.
  const dense = new Map<number, number>();
  const idIndex = new Int32Array(n);
  let maxFrame = 0;
  for (let k = 0; k < n; k++) {
    const id = rows.ids[k]!;
    let d = dense.get(id);
    if (d === undefined) {
      d = dense.size;
      dense.set(id, d);
    }
    idIndex[k] = d;
    if (rows.frames[k]! > maxFrame) maxFrame = rows.frames[k]!;
  }
  if (maxFrame > 4 * n + 1e6) {
    checkDuplicatesByKey(rows);
    return;
  }
  const start = new Int32Array(maxFrame + 2);
  for (let k = 0; k < n; k++) start[rows.frames[k]! + 1]!++;
  for (let f = 0; f <= maxFrame; f++) start[f + 1] = start[f + 1]! + start[f]!;
  const order = new Int32Array(n);
  const fill = start.slice();
  for (let k = 0; k < n; k++) order[fill[rows.frames[k]!]!++] = k;
  const lastFrame = new Int32Array(dense.size).fill(-1);
  const firstRow = new Int32Array(dense.size);
  let worst = -1;
  let worstFirst = -1;
  for (let f = 1; f <= maxFrame; f++) {
    for (let q = start[f]!; q < start[f + 1]!; q++) {
      const k = order[q]!;
      const d = idIndex[k]!;
      if (lastFrame[d] !== f) {
        lastFrame[d] = f;
        firstRow[d] = k;
      } else if (worst === -1 || k < worst) {
        worst = k;
        worstFirst = firstRow[d]!;
      }
    }
  }
  if (worst !== -1) throw duplicate(rows, worst, worstFirst);
}

/** The same check for frame numbers too sparse to index. */
function checkDuplicatesByKey(rows: MotRows): void {
  const seen = new Map<string, number>();
  for (let k = 0; k < rows.frames.length; k++) {
    const key = `${rows.frames[k]},${rows.ids[k]}`;
    const first = seen.get(key);
    if (first !== undefined) throw duplicate(rows, k, first);
    seen.set(key, k);
  }
}

function duplicate(rows: MotRows, k: number, first: number): InputError {
  const frame = rows.frames[k];
  return new InputError(
    rows.file,
    rows.lines[k],
    `id ${rows.ids[k]} appears twice in frame ${frame} (also line ${rows.lines[first]})`,
  );
}

const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * Reads a line of plain decimals (`-12.34`, at most 15 digits a cell) straight from its characters: an integer
 * below 2^53 divided by an exact power of ten is the correctly rounded decimal, so the values equal `Number(cell)`.
 * False (nothing added) for any other line, which the general path reads and, if need be, refuses.
 */
function fastRow(rows: MotRows, line: string, at: number): boolean {
  let c = 0;
  let k = 0;
  const n = line.length;
  for (;;) {
    while (k < n && isBlank(line.charCodeAt(k))) k++;
    if (c < 9) {
      let negative = false;
      if (line.charCodeAt(k) === 45) {
        negative = true;
        k++;
      }
      let digits = 0;
      let mantissa = 0;
      let scale = 0;
      let code = line.charCodeAt(k);
      if (!(code >= 48 && code <= 57)) return false;
      while (code >= 48 && code <= 57) {
        mantissa = mantissa * 10 + (code - 48);
        digits++;
        code = line.charCodeAt(++k);
      }
      if (code === 46) {
        code = line.charCodeAt(++k);
        while (code >= 48 && code <= 57) {
          mantissa = mantissa * 10 + (code - 48);
          digits++;
          scale++;
          code = line.charCodeAt(++k);
        }
      }
      if (digits > 15) return false;
      const v = mantissa / POW10[scale]!;
      values[c] = negative ? -v : v;
      while (k < n && isBlank(line.charCodeAt(k))) k++;
    } else {
      while (k < n && line.charCodeAt(k) !== 44) k++;
    }
    c++;
    if (k >= n) break;
    if (line.charCodeAt(k) !== 44) return false;
    k++;
  }
  if (c < 6) return false;
  for (let q = c; q < 9; q++) values[q] = Number.NaN;
  const frame = values[0]!;
  if (!Number.isInteger(frame) || frame < 1 || !Number.isSafeInteger(values[1]!)) return false;
  rows.lines.push(at);
  rows.frames.push(frame);
  rows.ids.push(values[1]!);
  rows.boxes.push(values[2]!, values[3]!, values[4]!, values[5]!);
  rows.conf.push(values[6]!);
  rows.classes.push(values[7]!);
  rows.visibility.push(values[8]!);
  return true;
}

export function parseMotText(text: string, file: string): MotRows {
  const rows: MotRows = { file, lines: [], frames: [], ids: [], boxes: [], conf: [], classes: [], visibility: [] };
  const cells: string[] = [];
  let n = 0;
  for (let from = 0; from <= text.length; n++) {
    let to = text.indexOf('\n', from);
    if (to === -1) to = text.length;
    const at = n + 1;
    cells.length = 0;
    const line = text.slice(from, to);
    from = to + 1;
    if (fastRow(rows, line, at)) continue;
    if (PLAIN.test(line)) {
      // The common case, read without splitting and trimming copies of the line; the same cells as below.
      let start = 0;
      for (let k = 0; k <= line.length; k++) {
        if (k < line.length && line.charCodeAt(k) !== 44) continue;
        let a = start;
        let b = k;
        while (a < b && isBlank(line.charCodeAt(a))) a++;
        while (b > a && isBlank(line.charCodeAt(b - 1))) b--;
        cells.push(line.slice(a, b));
        start = k + 1;
      }
      if (cells.length === 1 && cells[0] === '') continue;
    } else {
      const trimmed = line.trim();
      if (trimmed === '') continue;
      for (const c of trimmed.split(',')) cells.push(c.trim());
    }
    try {
      addRow(rows, file, at, cells);
    } catch (err) {
      // A repeated (frame, id) on an earlier line is the first error in file order.
      checkDuplicates(rows);
      throw err;
    }
  }
  checkDuplicates(rows);
  return rows;
}

/** The largest frame of the rows (0 when there are none). */
export function lastFrame(rows: MotRows): number {
  let last = 0;
  for (const f of rows.frames) if (f > last) last = f;
  return last;
}
