// `npm run demo`: the server on the embedded store, with a demo organisation, user, token, recording
// and two detection runs created on first start. The credentials are kept in <data>/demo-credentials.json
// (mode 0600) so that later starts can print them again: the database only holds their hashes.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createAccessToken, createOrganisation, createUser, findOrganisationByName } from '../../auth/queries.js';
import { upsertRun } from '../../detections/queries.js';
import { validateRun } from '../../detections/validate-run.js';
import type { Store } from '../../db/store.js';
import { closeOnSignals, startServer } from '../../http/server.js';
import { insertRecording } from '../../recordings/queries.js';
import type { CommandTable } from '../command.js';
import type { Config } from '../../config.js';
import { DEMO_MEDIA, DEMO_MEDIA_KEY, demoRuns } from '../demo-data.js';
import { KEY_FILE, signingKeys } from '../../storage/signing-keys.js';
import { DEMO_STORAGE_ACCOUNT, demoStorageLines, seedDemoStorage } from '../../storage/demo.js';
import { ensureDirectory } from '../../util/ensure-directory.js';

export interface DemoCredentials {
  organisation: string;
  username: string;
  password: string;
  token: string;
  mediaKey: string;
  [more: string]: unknown;
}

/** The demo organisation, user, token, recording, runs and storage; exported for the test of the API examples. */
export async function seedDemo(store: Store, config: Config): Promise<DemoCredentials> {
  const db = store.db;
  const org = await createOrganisation(db, 'demo', 3650);
  const password = randomBytes(9).toString('base64url');
  await createUser(db, org.id, 'demo', password, 'owner');
  const token = await createAccessToken(db, org.id, 'demo producer', null);
  const start = Math.floor(Date.now() / 1000);
  const mediaKey = DEMO_MEDIA_KEY;
  const recording = await insertRecording(db, org.id, {
    mediaKey,
    startTimestamp: start,
    deviceKey: 'cam1',
    ...DEMO_MEDIA,
    durationMs: 10_000,
  });
  for (const body of demoRuns(mediaKey)) {
    const run = validateRun(body);
    if (!run.ok) throw new Error(`demo run is invalid: ${run.detail}`);
    await upsertRun(store, org.id, recording, run);
  }
  const credentials: DemoCredentials = {
    organisation: 'demo',
    username: 'demo',
    password,
    token: token.token,
    mediaKey,
  };
  // The storage domain's part: a provider holding the recording's files, and an account that signs them.
  Object.assign(credentials, await seedDemoStorage(store, config, credentials));
  return credentials;
}

export const demoCommands: CommandTable = {
  demo: {
    usage: 'demo [--port 8080] [--data ./data] [--log-level warn]   (or LOG_LEVEL; the demo logs at warn unless told)',
    // A readable console: the quick reference is not buried under a line per request.
    defaultLogLevel: 'warn',
    async run({ config, io }) {
      // The editor signs the demo recording's video through the demo's storage account.
      if (config.editor.storageAccounts.length === 0) config.editor.storageAccounts = [DEMO_STORAGE_ACCOUNT];
      // The demo's fs provider needs a signing key on every start: one of its own unless one is configured (a first
      // start given STORAGE_URL_SIGNING_KEY and a later one without must both work).
      if (signingKeys(config).length === 0) {
        ensureDirectory(config.dataDir);
        fs.writeFileSync(path.join(config.dataDir, KEY_FILE), randomBytes(32).toString('base64url'), { mode: 0o600 });
      }
      const server = await startServer(config);
      closeOnSignals(server, config.shutdownGraceMs);
      const file = path.join(config.dataDir, 'demo-credentials.json');
      let credentials: DemoCredentials;
      if (!(await findOrganisationByName(server.store.db, 'demo'))) {
        credentials = await seedDemo(server.store, config);
        fs.writeFileSync(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
      } else if (fs.existsSync(file)) {
        credentials = JSON.parse(fs.readFileSync(file, 'utf8')) as DemoCredentials;
      } else {
        throw new Error(
          `the demo organisation exists in ${config.dataDir} but ${file} is gone; remove the data folder to start over`,
        );
      }
      const url = server.url;
      const lines = [
        '',
        `Sightline demo running at ${url}  (${config.databaseUrl ? 'PostgreSQL from DATABASE_URL, files' : 'embedded store'} in ${config.dataDir}; Ctrl-C stops it)`,
        '',
        `  editor:    ${url}/`,
        `  API docs:  ${url}/docs`,
        `  sign in:   username ${credentials.username}   password ${credentials.password}`,
        `  token:     ${credentials.token}`,
        `  recording: ${credentials.mediaKey}`,
        '',
        "Paste into a shell for the README's curl walkthrough:",
        `  BASE=${url} MEDIA=${credentials.mediaKey} PASSWORD=${credentials.password}`,
        ...(typeof credentials.storageAccessKey === 'string'
          ? [
              `  STORAGE_KEY=${credentials.storageAccessKey} STORAGE_SECRET=${String(credentials.storageSecretAccessKey)}`,
            ]
          : []),
        '',
        'Try:',
        `  curl -s ${url}/login -H 'Content-Type: application/json' -d '{"username":"${credentials.username}","password":"${credentials.password}"}'`,
        `  curl -s '${url}/detections?mediaKey=${encodeURIComponent(credentials.mediaKey)}' -H 'Authorization: Bearer ${credentials.token}'`,
        ...demoStorageLines(url, credentials),
        '',
      ];
      io.stdout.write(lines.join('\n'));
      return new Promise<number>(() => {});
    },
  },
};
