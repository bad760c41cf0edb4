import os from 'node:os';
import { printTable } from './harness.js';
import { suites } from './suites.js';

const wanted = process.argv.slice(2);
console.log(
  `# Sightline benchmarks\n\nmachine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${new Date().toISOString()}`,
);
for (const load of suites) {
  const suite = await load();
  if (wanted.length > 0 && !wanted.includes(suite.name)) continue;
  const rows = await suite.run();
  printTable(suite.name, rows);
}
process.exit(0);
