// docs/benchmarks.md: one current table per suite. A run rewrites the sections of the suites it ran and keeps the
// others, so `npm run bench storage` leaves the detections table as it was. No history: the git log has it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { markdownTable, type Row, type Suite } from './harness.js';

export const RESULTS_FILE = path.resolve(import.meta.dirname, '..', 'docs', 'benchmarks.md');

const INTRO = `# Benchmarks

Written by \`npm run bench\` (\`bench/run.ts\`): each run rewrites the tables of the suites it ran and keeps the
others. \`npm run bench <suite>\` runs one suite (\`detections\`, \`editor\`, \`storage\`, \`recordings\`,
\`evaluation\`). Each table
says when and where it was measured and what its ratios are against; ratios compare with a baseline measured in
the same run, because shared machines are noisy.
`;

/** The machine as the tables name it: CPU model, cores, memory, Node version. */
export function machine(): string {
  const cpus = os.cpus();
  const model = (cpus[0]?.model ?? 'unknown CPU').replace(/\s+/g, ' ').trim();
  return `${cpus.length} × ${model}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

const start = (name: string) => `<!-- bench:${name} -->`;
const end = (name: string) => `<!-- /bench:${name} -->`;

export function section(suite: Pick<Suite, 'name' | 'title' | 'baseline'>, rows: Row[], when: Date, where: string) {
  const date = `${when.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return [
    start(suite.name),
    `## ${suite.title} (\`npm run bench ${suite.name}\`)`,
    '',
    `Measured ${date} on ${where}.`,
    '',
    suite.baseline,
    '',
    markdownTable(rows) || '_No rows._',
    end(suite.name),
  ].join('\n');
}

/** The file's text with the suite's section replaced, or added after the others when it had none. */
export function withSection(text: string, name: string, body: string): string {
  const from = text.indexOf(start(name));
  const to = text.indexOf(end(name));
  if (from >= 0 && to > from) return text.slice(0, from) + body + text.slice(to + end(name).length);
  return `${text.replace(/\s*$/, '')}\n\n${body}\n`;
}

export function writeSuiteResults(suite: Suite, rows: Row[], file = RESULTS_FILE, when = new Date()): void {
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : INTRO;
  fs.writeFileSync(file, withSection(text, suite.name, section(suite, rows, when, machine())));
}
