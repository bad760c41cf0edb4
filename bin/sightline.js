#!/usr/bin/env node
// First, before the application's modules load (see src/runtime/tick-shape.ts for why).
import { pinTickObjectShape } from '../dist/runtime/tick-shape.js';

pinTickObjectShape();
const { main } = await import('../dist/cli/main.js');

main(process.argv.slice(2)).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (err) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
  },
);
