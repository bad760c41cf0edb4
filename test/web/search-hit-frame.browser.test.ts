// A region-search hit opens the recording in the editor at the first frame that matched, in Debian's Chromium.
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { bearer, postJson } from '../support/server.js';
import { signedInPage } from './support.js';
import { describeInChromium } from './chromium-suite.js';

// The demo's 640×360 recording has nothing in its top-left corner: a kite appears there from frame 37 on.
const KITE_RUN = 'kite-run';
const box = (frame: number, x: number, y: number) => ({ frame, x, y, w: 0.03, h: 0.04 });

describeInChromium('region-search hits in Chromium', (suite) => {
  beforeAll(async () => {
    const res = await postJson(
      `${suite.fx.server.url}/detections`,
      {
        mediaKey: suite.fx.mediaKey,
        schemaVersion: '1.0',
        coordinateSpace: 'normalized',
        source: { kind: 'model', name: 'kites', runId: KITE_RUN },
        tracks: [
          // In the middle of the frame first, in the corner from frame 37.
          { id: 'k1', label: 'kite', boxes: [box(0, 0.5, 0.5), box(37, 0.01, 0.02), box(60, 0.01, 0.02)] },
          { id: 'k2', label: 'kite', boxes: [box(80, 0.02, 0.02)] },
        ],
      },
      bearer(suite.fx.org.token),
    );
    expect(res.status).toBe(201);
  });

  async function searchPage(): Promise<Page> {
    const page = await signedInPage(suite.fx, suite.browser, 'viewer');
    await page.goto(`${suite.fx.server.url}/#/search`);
    await page.getByRole('textbox', { name: 'Region: x, y, width, height (px)' }).fill('2, 2, 40, 40');
    await page.getByRole('button', { name: 'Search' }).click();
    return page;
  }

  it('a click on a hit opens the editor at the first matching frame', async () => {
    const page = await searchPage();
    const hit = page.locator(`tr.result-row[data-media-key="${suite.fx.mediaKey}"]`);
    await hit.waitFor();
    expect(await hit.locator('.match').allTextContents()).toEqual([`kite × 3 (${KITE_RUN}) from frame 37`]);
    // A click on the row (not on one of its links) opens the recording at the hit's first frame.
    await hit.locator('td').nth(2).click();
    await page.waitForFunction(() => window.__sightline?.frame === 37 && window.__sightline.drawn > 0);
    expect(await page.evaluate(() => location.hash)).toBe(
      `#/recording/${encodeURIComponent(suite.fx.mediaKey)}?frame=37`,
    );
    await expect.poll(() => page.locator('.frame-readout').textContent()).toMatch(/^Frame 37 \//);
    await page.context().close();
  });

  it("a match's frame link and the recording's link open at that frame", async () => {
    const page = await searchPage();
    const hit = page.locator(`tr.result-row[data-media-key="${suite.fx.mediaKey}"]`);
    await hit.waitFor();
    expect(await hit.locator('td').first().locator('a').getAttribute('href')).toBe(
      `#/recording/${encodeURIComponent(suite.fx.mediaKey)}?frame=37`,
    );
    await hit.locator('a.match-frame').click();
    await page.waitForFunction(() => window.__sightline?.frame === 37 && window.__sightline.drawn > 0);
    await page.context().close();
  });
});
