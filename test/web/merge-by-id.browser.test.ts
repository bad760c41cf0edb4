// Merging tracks by a typed id in the editor (Debian's Chromium): an unknown id, the selected track's own id and a
// track with boxes on the same frames are refused with a message saying why; a fitting id merges, and Save sends it.
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { bearer, getJson } from '../support/server.js';
import { signedInPage } from './support.js';
import { describeInChromium } from './chromium-suite.js';

const DETECTOR = 'demo-detector-1';

describeInChromium('merge by typed id in Chromium', (suite) => {
  async function openDemo(): Promise<Page> {
    const page = await signedInPage(suite.fx, suite.browser, 'editor');
    await page.goto(`${suite.fx.server.url}/#/recording/${encodeURIComponent(suite.fx.mediaKey)}?frame=120`);
    await page.waitForFunction(() => window.__sightline?.frame === 120 && window.__sightline.drawn > 0);
    return page;
  }

  /** Clicks a point given in the overlay canvas's own pixels (640×360). */
  async function clickAt(page: Page, x: number, y: number) {
    await page.evaluate(() => scrollTo(0, 0));
    const box = (await page.locator('canvas.overlay').boundingBox())!;
    await page.mouse.click(box.x + (x / 640) * box.width, box.y + (y / 360) * box.height);
  }

  async function tryMerge(page: Page, id: string): Promise<string | null> {
    await page.getByRole('textbox', { name: 'Id of the track to merge into this one' }).fill(id);
    await page.getByRole('button', { name: 'Merge into this track' }).click();
    const alert = page.locator('.merge-problem');
    return (await alert.count()) > 0 ? alert.textContent() : null;
  }

  it('refuses an unknown id, the same track and overlapping frames with a message; merges a fitting one', async () => {
    const page = await openDemo();
    // The detector's dog at frame 120 (x1 316, y1 279, 50×40); its track d1 runs over frames 100–249.
    await clickAt(page, 340, 299);
    await expect.poll(() => page.locator('.inspect dd[data-field="track"]').textContent()).toBe('d1');
    const field = page.getByRole('textbox', { name: 'Id of the track to merge into this one' });

    expect(await tryMerge(page, 'nope')).toBe('This layer has no track nope.');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await tryMerge(page, 'd1')).toBe('Track d1 is the selected track: type the id of another track.');
    // The car c1 runs over frames 30–200: both have boxes on 100–200.
    expect(await tryMerge(page, 'c1')).toBe(
      'Tracks d1 and c1 both have a box on 101 frames (100–200): delete those frames from one of them first.',
    );
    // Typing again clears the message; nothing was changed so far.
    await field.fill('c');
    expect(await page.locator('.merge-problem').count()).toBe(0);
    expect(await page.locator(`.layer[data-run-id="${DETECTOR}"].edited`).count()).toBe(0);

    // Split d1 at frame 120, then merge the first part back into the second by its id.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('s');
    await clickAt(page, 340, 299);
    await expect.poll(() => page.locator('.inspect dd[data-field="track"]').textContent()).toBe('d1-split-1');
    expect(await tryMerge(page, ' d1 ')).toBeNull();
    await expect.poll(() => page.locator('.message').textContent()).toContain('Merged track d1 into d1-split-1.');
    expect(await field.inputValue()).toBe('');

    await page.locator(`.layer[data-run-id="${DETECTOR}"] button.save-replace`).click();
    await page.locator(`.layer[data-run-id="${DETECTOR}"]:not(.edited)`).waitFor();
    const run = (
      await getJson(
        `${suite.fx.server.url}/detections/${DETECTOR}?mediaKey=${encodeURIComponent(suite.fx.mediaKey)}`,
        bearer(suite.fx.org.token),
      )
    ).body.data as { tracks: Array<{ id: string; boxes: Array<{ frame: number }> }> };
    expect(run.tracks.find((t) => t.id === 'd1')).toBeUndefined();
    expect(run.tracks.find((t) => t.id === 'd1-split-1')!.boxes.map((b) => b.frame)).toEqual(
      Array.from({ length: 150 }, (_, i) => 100 + i),
    );
    await page.context().close();
  });
});
