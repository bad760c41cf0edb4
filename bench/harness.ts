// Shared bench plumbing: medians, tables, and a bare Fastify baseline measured in the same run.

export interface Row {
  [column: string]: string | number;
}
export interface Suite {
  name: string;
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

export function printTable(title: string, rows: Row[]): void {
  if (rows.length === 0) return;
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const width = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(width[i]!)).join(' | ')} |`;
  console.log(`\n### ${title}\n`);
  console.log(line(columns));
  console.log(`|${width.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(columns.map((c) => String(r[c] ?? ''))));
}
