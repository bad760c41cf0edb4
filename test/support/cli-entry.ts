// As bin/sightline.js, from the sources: the tick object is pinned before the application's modules load.
import { pinTickObjectShape } from '../../src/runtime/tick-shape.js';

pinTickObjectShape();
const { main } = await import('../../src/cli/main.js');

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
