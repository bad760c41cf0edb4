// An edit redraws only the part of the overlay it changed: after each edit the overlay's pixels must equal a
// whole redraw of the same frame (forced by turning the labels off and on), in Debian's Chromium.
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signedInPage } from './support.js';
import { describeInChromium } from './chromium-suite.js';

const TRACKER = 'demo-tracker-1';

describeInChromium(
  'partial overlay redraw in Chromium',
  (suite) => {
    const pixels = (page: Page) =>
      page.evaluate(() => document.querySelector<HTMLCanvasElement>('canvas.overlay')!.toDataURL());
    const partialDraws = (page: Page) => page.evaluate(() => window.__sightline!.partialDraws);

    /** The overlay after an edit, and the same frame drawn whole. */
    async function afterEdit(page: Page, key: string): Promise<[string, string]> {
      await page.keyboard.press(key);
      const edited = await pixels(page);
      await page.keyboard.press('t');
      await page.keyboard.press('t');
      return [edited, await pixels(page)];
    }

    it('nudges, a split, its undo and redo each leave the pixels of a whole redraw', async () => {
      const page = await signedInPage(suite.fx, suite.browser, 'editor');
      await page.goto(`${suite.fx.server.url}/#/recording/${encodeURIComponent(suite.fx.mediaKey)}`);
      await page.locator(`.layer[data-run-id="${TRACKER}"]`).waitFor();
      await page.waitForFunction(() => window.__sightline?.frame === 0 && window.__sightline.drawn > 0);
      await page.locator('input.goto-frame').fill('120');
      await page.locator('input.goto-frame').press('Enter');
      await page.waitForFunction(() => window.__sightline?.frame === 120);
      // The detector's dog at frame 120 (x1 316, y1 279, 50×40 in the 640×360 frame), with its trail.
      const box = (await page.locator('canvas.overlay').boundingBox())!;
      await page.mouse.click(box.x + (340 / 640) * box.width, box.y + (299 / 360) * box.height);
      await expect.poll(() => page.locator('.inspect dd[data-field="track"]').textContent()).toBe('d1');
      await page.mouse.move(box.x + 2, box.y + 2);
      const before = await pixels(page);
      const partial = await partialDraws(page);
      for (const key of ['Shift+ArrowRight', 'Shift+ArrowDown', 'ArrowLeft', 's', 'Control+z', 'Control+Shift+z']) {
        const [edited, whole] = await afterEdit(page, key);
        expect(edited, key).toBe(whole);
      }
      expect(await pixels(page)).not.toBe(before);
      // Every one of those edits was drawn in part (else this test would prove nothing).
      expect((await partialDraws(page)) - partial).toBe(6);
      await page.context().close();
    });
  },
  // The redraw is the editor's own work: one dialect is enough.
  { dialects: ['sqlite'] },
);
