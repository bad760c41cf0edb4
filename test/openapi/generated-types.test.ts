// The check client generators rely on: types generated from /docs/json by openapi-typescript type the body of
// POST /detections, so that a wrong body does not compile (probe/post-detections.ts) and a right one does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { expect } from 'vitest';
import { serverTest } from '../support/fixtures.js';

const PROBE = path.join(import.meta.dirname, 'probe', 'post-detections.ts');

/** The diagnostics of compiling the probe under --strict beside `types`. */
function compileProbe(types: string): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-probe-'));
  try {
    fs.writeFileSync(path.join(dir, 'openapi.d.ts'), types);
    fs.copyFileSync(PROBE, path.join(dir, 'probe.ts'));
    const program = ts.createProgram([path.join(dir, 'probe.ts')], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: true,
    });
    return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const it = serverTest('sqlite');

it('types generated from the document reject wrong POST /detections bodies and take a right one', async ({
  server,
}) => {
  const doc = await (await fetch(`${server.url}/docs/json`)).json();
  const types = astToString(await openapiTS(doc));
  // Every @ts-expect-error of the probe is used (a wrong body that compiled would be "Unused '@ts-expect-error'").
  expect(compileProbe(types)).toEqual([]);
  // The check can fail: with the body typed as unknown, as a required-only anyOf made it, the probe does not compile.
  const untyped = types.replace(/DetectionRunRequest: \{/, 'DetectionRunRequest: unknown; _was: {');
  expect(untyped).not.toBe(types);
  expect(compileProbe(untyped).join('\n')).toMatch(/Unused '@ts-expect-error' directive/);
}, 90_000); // two TypeScript programs: seconds each on a busy machine
