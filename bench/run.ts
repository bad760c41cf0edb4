import { printTable } from './harness.js';
import { machine, RESULTS_FILE, writeSuiteResults } from './results.js';
import { suites } from './suites.js';

const wanted = process.argv.slice(2);
console.log(`# Sightline benchmarks\n\nmachine: ${machine()}, ${new Date().toISOString()}`);
for (const load of suites) {
  const suite = await load();
  if (wanted.length > 0 && !wanted.includes(suite.name)) continue;
  const rows = await suite.run();
  printTable(suite.title, rows);
  // After each suite, so that a later suite's failure keeps what was measured.
  writeSuiteResults(suite, rows);
  console.log(`\n(${suite.name}: written to ${RESULTS_FILE})`);
}
process.exit(0);
