// The editor as a correction tool, in Debian's Chromium against a real server: a drawn box saved by one PATCH,
// a new label, keyframes and interpolation, split and merge, undo/redo, zoom then drag, the conflict dialog when
// someone else saved meanwhile, labels drawn on the boxes, and a revision restored from the layers panel.
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { bearer, getJson } from '../support/server.js';
import { signedInPage } from './support.js';
import { describeInChromium } from './chromium-suite.js';

const DETECTOR = 'demo-detector-1';
const TRACKER = 'demo-tracker-1';

interface SavedBox {
  frame: number;
  x: number;
  y: number;
  w: number;
  h: number;
  interpolated?: true;
}
interface SavedTrack {
  id: string;
  label?: string;
  boxes: SavedBox[];
}

describeInChromium('editor corrections in Chromium', (suite) => {
  const runUrl = (runId: string) =>
    `${suite.fx.server.url}/detections/${encodeURIComponent(runId)}?mediaKey=${encodeURIComponent(suite.fx.mediaKey)}`;
  async function getRun(runId: string) {
    const res = await getJson(runUrl(runId), bearer(suite.fx.org.token));
    expect(res.status).toBe(200);
    return res.body.data as { revision: number; tracks: SavedTrack[]; source: Record<string, unknown> };
  }
  const trackOf = (run: { tracks: SavedTrack[] }, id: string) => run.tracks.find((t) => t.id === id);

  async function openDemo(role = 'editor'): Promise<Page> {
    // A step that cannot happen fails on its own line (5 s), well within the test's time.
    const page = await signedInPage(suite.fx, suite.browser, role);
    await page.goto(`${suite.fx.server.url}/#/recording/${encodeURIComponent(suite.fx.mediaKey)}`);
    await page.locator(`.layer[data-run-id="${TRACKER}"]`).waitFor();
    await page.waitForFunction(() => window.__sightline?.frame === 0 && window.__sightline.drawn > 0);
    return page;
  }

  /** Page coordinates of a point in the overlay canvas's own pixels (640×360), zoomed or not. */
  async function at(page: Page, x: number, y: number): Promise<[number, number]> {
    // A control lower on the page (a Save button) may have scrolled the frame's top out of view.
    await page.evaluate(() => scrollTo(0, 0));
    const box = (await page.locator('canvas.overlay').boundingBox())!;
    return [box.x + (x / 640) * box.width, box.y + (y / 360) * box.height];
  }

  async function drag(page: Page, from: [number, number], to: [number, number]) {
    await page.mouse.move(...(await at(page, ...from)));
    await page.mouse.down();
    await page.mouse.move(...(await at(page, ...to)), { steps: 5 });
    await page.mouse.up();
  }

  /** Takes the focus off a field, so that the editor's keys reach it. */
  const blur = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

  async function goTo(page: Page, frame: number) {
    await page.locator('input.goto-frame').fill(String(frame));
    await page.locator('input.goto-frame').press('Enter');
    await page.waitForFunction((f) => window.__sightline?.frame === f, frame);
  }

  /** Saves a layer by its Save button and waits for the answer; returns the requests it made. */
  async function save(page: Page, runId: string): Promise<Array<{ method: string; url: string; body: unknown }>> {
    const sent: Array<{ method: string; url: string; body: unknown }> = [];
    const listen = (r: import('playwright-core').Request) => {
      if (r.method() !== 'GET' && new URL(r.url()).pathname.startsWith('/detections'))
        sent.push({ method: r.method(), url: r.url(), body: r.postDataJSON() });
    };
    page.on('request', listen);
    await page.locator(`.layer[data-run-id="${runId}"] button.save-replace`).click();
    await expect.poll(() => page.locator('.message').textContent()).toMatch(/^Saved|Not saved/);
    await page.locator(`.layer[data-run-id="${runId}"]:not(.edited)`).waitFor();
    page.off('request', listen);
    return sent;
  }

  it('draws a label tag (layer colour) just above its box, and the toggle takes it away', async () => {
    const page = await openDemo();
    // The detector's person at frame 0: x 40–100, y 150–300. Its tag sits just above y 150, from x 40; the
    // tracker's person starts at x 44, so x 41 belongs to the detector's tag only.
    const whites = (x0: number) =>
      page.evaluate((x) => {
        const c = document.querySelector<HTMLCanvasElement>('canvas.overlay')!;
        const d = c.getContext('2d')!.getImageData(x, 130, 30, 19).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4)
          if (d[i] === 255 && d[i + 1] === 255 && d[i + 2] === 255 && d[i + 3] === 255) n++;
        return n;
      }, x0);
    expect(await whites(40)).toBeGreaterThan(20);
    // Far from any box at the same height: nothing.
    expect(await whites(300)).toBe(0);
    await page.locator('input.show-labels').uncheck();
    expect(await whites(40)).toBe(0);
    await blur(page);
    await page.keyboard.press('t');
    expect(await whites(40)).toBeGreaterThan(20);
    await page.context().close();
  });

  it('the track list selects a track and seeks to its first frame', async () => {
    const car = trackOf(await getRun(TRACKER), 't-car')!;
    const first = car.boxes[0]!.frame;
    const page = await openDemo();
    const item = page.locator(`.track-item[data-run-id="${TRACKER}"][data-track="t-car"]`);
    expect(await item.textContent()).toBe(`car #t-car ${first}–${car.boxes.at(-1)!.frame}`);
    await item.click();
    await page.waitForFunction((f) => window.__sightline?.frame === f, first);
    await expect.poll(() => page.locator('.inspect dd[data-field="track"]').textContent()).toBe('t-car');
    expect(await item.getAttribute('class')).toContain('active');
    await page.locator('input.track-filter').fill('dog');
    expect(await page.locator('.track-item').count()).toBe(1);
    await page.context().close();
  });

  it('a box drawn with the New box tool is saved by one PATCH of that track only', async () => {
    const before = await getRun(DETECTOR);
    const page = await openDemo();
    await goTo(page, 5);
    await page.locator('input.new-label').fill('cyclist');
    await page.locator('button.tool-box').click();
    await drag(page, [300, 20], [364, 84]);
    await page.locator(`.layer[data-run-id="${DETECTOR}"].edited`).waitFor();
    const sent = await save(page, DETECTOR);
    expect(sent.map((r) => r.method)).toEqual(['PATCH']);
    const body = sent[0]!.body as { baseRevision: number; tracks: { upsert: SavedTrack[]; delete: string[] } };
    expect(body.baseRevision).toBe(before.revision);
    expect(body.tracks.delete).toEqual([]);
    expect(body.tracks.upsert.map((t) => t.id)).toEqual(['new-1']);

    const after = await getRun(DETECTOR);
    expect(after.revision).toBe(before.revision + 1);
    const added = trackOf(after, 'new-1')!;
    expect(added.label).toBe('cyclist');
    expect(added.boxes).toHaveLength(1);
    expect(added.boxes[0]!.frame).toBe(5);
    // A CSS pixel is a little more or less than a frame pixel: within one and a half.
    const near = (v: number, want: number) => expect(Math.abs(v - want)).toBeLessThan(1.5);
    near(added.boxes[0]!.x * 640, 300);
    near(added.boxes[0]!.y * 360, 20);
    near(added.boxes[0]!.w * 640, 64);
    near(added.boxes[0]!.h * 360, 64);
    // The model's tracks are untouched.
    for (const t of before.tracks) expect(trackOf(after, t.id)).toEqual(t);
    await page.context().close();
  });

  it("changes a track's label", async () => {
    const page = await openDemo();
    await page.mouse.click(...(await at(page, 42, 200))); // the detector's person only
    await expect.poll(() => page.locator('.inspect dd[data-field="track"]').textContent()).toBe('p1');
    await page.locator('input.track-label').fill('pedestrian');
    await page.locator('form.relabel button').click();
    const sent = await save(page, DETECTOR);
    expect(sent).toHaveLength(1);
    expect((sent[0]!.body as { tracks: { upsert: SavedTrack[] } }).tracks.upsert.map((t) => t.id)).toEqual(['p1']);
    expect(trackOf(await getRun(DETECTOR), 'p1')!.label).toBe('pedestrian');
    await page.context().close();
  });

  it('keyframes at frames 10 and 20: frame 15 is exactly their midpoint, saved as interpolated', async () => {
    const page = await openDemo();
    await page.locator('select.draw-into').selectOption(TRACKER);
    await goTo(page, 10);
    await page.locator('button.tool-box').click();
    await drag(page, [300, 20], [340, 60]);
    await expect.poll(() => page.locator('.inspect dd[data-field="track"]').textContent()).toBe('new-1');
    await page.locator('button.tool-box').click(); // back to selecting
    await goTo(page, 20);
    await expect.poll(() => page.locator('.track-tools button.keyframe').textContent()).toBe('Add keyframe here');
    await goTo(page, 20);
    await blur(page);
    await page.keyboard.press('k'); // a keyframe here, a copy of frame 10's box
    await expect.poll(() => page.locator('.inspect dd[data-field="track"]').textContent()).toBe('new-1');
    await drag(page, [320, 40], [420, 100]); // moves the keyframe at 20
    await save(page, TRACKER);

    const track = trackOf(await getRun(TRACKER), 'new-1')!;
    expect(track.boxes.map((b) => b.frame)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    const k10 = track.boxes[0]!;
    const k20 = track.boxes[10]!;
    const f15 = track.boxes[5]!;
    expect(k10.interpolated).toBeUndefined();
    expect(k20.interpolated).toBeUndefined();
    expect(Math.abs(k20.x * 640 - 400)).toBeLessThan(1.5);
    expect(f15).toEqual({
      frame: 15,
      x: (k10.x + k20.x) / 2,
      y: (k10.y + k20.y) / 2,
      w: (k10.w + k20.w) / 2,
      h: (k10.h + k20.h) / 2,
      interpolated: true,
    });
    await page.context().close();
  });

  it('splits a track at the current frame, then merges the parts again', async () => {
    const page = await openDemo();
    await goTo(page, 120);
    // The detector's dog at frame 120: x1 316, y1 279, 50×40.
    await page.mouse.click(...(await at(page, 340, 299)));
    await expect.poll(() => page.locator('.inspect dd[data-field="track"]').textContent()).toBe('d1');
    await page.keyboard.press('s');
    await save(page, DETECTOR);
    let run = await getRun(DETECTOR);
    expect(trackOf(run, 'd1')!.boxes.map((b) => b.frame)).toEqual(Array.from({ length: 20 }, (_, i) => 100 + i));
    expect(trackOf(run, 'd1-split-1')!.boxes).toHaveLength(130);
    expect(trackOf(run, 'd1-split-1')!.label).toBe('dog');

    await page.mouse.click(...(await at(page, 340, 299))); // now the split part
    await expect.poll(() => page.locator('.inspect dd[data-field="track"]').textContent()).toBe('d1-split-1');
    await page.locator('input.merge-id').fill('d1');
    await page.locator('form.merge button').click();
    const sent = await save(page, DETECTOR);
    const body = sent[0]!.body as { tracks: { upsert: SavedTrack[]; delete: string[] } };
    expect(body.tracks.upsert.map((t) => t.id)).toEqual(['d1-split-1']);
    expect(body.tracks.delete).toEqual(['d1']);
    run = await getRun(DETECTOR);
    expect(trackOf(run, 'd1')).toBeUndefined();
    expect(trackOf(run, 'd1-split-1')!.boxes.map((b) => b.frame)).toEqual(
      Array.from({ length: 150 }, (_, i) => 100 + i),
    );
    await page.context().close();
  });

  it('undo and redo (Ctrl+Z, Ctrl+Shift+Z) walk the edits since the last save', async () => {
    const page = await openDemo();
    const counts = () => page.locator(`.layer[data-run-id="${TRACKER}"] .muted.small`).first().textContent();
    const start = await counts();
    await page.mouse.click(...(await at(page, 90, 225))); // the tracker's person (the smaller box)
    await expect.poll(() => page.locator('.inspect dd[data-field="track"]').textContent()).toBe('t-person');
    await drag(page, [90, 225], [190, 225]);
    await page.keyboard.press('Shift+Delete');
    await page.locator(`.layer[data-run-id="${TRACKER}"].edited`).waitFor();
    expect(await counts()).not.toBe(start);
    await page.keyboard.press('Control+z'); // the track is back, moved
    expect(await counts()).toBe(start);
    await page.locator(`.layer[data-run-id="${TRACKER}"].edited`).waitFor();
    await page.keyboard.press('Control+z'); // the move undone: nothing left to save
    await page.locator(`.layer[data-run-id="${TRACKER}"]:not(.edited)`).waitFor();
    expect(await page.locator(`.layer[data-run-id="${TRACKER}"] button.save-replace`).isDisabled()).toBe(true);
    await page.keyboard.press('Control+Shift+z');
    await page.keyboard.press('Control+Shift+z');
    expect(await counts()).not.toBe(start);
    await page.keyboard.press('Control+z');
    await save(page, TRACKER);
    const moved = trackOf(await getRun(TRACKER), 't-person')!.boxes[0]!;
    expect(moved.x * 640).toBeCloseTo(144, 0);
    await page.context().close();
  });

  it('zoomed in, a dragged box lands where the pointer put it in frame pixels', async () => {
    const before = trackOf(await getRun(DETECTOR), 'c1')!.boxes.find((b) => b.frame === 100)!;
    const page = await openDemo();
    await goTo(page, 100);
    // The detector's car at frame 100 (its top-left corner in frame pixels).
    const x0 = Math.round(before.x * 640);
    const y0 = Math.round(before.y * 360);
    await page.mouse.move(...(await at(page, x0 + 30, y0 + 30)));
    await page.mouse.wheel(0, -100);
    await page.mouse.wheel(0, -100);
    const zoomed = (await page.locator('canvas.overlay').boundingBox())!;
    expect(zoomed.width).toBeGreaterThan(1000);
    // Right of the tracker's car (which lies inside the detector's, 7 px short of its right edge).
    await drag(page, [x0 + 107, y0 + 38], [x0 + 127, y0 + 33]);
    await expect.poll(() => page.locator('.inspect dd[data-field="track"]').textContent()).toBe('c1');
    await save(page, DETECTOR);
    const after = trackOf(await getRun(DETECTOR), 'c1')!.boxes.find((b) => b.frame === 100)!;
    expect(after.x * 640).toBeCloseTo(before.x * 640 + 20, 0);
    expect(after.y * 360).toBeCloseTo(before.y * 360 - 5, 0);
    expect(after.w).toBeCloseTo(before.w, 6);
    await page.keyboard.press('0');
    const reset = (await page.locator('canvas.overlay').boundingBox())!;
    expect(reset.width).toBeLessThan(zoomed.width);
    await page.context().close();
  });

  it('a save against a revision someone else replaced meanwhile opens the conflict dialog', async () => {
    const mine = await openDemo();
    const theirs = await openDemo();
    await goTo(theirs, 40);
    await goTo(mine, 40);
    // Both select the tracker's car at frame 40 and delete its box there.
    const rev = (await getRun(TRACKER)).revision;
    for (const page of [theirs, mine]) {
      await page.mouse.click(...(await at(page, 560, 250)));
      await expect.poll(() => page.locator('.inspect dd[data-field="track"]').textContent()).toBe('t-car');
      await page.keyboard.press('Delete');
    }
    await save(theirs, TRACKER);
    expect((await getRun(TRACKER)).revision).toBe(rev + 1);
    await mine.locator(`.layer[data-run-id="${TRACKER}"] button.save-replace`).click();
    const dialog = mine.locator('.dialog.conflict');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(`revision ${rev + 1}`);
    // Nothing of mine was stored.
    expect((await getRun(TRACKER)).revision).toBe(rev + 1);
    await dialog.locator('button.conflict-reload').click();
    await mine.locator(`.layer[data-run-id="${TRACKER}"]:not(.edited)`).waitFor();
    expect(await mine.locator(`.layer[data-run-id="${TRACKER}"] .layer-revision`).textContent()).toBe(` r${rev + 1}`);
    await mine.context().close();
    await theirs.context().close();
  });

  it('opens at the frame in the link, and the link follows the frame shown', async () => {
    const page = await openDemo();
    await goTo(page, 60);
    expect(await page.evaluate(() => location.hash)).toBe(
      `#/recording/${encodeURIComponent(suite.fx.mediaKey)}?frame=60`,
    );
    await page.evaluate(() => {
      location.hash = location.hash.replace('frame=60', 'frame=42');
    });
    await page.waitForFunction(() => window.__sightline?.frame === 42);
    await page.reload();
    await page.waitForFunction(() => window.__sightline?.frame === 42 && window.__sightline.drawn > 0);
    await page.context().close();
  });

  it("lists a layer's revisions and restores one after confirmation", async () => {
    const before = await getRun(TRACKER);
    const page = await openDemo();
    await page.locator(`.layer[data-run-id="${TRACKER}"] details.revisions summary`).click();
    const items = page.locator(`.layer[data-run-id="${TRACKER}"] .revision-list li`);
    await expect.poll(() => items.count()).toBeGreaterThan(1);
    expect(await items.first().getAttribute('data-revision')).toBe(String(before.revision));
    page.once('dialog', (d) => void d.dismiss());
    await page.locator(`.layer[data-run-id="${TRACKER}"] li[data-revision="1"] button.restore-revision`).click();
    expect((await getRun(TRACKER)).revision).toBe(before.revision);
    page.once('dialog', (d) => void d.accept());
    await page.locator(`.layer[data-run-id="${TRACKER}"] li[data-revision="1"] button.restore-revision`).click();
    await expect.poll(() => page.locator('.message').textContent()).toContain('Restored revision 1');
    const after = await getRun(TRACKER);
    expect(after.revision).toBe(before.revision + 1);
    expect(after.tracks.map((t) => t.id)).toEqual(['t-person', 't-car']);
    expect(await page.locator(`.layer[data-run-id="${TRACKER}"] .layer-revision`).textContent()).toBe(
      ` r${after.revision}`,
    );
    await page.context().close();
  });
});
