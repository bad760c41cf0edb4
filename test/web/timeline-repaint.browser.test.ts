// The timeline repaints only the rows an edit changed: its pixels after an edit must equal a full repaint of the
// same tracks (forced by hiding and showing the layer, which changes the row count), in Debian's Chromium.
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signedInPage } from './support.js';
import { describeInChromium } from './chromium-suite.js';

const TRACKER = 'demo-tracker-1';

describeInChromium(
  'timeline repaint in Chromium',
  (suite) => {
    async function openDemo(): Promise<Page> {
      const page = await signedInPage(suite.fx, suite.browser, 'editor');
      await page.goto(`${suite.fx.server.url}/#/recording/${encodeURIComponent(suite.fx.mediaKey)}`);
      await page.locator(`.layer[data-run-id="${TRACKER}"]`).waitFor();
      await page.waitForFunction(() => window.__sightline?.frame === 0 && window.__sightline.drawn > 0);
      return page;
    }

    const pixels = (page: Page) =>
      page.evaluate(() => document.querySelector<HTMLCanvasElement>('canvas.timeline')!.toDataURL());

    /** Hides and shows the layer: the row count changes twice, so the timeline is painted whole. */
    async function repaintWhole(page: Page): Promise<void> {
      const visible = page.locator(`.layer[data-run-id="${TRACKER}"] input.layer-visible`);
      await visible.uncheck();
      await visible.check();
    }

    it('after deleting frames of one track and relabelling another, equals a whole repaint', async () => {
      const page = await openDemo();
      await page.locator(`.track-item[data-run-id="${TRACKER}"][data-track="t-car"]`).click();
      await page.locator('.track-tools').waitFor();
      const start = await page.evaluate(() => window.__sightline!.frame);
      // Back to frame 0 so that the playhead sits where the whole repaint will find it.
      await page.evaluate(() => window.__sightline!.seek(0));
      await page.waitForFunction(() => window.__sightline?.frame === 0);
      const before = await pixels(page);
      await page.locator('input.range-from').fill(String(start + 10));
      await page.locator('input.range-to').fill(String(start + 60));
      await page.locator('form.delete-range button').click();
      await expect.poll(() => pixels(page)).not.toBe(before);
      await page.locator('input.track-label').fill('lorry');
      await page.locator('form.relabel button').click();
      // The cut track's row shows a gap, and nothing else moved: the same pixels as painting every row again.
      const edited = await pixels(page);
      await repaintWhole(page);
      await page.waitForFunction(() => window.__sightline?.frame === 0);
      expect(await pixels(page)).toBe(edited);
      await page.context().close();
    });
  },
  // The repaint is the editor's own work: one dialect is enough.
  { dialects: ['sqlite'] },
);
