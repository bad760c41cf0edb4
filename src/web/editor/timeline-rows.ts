// Which timeline rows an edit changed, and the pixel bands they cover: the timeline repaints those bands only,
// so that an edit on a 5000-track layer does not paint (and rasterise) every row again. Pure, for Node tests.

export type Spans = ReadonlyArray<readonly [number, number]>;

/** What a row looks like when painted; two rows with equal fields paint the same pixels. */
export interface PaintedRow {
  spans: Spans;
  color: string;
  alpha: number;
  /** The name written on the row ('' when rows are too thin to carry one). */
  name: string;
}

export interface RowGeometry {
  /** The first row's top, in canvas pixels. */
  top: number;
  rowH: number;
  /** The painted height of a row (at least one pixel: thin rows overlap their neighbours). */
  barH: number;
}

export function rowGeometry(rows: number, top: number, height: number): RowGeometry {
  const rowH = height / Math.max(1, rows);
  return { top, rowH, barH: Math.max(1, rowH - (rowH > 3 ? 1 : 0)) };
}

function sameSpans(a: Spans, b: Spans): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]![0] !== b[i]![0] || a[i]![1] !== b[i]![1]) return false;
  return true;
}

/** Indexes of the rows that paint differently; undefined when the row count changed (every row moved). */
export function changedRows(before: readonly PaintedRow[], after: readonly PaintedRow[]): number[] | undefined {
  if (before.length !== after.length) return undefined;
  const out: number[] = [];
  for (let r = 0; r < after.length; r++) {
    const a = before[r]!;
    const b = after[r]!;
    if (a === b) continue;
    if (a.color !== b.color || a.alpha !== b.alpha || a.name !== b.name || !sameSpans(a.spans, b.spans)) out.push(r);
  }
  return out;
}

/**
 * The whole-pixel bands [from, to) that the given rows touch, merged where they meet. A band must be repainted
 * with every row that reaches into it, since thin rows share pixels.
 */
export function dirtyBands(rows: readonly number[], g: RowGeometry): Array<[number, number]> {
  const bands = rows
    .map((r): [number, number] => [Math.floor(g.top + r * g.rowH), Math.ceil(g.top + r * g.rowH + g.barH)])
    .sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const b of bands) {
    const last = out[out.length - 1];
    if (last && b[0] <= last[1]) last[1] = Math.max(last[1], b[1]);
    else out.push(b);
  }
  return out;
}

/** The rows [first, last] whose painted bar reaches into the pixel band [from, to). */
export function rowsInBand(from: number, to: number, rows: number, g: RowGeometry): [number, number] {
  const first = Math.max(0, Math.floor((from - g.top - g.barH) / g.rowH));
  const last = Math.min(rows - 1, Math.ceil((to - g.top) / g.rowH));
  return [first, last];
}
