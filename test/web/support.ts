// Browser-test plumbing: the editor built into a temporary folder, Debian's Chromium driven by
// playwright-core (never a downloaded browser), and a server seeded with the demo recording and runs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { upsertRun } from '../../src/detections/queries.js';
import { validateRun } from '../../src/detections/validate-run.js';
import type { DialectName } from '../../src/db/store.js';
import { DEMO_MEDIA, demoRuns } from '../../src/cli/demo-data.js';
import { postJson, seedOrg, startTestServer, type SeededOrg, type TestServer } from '../support/server.js';

import { CHROMIUM } from './chromium.js';

export { CHROMIUM, HAS_CHROMIUM, NO_CHROMIUM_MESSAGE } from './chromium.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
let built: Promise<string> | undefined;

/** Builds the editor once per test file into a temporary folder (so a stale dist/ is never what is tested). */
export function buildEditor(): Promise<string> {
  built ??= (async () => {
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-web-'));
    const { build } = await import('vite');
    await build({
      configFile: path.join(root, 'vite.config.ts'),
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true },
    });
    return outDir;
  })();
  return built;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const PASSWORD = 'correct horse battery';

export interface EditorFixture {
  server: TestServer;
  org: SeededOrg;
  mediaKey: string;
  username: (role: string) => string;
}

/** A server serving the freshly built editor, with one organisation holding the demo recording and its two runs. */
export async function startEditorServer(
  dialect: DialectName,
  env: Record<string, string> = {},
): Promise<EditorFixture> {
  const webDir = await buildEditor();
  const server = await startTestServer(dialect, { SIGHTLINE_WEB_DIR: webDir, ...env });
  const org = await seedOrg(server.store, { ...DEMO_MEDIA, durationMs: 10_000, deviceKey: 'cam1' });
  const mediaKey = org.recording.mediaKey;
  for (const body of demoRuns(mediaKey)) {
    const run = validateRun(body);
    if (!run.ok) throw new Error(run.detail);
    await upsertRun(server.store, org.orgId, org.recording, run);
  }
  const suffix = org.name.slice('org-'.length);
  return { server, org, mediaKey, username: (role) => `${role}-${suffix}` };
}

/**
 * A page of its own (a new context, 1400×900) signed in as `role` of the fixture's organisation: the session is put
 * where the editor keeps it, so the page opens signed in. Actions wait at most `timeoutMs` (5 s unless given);
 * `context` adds options of the browser context (acceptDownloads, …).
 */
export async function signedInPage(
  fx: EditorFixture,
  browser: Browser,
  role: string,
  { context: contextOptions = {}, timeoutMs = 5000 }: { context?: BrowserContextOptions; timeoutMs?: number } = {},
): Promise<Page> {
  const login = await postJson(`${fx.server.url}/login`, { username: fx.username(role), password: PASSWORD });
  if (login.status !== 200) throw new Error(`login as ${role} answered ${login.status}`);
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, ...contextOptions });
  await context.addInitScript(
    (session) => sessionStorage.setItem('sightline.session', session),
    JSON.stringify(login.body.data),
  );
  const page = await context.newPage();
  page.setDefaultTimeout(timeoutMs);
  return page;
}

/** Sets a range input as a user's drag would: the value, then an input event. */
export async function setRange(page: Page, selector: string, value: number): Promise<void> {
  await page.locator(selector).evaluate((el, v) => {
    const input = el as HTMLInputElement;
    input.value = String(v);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, value);
}
