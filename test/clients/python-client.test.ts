// The Python client (clients/python) against a real server on both dialects: its unittest suite runs in a child
// process with the server's URL and seeded credentials in its environment, and must pass with no test skipped.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { createUser } from '../../src/auth/queries.js';
import { storageTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { STORAGE_ENV, writeObject } from '../storage/helpers.js';

const CLIENT_DIR = fileURLToPath(new URL('../../clients/python/', import.meta.url));

// EVALUATION_SYNC_MS=0: every evaluation answers 202 at once, so the client's polling is what is tested.
const tests = storageTests({ env: { ...STORAGE_ENV, EVALUATION_SYNC_MS: '0' } });

/** Runs `python3 -m unittest discover` in the client's folder: exit code and everything it printed. */
function runUnittest(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-m', 'unittest', 'discover', '-s', 'tests', '-v'], {
      cwd: CLIENT_DIR,
      env: { ...process.env, PYTHONPATH: path.join(CLIENT_DIR, 'src'), PYTHONDONTWRITEBYTECODE: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe.each(DIALECTS)('the Python client on %s', (dialect) => {
  const it = tests[dialect];

  it('passes its unittest suite against the server', { timeout: 180_000 }, async ({ server, org, fx }) => {
    const username = `pipeline-${org.orgId}`;
    const password = 'correct horse battery staple';
    await createUser(server.store.db, org.orgId, username, password, 'editor');
    writeObject(fx.root, 'alice/clip.mp4', 'clip bytes');
    const { code, output } = await runUnittest({
      SIGHTLINE_TEST_URL: server.url,
      SIGHTLINE_TEST_TOKEN: org.token,
      SIGHTLINE_TEST_USERNAME: username,
      SIGHTLINE_TEST_PASSWORD: password,
      SIGHTLINE_TEST_MEDIA_KEY: org.recording.mediaKey,
      SIGHTLINE_TEST_STORAGE_ACCESS_KEY: fx.account.accessKey,
      SIGHTLINE_TEST_STORAGE_SECRET: fx.account.secretAccessKey,
    });
    expect(code, output).toBe(0);
    // A suite that skipped its server tests would pass without having tested anything here.
    expect(output, output).not.toMatch(/skipped/);
    expect(output, output).toMatch(/^Ran \d+ tests/m);
  });
});
