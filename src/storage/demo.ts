// The demo's storage: a signing key in the data folder, an fs provider with the demo recording's asset files,
// and an account whose credentials the demo prints.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { demoPrinters, demoSeeders } from '../cli/commands/demo.js';
import { findOrganisationByName } from '../auth/queries.js';
import { createAccount, createProvider } from './admin.js';
import { KEY_FILE, signingKeys } from './signing-keys.js';

demoSeeders.push(async (store, config, credentials) => {
  if (signingKeys(config).length === 0) {
    fs.writeFileSync(path.join(config.dataDir, KEY_FILE), randomBytes(32).toString('base64url'), { mode: 0o600 });
  }
  const org = await findOrganisationByName(store.db, credentials.organisation);
  if (!org) return;
  const root = path.join(config.dataDir, 'storage-demo');
  await createProvider(store, config, org.id, { name: 'local', type: 'fs', config: { root } });
  const base = credentials.mediaKey.replace(/\.mp4$/, '');
  for (const name of [credentials.mediaKey, `${base}_thumbnail.jpg`, `${base}_sprite.jpg`, `${base}_redacted.mp4`]) {
    const file = path.join(root, ...name.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `demo placeholder for ${name}\n`);
  }
  const account = await createAccount(store, org.id, { name: 'demo-storage', defaultProvider: 'local', directories: ['demo'] });
  credentials.storageAccessKey = account.accessKey;
  credentials.storageSecretAccessKey = account.secretAccessKey;
});

demoPrinters.push((url, c) => {
  if (typeof c.storageAccessKey !== 'string') return [];
  const auth = `-H 'X-Service-Storage-AccessKey: ${c.storageAccessKey}' -H 'X-Service-Storage-SecretAccessKey: ${String(c.storageSecretAccessKey)}'`;
  const base = c.mediaKey.replace(/\.mp4$/, '');
  return [
    `  curl -s ${url}/api/storage ${auth} -H 'X-Service-Storage-FileName: ${c.mediaKey}' -H 'X-Service-Storage-Provider: local'`,
    `  curl -s ${url}/api/storage/bulk ${auth} -H 'Content-Type: application/json' -d '[{"filename":"${c.mediaKey}"},{"filename":"${base}_thumbnail.jpg","uriExpiryTime":"1h"}]'`,
  ];
});
