/**
 * The evaluator's readable output: one row per sequence, then COMBINED, then (with several classes) one row per
 * class and the class average. The headline figures only, so that a row fits a wide terminal; `--json` has them all.
 * Fractions print with four decimals, counts as integers, −1 (no such area) as a dash.
 */
import type { EvaluationResult } from './evaluate.js';
import type { Fields } from './fields.js';

const COLUMNS: Record<string, readonly string[]> = {
  hota: ['HOTA', 'DetA', 'AssA', 'LocA'],
  clear: ['MOTA', 'MOTP', 'MT', 'ML', 'CLR_FP', 'CLR_FN', 'IDSW', 'Frag'],
  identity: ['IDF1', 'IDR', 'IDP'],
  count: ['IDs', 'GT_IDs'],
  coco: ['AP', 'AP50', 'AP75', 'APs', 'APm', 'APl', 'AR1', 'AR10', 'AR100', 'ARs', 'ARm', 'ARl'],
};
const INTEGERS = new Set(['MT', 'ML', 'CLR_FN', 'CLR_FP', 'IDSW', 'Frag', 'IDs', 'GT_IDs']);

function cell(field: string, value: Fields[string] | undefined): string {
  if (typeof value !== 'number') return '';
  if (INTEGERS.has(field)) return String(value);
  if (value === -1 && COLUMNS.coco!.includes(field)) return '-';
  return Number.isNaN(value) ? 'nan' : value.toFixed(4);
}

export function resultTable(result: EvaluationResult, metrics: readonly string[]): string {
  const columns = metrics.flatMap((m) => COLUMNS[m] ?? []);
  const rows: string[][] = [];
  const row = (name: string, fields: Fields) => rows.push([name, ...columns.map((c) => cell(c, fields[c]))]);
  for (const s of result.sequences) row(s.name, s.combined);
  row('COMBINED', result.combined);
  const classes = Object.keys(result.classes);
  if (classes.length > 1) {
    rows.push([]);
    for (const c of classes) row(`class ${c}`, result.classes[c]!);
    row('CLASS AVERAGED', result.classAveraged);
  }
  const header = ['sequence', ...columns];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map((r) => (r.length === 0 ? '' : line(r)))].join('\n');
}
