// Shared bench plumbing: medians, tables, and a bare Fastify baseline measured in the same run.

export interface Row {
  [column: string]: string | number;
}
export interface Suite {
  /** What `npm run bench <name>` selects. */
  name: string;
  /** The heading of the suite's table in docs/benchmarks.md. */
  title: string;
  /** What the workload is and what each ratio or target is measured against, written above the table. */
  baseline: string;
  run(): Promise<Row[]>;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export async function timeIt(fn: () => Promise<unknown> | unknown): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export const fmt = (n: number, digits = 1): string => n.toFixed(digits);
export const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}×`;

/** The rows as a Markdown table, one column per key that any row has; empty when there are no rows. */
export function markdownTable(rows: Row[]): string {
  if (rows.length === 0) return '';
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (r: Row, c: string) => String(r[c] ?? '').replace(/\|/g, '\\|');
  const width = columns.map((c) => Math.max(3, c.length, ...rows.map((r) => cell(r, c).length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(width[i]!)).join(' | ')} |`;
  return [
    line(columns),
    line(width.map((w) => '-'.repeat(w))),
    ...rows.map((r) => line(columns.map((c) => cell(r, c)))),
  ].join('\n');
}

export function printTable(title: string, rows: Row[]): void {
  if (rows.length === 0) return;
  console.log(`\n### ${title}\n`);
  console.log(markdownTable(rows));
}
