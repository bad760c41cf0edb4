// Browser tests' describe blocks: one per dialect, with an editor server and Chromium shared by their tests (kept
// apart from support.ts, which the editor benchmark imports outside the test runner).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { DialectName } from '../../src/db/store.js';
import { DIALECTS } from '../support/store.js';
import { HAS_CHROMIUM, NO_CHROMIUM_MESSAGE } from './chromium.js';
import { launchChromium, startEditorServer, type EditorFixture } from './support.js';

/** What the tests of a describeInChromium block share; fx and browser are there once its first beforeAll has run. */
export interface ChromiumSuite {
  dialect: DialectName;
  fx: EditorFixture;
  browser: Browser;
}

/**
 * A describe block per dialect (`title (sqlite)`, …) whose tests share an editor server (startEditorServer, with
 * `env`) and Chromium, started before them and closed after; without Debian's Chromium, one skipped test that says
 * how to get it. The body's own beforeAll hooks run after the suite's.
 */
export function describeInChromium(
  title: string,
  body: (suite: ChromiumSuite) => void,
  { dialects = DIALECTS, env = {} }: { dialects?: DialectName[]; env?: Record<string, string> } = {},
): void {
  if (!HAS_CHROMIUM) {
    describe(title, () => {
      it.skip(NO_CHROMIUM_MESSAGE, () => {});
    });
    return;
  }
  describe.each(dialects)(`${title} (%s)`, (dialect) => {
    const suite = { dialect } as ChromiumSuite;
    beforeAll(async () => {
      [suite.fx, suite.browser] = await Promise.all([startEditorServer(dialect, env), launchChromium()]);
    });
    afterAll(async () => {
      await suite.browser?.close();
      await suite.fx?.server.close();
    });
    body(suite);
  });
}
