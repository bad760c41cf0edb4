// The demo's storage (its signing key is the demo command's): the demo organisation's fs provider holding the demo
// recording and its thumbnail, sprite and redacted copy (real media from assets/demo, uploaded through the provider
// under the recording's derived names), and an account whose credentials the demo prints with a ready-to-paste bulk
// curl. The demo command calls these; storage knows nothing of the CLI.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import { findOrganisationByName } from '../auth/queries.js';
import { createAccount, createProvider } from './admin.js';
import { uploadFile } from './upload.js';

/** The storage account the demo seeds; the demo command points the editor (EDITOR_STORAGE_ACCOUNT) at it. */
export const DEMO_STORAGE_ACCOUNT = 'demo-storage';
const DEMO_PROVIDER = 'local';

/** What the storage seeding needs of the demo, and what it adds to the demo's saved credentials. */
export interface DemoStorageInput {
  organisation: string;
  mediaKey: string;
}
export interface DemoStorageCredentials {
  storageAccessKey: string;
  storageSecretAccessKey: string;
}

/** <package>/assets/demo, from src/storage (tsx) and dist/storage (built) alike. */
function assetsDir(): string {
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return path.join(dir, 'assets', 'demo');
    if (path.dirname(dir) === dir) throw new Error('the demo media (assets/demo) are missing from this installation');
  }
}

const derived = (mediaKey: string) => {
  const base = mediaKey.replace(/\.mp4$/, '');
  return [
    [mediaKey, 'sample.mp4'],
    [`${base}_thumbnail.jpg`, 'sample_thumbnail.jpg'],
    [`${base}_sprite.jpg`, 'sample_sprite.jpg'],
    [`${base}_redacted.mp4`, 'sample_redacted.mp4'],
  ] as const;
};

/** The demo organisation's fs provider, the demo recording's files on it, and an account that may sign them. */
export async function seedDemoStorage(
  store: Store,
  config: Config,
  credentials: DemoStorageInput,
): Promise<DemoStorageCredentials> {
  // The organisation's own, not service-wide: the editor signs only with an account of the recording's organisation.
  const org = await findOrganisationByName(store.db, credentials.organisation);
  if (!org) throw new Error(`the demo organisation "${credentials.organisation}" is missing`);
  await createProvider(store, config, org.id, {
    name: DEMO_PROVIDER,
    type: 'fs',
    config: { root: path.join(config.dataDir, 'storage-demo') },
  });
  for (const [key, file] of derived(credentials.mediaKey)) {
    await uploadFile(store, config, org.id, DEMO_PROVIDER, path.join(assetsDir(), file), key);
  }
  const account = await createAccount(store, org.id, {
    name: DEMO_STORAGE_ACCOUNT,
    defaultProvider: DEMO_PROVIDER,
    directories: ['demo'],
  });
  return { storageAccessKey: account.accessKey, storageSecretAccessKey: account.secretAccessKey };
}

/** The quick reference's storage lines: one signed URL, then the bulk of the recording's four files. */
export function demoStorageLines(url: string, c: DemoStorageInput & Partial<DemoStorageCredentials>): string[] {
  if (typeof c.storageAccessKey !== 'string') return [];
  const auth = `-H 'X-Service-Storage-AccessKey: ${c.storageAccessKey}' -H 'X-Service-Storage-SecretAccessKey: ${String(c.storageSecretAccessKey)}'`;
  const bulk = JSON.stringify(derived(c.mediaKey).map(([filename]) => ({ filename, uriExpiryTime: '1h' })));
  return [
    `  # one signed URL, then all four assets of the recording in one call (data is a JSON string: parse it again)`,
    `  curl -s ${url}/api/storage ${auth} -H 'X-Service-Storage-FileName: ${c.mediaKey}' -H 'X-Service-Storage-Provider: ${DEMO_PROVIDER}'`,
    `  curl -s ${url}/api/storage/bulk ${auth} -H 'Content-Type: application/json' -d '${bulk}'`,
  ];
}
