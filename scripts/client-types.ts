// The client's types (src/client/api.ts), generated with openapi-typescript from the OpenAPI document the app builds
// in this process: no server, no network, and no setting of the machine it runs on. `npm run client:types` writes
// the file; test/client/types-drift.test.ts fails when the committed file differs from what this generates now.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { COMMENT_HEADER, astToString, type OpenAPI3 } from 'openapi-typescript';
import { loadConfig } from '../src/config.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { openStore } from '../src/db/store.js';
import { buildApp } from '../src/http/app.js';

export const CLIENT_TYPES_FILE = fileURLToPath(new URL('../src/client/api.ts', import.meta.url));

/** The document /docs/json serves, from an app over an empty store with the default settings. */
export async function openApiDocument(): Promise<OpenAPI3> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-openapi-'));
  const store = openStore({ dataDir });
  try {
    // Registering the routes reads the store (the storage plugin looks for fs providers), so it has its tables.
    await migrateToLatest(store);
    const app = await buildApp({ config: loadConfig({ data: dataDir }, {}), store, logger: false });
    await app.ready();
    const document = app.swagger() as OpenAPI3;
    await app.close();
    return document;
  } finally {
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The text of src/client/api.ts for `document`. */
export async function clientTypes(document: OpenAPI3): Promise<string> {
  const ast = await openapiTS(document, { silent: true });
  return `${COMMENT_HEADER}${astToString(ast)}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  fs.writeFileSync(CLIENT_TYPES_FILE, await clientTypes(await openApiDocument()));
  console.log(`wrote ${path.relative(process.cwd(), CLIENT_TYPES_FILE)}`);
}
