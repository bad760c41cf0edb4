// src/client/api.ts is generated from the OpenAPI document (npm run client:types) and committed, so that a change
// of the API shows in review as a change of the client's types. This fails when the two have drifted apart.
import fs from 'node:fs';
import { expect, test } from 'vitest';
import { CLIENT_TYPES_FILE, clientTypes, openApiDocument } from '../../scripts/client-types.js';

test('the committed client types are what the OpenAPI document generates now (else: npm run client:types)', async () => {
  const generated = await clientTypes(await openApiDocument());
  expect(generated).toContain('"/detections/{runId}"');
  // A diff of the first lines that differ says what changed; the whole 200 KB would drown it.
  const committed = fs.readFileSync(CLIENT_TYPES_FILE, 'utf8').split('\n');
  const firstDifference = generated.split('\n').findIndex((line, i) => line !== committed[i]);
  expect(
    firstDifference === -1 && committed.length === generated.split('\n').length,
    `src/client/api.ts differs from the document from line ${firstDifference + 1}: run npm run client:types`,
  ).toBe(true);
}, 60_000);
