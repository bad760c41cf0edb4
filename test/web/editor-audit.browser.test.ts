// The editor in Debian's Chromium, for what an audit found: seeking by slider, keys on focused controls,
// unsaved corrections on leaving, the Play button at the end of the video, malformed links, the hover
// read-out, hidden boxes, stale results beside errors, handle size on large recordings, detections after the
// video's end, and the layers panel's partial group switch and accessible names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIALECTS } from '../support/store.js';
import { bearer, getJson, postJson } from '../support/server.js';
import { createAccount, createProvider } from '../../src/storage/admin.js';
import { assetNames } from '../../src/recordings/assets-route.js';
import {
  HAS_CHROMIUM,
  NO_CHROMIUM_MESSAGE,
  PASSWORD,
  launchChromium,
  signedInPage,
  setRange,
  startEditorServer,
  type EditorFixture,
} from './support.js';

// The demo detector's person at frame 0: x 40–100, y 150–300 px of 640×360, confidence 0.665; the tracker's
// starts at x 44, so (41, 225) is inside the detector's box only.
const PROBE = { x: 41, y: 225 };
const DETECTOR = 'demo-detector-1';
const TRACKER = 'demo-tracker-1';
const SAMPLE = fileURLToPath(new URL('../../assets/demo/', import.meta.url));

async function at(page: Page, x: number, y: number, size = { width: 640, height: 360 }): Promise<[number, number]> {
  const box = (await page.locator('canvas.overlay').boundingBox())!;
  return [box.x + (x / size.width) * box.width, box.y + (y / size.height) * box.height];
}

const frame = (page: Page) => page.evaluate(() => window.__sightline?.frame);
const inspected = (page: Page) => page.locator('.inspect dd[data-field="track"]').count();

function harness(dialect: (typeof DIALECTS)[number], env: Record<string, string> = {}) {
  const ctx = {} as { fx: EditorFixture; browser: Browser };
  beforeAll(async () => {
    [ctx.fx, ctx.browser] = await Promise.all([startEditorServer(dialect, env), launchChromium()]);
  });
  afterAll(async () => {
    await ctx.browser?.close();
    await ctx.fx?.server.close();
  });
  async function openAs(hash = '', role = 'editor'): Promise<Page> {
    const page = await signedInPage(ctx.fx, ctx.browser, role, { timeoutMs: 30_000 });
    await page.goto(`${ctx.fx.server.url}/${hash}`);
    return page;
  }
  async function open(mediaKey = ctx.fx.mediaKey, role = 'editor'): Promise<Page> {
    const page = await openAs(`#/recording/${encodeURIComponent(mediaKey)}`, role);
    await page.locator('.layer').first().waitFor();
    await page.waitForFunction(() => window.__sightline?.frame === 0 && window.__sightline.drawn > 0);
    return page;
  }
  return { ctx, openAs, open };
}

if (!HAS_CHROMIUM) {
  describe('editor audit in Chromium', () => {
    it.skip(NO_CHROMIUM_MESSAGE, () => {});
  });
} else {
  describe.each(DIALECTS)('editor audit, blank-canvas player (%s)', (dialect) => {
    const { ctx, openAs, open } = harness(dialect);

    it('the frame slider seeks by keys and by click', async () => {
      const page = await open();
      const slider = page.locator('input.frame-slider');
      await slider.focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => frame(page)).toBe(2);
      const box = (await slider.boundingBox())!;
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await expect.poll(async () => Math.abs((await frame(page))! - 125)).toBeLessThan(10);
      await setRange(page, 'input.frame-slider', 200);
      await expect.poll(() => frame(page)).toBe(200);
      await page.context().close();
    });

    it('Space, Enter and Delete keep their meaning on focused controls; Space plays elsewhere', async () => {
      const page = await open();
      const visible = page.locator(`.layer[data-run-id="${TRACKER}"] .layer-visible`);
      await visible.focus();
      await page.keyboard.press(' ');
      await expect.poll(() => visible.isChecked()).toBe(false);
      expect(await page.evaluate(() => window.__sightline?.playing)).toBe(false);
      await page.keyboard.press(' ');
      await expect.poll(() => visible.isChecked()).toBe(true);

      // A selected box survives Delete and Backspace while a range has focus, and Backspace never deletes.
      await page.mouse.click(...(await at(page, PROBE.x, PROBE.y)));
      await expect.poll(() => inspected(page)).toBe(1);
      await page.locator(`.layer[data-run-id="${DETECTOR}"] .layer-opacity`).focus();
      await page.keyboard.press('Delete');
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('Backspace');
      expect(await page.locator(`.layer[data-run-id="${DETECTOR}"].edited`).count()).toBe(0);

      // Space on the focused "Delete box" button presses it.
      await page.locator('button.delete-box').focus();
      await page.keyboard.press(' ');
      await page.locator(`.layer[data-run-id="${DETECTOR}"].edited`).waitFor();
      expect(await page.evaluate(() => window.__sightline?.playing)).toBe(false);

      // With nothing focused, Space plays and pauses.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press(' ');
      await page.waitForFunction(() => window.__sightline?.playing === true);
      await page.keyboard.press(' ');
      await page.waitForFunction(() => window.__sightline?.playing === false);
      await page.context().close();
    });

    it('leaving a recording with unsaved corrections asks first; cancelling stays', async () => {
      const page = await openAs('#/recordings');
      await page.locator(`tr.recording-row[data-media-key="${ctx.fx.mediaKey}"]`).click();
      await page.waitForFunction(() => window.__sightline?.frame === 0 && window.__sightline.drawn > 0);
      const editorHash = await page.evaluate(() => location.hash);
      const asked: string[] = [];
      page.on('dialog', (d) => {
        asked.push(d.type());
        void (asked.length % 2 === 1 ? d.dismiss() : d.accept());
      });
      await page.mouse.click(...(await at(page, PROBE.x, PROBE.y)));
      await page.locator('button.delete-box').click();
      await page.locator(`.layer[data-run-id="${DETECTOR}"].edited`).waitFor();

      await page.locator('.title a', { hasText: 'Recordings' }).click(); // dismissed
      await expect.poll(() => asked.length).toBe(1);
      expect(await page.evaluate(() => location.hash)).toBe(editorHash);
      expect(await page.locator(`.layer[data-run-id="${DETECTOR}"].edited`).count()).toBe(1);

      await page.goBack(); // accepted
      await expect.poll(() => asked.length).toBe(2);
      await page.locator('tr.recording-row').first().waitFor();
      expect(asked).toEqual(['confirm', 'confirm']);
      await page.context().close();
    });

    it('Back with unsaved corrections, cancelled, keeps the recording; closing the page asks too', async () => {
      const page = await openAs('#/recordings');
      await page.locator(`tr.recording-row[data-media-key="${ctx.fx.mediaKey}"]`).click();
      await page.waitForFunction(() => window.__sightline?.frame === 0 && window.__sightline.drawn > 0);
      // Leaving without edits asks nothing.
      let asked = 0;
      page.on('dialog', (d) => {
        asked++;
        void d.dismiss();
      });
      await page.goBack();
      await page.locator('tr.recording-row').first().waitFor();
      expect(asked).toBe(0);
      await page.goForward();
      await page.waitForFunction(() => window.__sightline?.frame === 0 && window.__sightline.drawn > 0);
      await page.mouse.click(...(await at(page, PROBE.x, PROBE.y)));
      await page.locator('button.delete-box').click();
      await page.locator(`.layer[data-run-id="${DETECTOR}"].edited`).waitFor();
      await page.goBack();
      await expect.poll(() => asked).toBe(1);
      expect(await page.evaluate(() => location.hash)).toContain('#/recording/');
      expect(await page.locator(`.layer[data-run-id="${DETECTOR}"].edited`).count()).toBe(1);

      page.removeAllListeners('dialog');
      const unload = new Promise<string>((resolve) => {
        page.once('dialog', (d) => {
          resolve(d.type());
          void d.accept();
        });
        setTimeout(() => resolve('no dialog'), 5000);
      });
      await page.close({ runBeforeUnload: true });
      expect(await unload).toBe('beforeunload');
      await page.context().close();
    });

    it('a malformed link shows an error, at load and on a hash change', async () => {
      const errors: string[] = [];
      const page = await openAs('#/recording/%E0%A4%A');
      page.on('pageerror', (e) => errors.push(e.message));
      await page.locator('.not-found .error').waitFor({ timeout: 5000 });
      expect(await page.locator('.not-found .error').textContent()).toContain('malformed');
      await page.evaluate(() => {
        location.hash = '#/recordings';
      });
      await page.locator('form.filters').waitFor();
      await page.evaluate(() => {
        location.hash = '#/recording/%E0%A4%A';
      });
      await page.locator('.not-found .error').waitFor({ timeout: 5000 });
      expect(errors).toEqual([]);
      await page.context().close();
    });

    it('the hover read-out goes when the pointer leaves the canvas', async () => {
      const page = await open(undefined, 'viewer');
      await page.mouse.move(...(await at(page, PROBE.x, PROBE.y)));
      await expect.poll(() => inspected(page)).toBe(1);
      const timeline = (await page.locator('canvas.timeline').boundingBox())!;
      await page.mouse.move(timeline.x + 5, timeline.y + timeline.height - 5);
      await expect.poll(() => inspected(page)).toBe(0);
      expect(await page.locator('.inspect').getAttribute('aria-live')).toBe('polite');
      await page.context().close();
    });

    it('boxes that are not drawn cannot be hovered or selected, and a selection goes when its box is hidden', async () => {
      const page = await open(undefined, 'viewer');
      const layer = `.layer[data-run-id="${DETECTOR}"]`;
      await setRange(page, `${layer} .layer-threshold`, 0.7);
      await page.mouse.move(...(await at(page, PROBE.x, PROBE.y)));
      await page.mouse.click(...(await at(page, PROBE.x, PROBE.y)));
      expect(await inspected(page)).toBe(0);
      await setRange(page, `${layer} .layer-threshold`, 0);
      await setRange(page, `${layer} .layer-opacity`, 0);
      await page.mouse.move(...(await at(page, PROBE.x + 1, PROBE.y + 1)));
      await page.mouse.click(...(await at(page, PROBE.x, PROBE.y)));
      expect(await inspected(page)).toBe(0);

      await setRange(page, `${layer} .layer-opacity`, 1);
      await page.mouse.click(...(await at(page, PROBE.x, PROBE.y)));
      await expect.poll(() => page.locator('.inspect h2').textContent()).toBe('Selected box');
      await setRange(page, `${layer} .layer-threshold`, 0.7);
      await expect.poll(() => page.locator('.inspect h2').textContent()).toBe('Box under the pointer');
      expect(await inspected(page)).toBe(0);
      await page.context().close();
    });

    it('an error in the list or the region search replaces the stale results, in words', async () => {
      const page = await openAs('#/recordings');
      await page.locator('tr.recording-row').first().waitFor();
      await page.fill('input[name=from]', '2100-01-01');
      await page.fill('input[name=to]', '2000-01-01');
      await page.click('form.filters button[type=submit]');
      await expect
        .poll(() => page.locator('main .error').textContent())
        .toBe('The start date must not be after the end date.');
      expect(await page.locator('tr.recording-row').count()).toBe(0);

      await page.evaluate(() => {
        location.hash = '#/search';
      });
      const canvas = page.locator('canvas.region-canvas');
      await canvas.waitFor();
      const box = (await canvas.boundingBox())!;
      const px = (x: number, y: number) => [box.x + (x / 640) * box.width, box.y + (y / 360) * box.height] as const;
      await page.mouse.move(...px(50, 200));
      await page.mouse.down();
      await page.mouse.move(...px(90, 250), { steps: 4 });
      await page.mouse.up();
      await page.click('button.primary');
      await page.locator('tr.result-row').first().waitFor();
      // A click without a drag is a rectangle without area, which the API refuses.
      await page.mouse.click(...px(300, 100));
      await page.click('button.primary');
      await expect.poll(() => page.locator('main .error').textContent()).toMatch(/^This region cannot be searched/);
      expect(await page.locator('tr.result-row').count()).toBe(0);
      await page.context().close();
    });

    it('a session that ends with unsaved corrections asks to sign in again over the editor, which keeps them to save', async () => {
      const { fx } = ctx;
      const before = await getJson(
        `${fx.server.url}/detections/${DETECTOR}?mediaKey=${encodeURIComponent(fx.mediaKey)}`,
        bearer(fx.org.token),
      );
      const page = await open();
      await page.mouse.click(...(await at(page, PROBE.x, PROBE.y)));
      await page.locator('button.delete-box').click();
      await page.locator(`.layer[data-run-id="${DETECTOR}"].edited`).waitFor();
      // The session ends behind the tab's back (as at its expiry): the next request is a 401.
      const ended = await page.evaluate(async () => {
        const { token } = JSON.parse(sessionStorage.getItem('sightline.session')!) as { token: string };
        return (
          await fetch('/logout', {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: '{}',
          })
        ).status;
      });
      expect(ended).toBe(200);
      await page.locator(`.layer[data-run-id="${DETECTOR}"] button.save-replace`).click();
      const dialog = page.getByRole('dialog', { name: 'Sign in again' });
      await dialog.waitFor();
      expect(await dialog.locator('input[name="username"]').inputValue()).toBe(fx.username('editor'));
      expect(await dialog.locator('input[name="username"]').getAttribute('readonly')).not.toBeNull();
      // The editor is still there, its corrections with it, and out of reach until the user signs in.
      expect(await page.locator(`.layer[data-run-id="${DETECTOR}"].edited`).count()).toBe(1);
      expect(await page.locator('.app').evaluate((el) => (el as HTMLElement).inert)).toBe(true);
      // Its keys are out of reach too, wherever the focus is: no frame step, no box selected, moved or deleted.
      await dialog.getByRole('heading').click();
      const frameBefore = await frame(page);
      for (const key of ['.', 'n', 'ArrowRight', 'Delete', 'Escape']) await page.keyboard.press(key);
      expect(await frame(page)).toBe(frameBefore);
      expect(await page.locator('.inspect dd[data-field="track"]').count()).toBe(0);
      await dialog.locator('input[name="password"]').fill('wrong password');
      await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
      await dialog.getByRole('alert').filter({ hasText: 'Wrong username or password.' }).waitFor();
      await dialog.locator('input[name="password"]').fill(PASSWORD);
      await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => page.evaluate(() => document.activeElement?.closest('main')?.className)).toBe('editor');
      await page.locator(`.layer[data-run-id="${DETECTOR}"] button.save-replace`).click();
      await expect.poll(() => page.locator('.message').textContent()).toContain(`into ${DETECTOR}`);
      const after = await getJson(
        `${fx.server.url}/detections/${DETECTOR}?mediaKey=${encodeURIComponent(fx.mediaKey)}`,
        bearer(fx.org.token),
      );
      expect(after.body.data.boxesStored).toBe(before.body.data.boxesStored - 1);
      await page.context().close();
    });

    it('a session that ends with nothing unsaved goes back to the sign-in page, as before', async () => {
      const page = await open();
      await page.evaluate(async () => {
        const { token } = JSON.parse(sessionStorage.getItem('sightline.session')!) as { token: string };
        await fetch('/logout', {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{}',
        });
      });
      await page.locator('header nav a', { hasText: 'Recordings' }).click();
      await page
        .locator('main.signin')
        .getByRole('alert')
        .filter({ hasText: 'Your session has ended. Sign in again.' })
        .waitFor();
      expect(await page.getByRole('dialog').count()).toBe(0);
      await page.context().close();
    });

    it('names from the data stay within themselves: bidi controls are shown, not obeyed, and long names wrap', async () => {
      const { fx } = ctx;
      const dir = fx.mediaKey.split('/')[0];
      const spoof = `${dir}/1700000200_invoice\u202egpj.mp4`;
      const long = `${dir}/1700000300_${'x'.repeat(300)}.mp4`;
      for (const [mediaKey, deviceKey] of [
        [spoof, 'cam\u202e1evil'],
        [long, 'd'.repeat(200)],
      ]) {
        expect(
          (
            await postJson(
              `${fx.server.url}/recordings`,
              { mediaKey, deviceKey, width: 640, height: 360, fps: 25 },
              bearer(fx.org.token),
            )
          ).status,
        ).toBe(201);
      }
      const page = await openAs('#/recordings');
      const row = page.locator(`tr.recording-row[data-media-key="${spoof}"]`);
      await row.waitFor();
      // The override is shown as a mark inside its own <bdi>, so it reorders nothing, not even the rest of its name.
      // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, the text as rendered, is the point
      expect(await row.locator('td a').innerText()).toBe(`${dir}/1700000200_invoiceU+202Egpj.mp4`);
      expect(await row.locator('td a bdi').count()).toBe(1);
      // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, the text as rendered, is the point
      expect(await row.locator('td').nth(2).innerText()).toBe('camU+202E1evil');
      // A 300-character key and a 200-character device wrap inside the list instead of widening the page.
      await page.locator(`tr.recording-row[data-media-key="${long}"]`).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
      await page.context().close();
    });

    it('a box is selected, moved, resized and saved from the keyboard alone', async () => {
      const { fx } = ctx;
      const runOf: Record<string, string> = { 'yolov8-demo': DETECTOR, 'bytetrack-demo': TRACKER };
      const fetchRun = async (runId: string) =>
        (
          await getJson(
            `${fx.server.url}/detections/${runId}?mediaKey=${encodeURIComponent(fx.mediaKey)}`,
            bearer(fx.org.token),
          )
        ).body.data;
      const page = await open();
      await page.keyboard.press('n');
      await expect.poll(() => page.locator('.inspect h2').textContent()).toBe('Selected box');
      const first = await page.locator('.inspect dd[data-field="track"]').textContent();
      // Shift+n from the first box wraps round to the frame's last one, n comes back.
      await page.keyboard.press('Shift+N');
      await page.keyboard.press('n');
      expect(await page.locator('.inspect dd[data-field="track"]').textContent()).toBe(first);
      const runId = runOf[(await page.locator('.inspect dd[data-field="layer"]').textContent())!]!;
      const before = (await fetchRun(runId)).tracks
        .find((t: { id: string }) => t.id === first)
        .boxes.find((b: { frame: number }) => b.frame === 0);
      await page.keyboard.press('Shift+ArrowRight'); // 10 px right
      await page.keyboard.press('ArrowDown'); // 1 px down
      await page.keyboard.press('Alt+ArrowDown'); // 1 px taller
      await page.keyboard.press('Alt+ArrowDown');
      await page.locator(`.layer[data-run-id="${runId}"].edited`).waitFor();
      expect(await page.evaluate(() => location.hash)).toContain('#/recording/');
      await page.keyboard.press('Escape');
      await expect.poll(() => page.locator('.inspect h2').textContent()).toBe('Box under the pointer');
      await page.locator(`.layer[data-run-id="${runId}"] button.save-replace`).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('.message').textContent()).toContain(`into ${runId}`);
      const after = (await fetchRun(runId)).tracks
        .find((t: { id: string }) => t.id === first)
        .boxes.find((b: { frame: number }) => b.frame === 0);
      expect(after.x).toBeCloseTo(before.x + 10 / 640, 4);
      expect(after.y).toBeCloseTo(before.y + 1 / 360, 4);
      expect(after.w).toBeCloseTo(before.w, 4);
      expect(after.h).toBeCloseTo(before.h + 2 / 360, 4);
      await page.context().close();
    });

    it('Back from a recording returns to the list as it was filtered', async () => {
      const { fx } = ctx;
      const other = `${fx.mediaKey.split('/')[0]}/1700000400_cam9.mp4`;
      expect(
        (await postJson(`${fx.server.url}/recordings`, { mediaKey: other, deviceKey: 'cam9' }, bearer(fx.org.token)))
          .status,
      ).toBe(201);
      const page = await openAs('#/recordings');
      await page.locator(`tr.recording-row[data-media-key="${other}"]`).waitFor();
      await page.getByRole('textbox', { name: 'Device' }).fill('cam1');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.locator(`tr.recording-row[data-media-key="${other}"]`).waitFor({ state: 'detached' });
      await page.locator(`tr.recording-row[data-media-key="${fx.mediaKey}"] td a`).click();
      await page.locator('.layer').first().waitFor();
      await page.goBack();
      await page.locator(`tr.recording-row[data-media-key="${fx.mediaKey}"]`).waitFor();
      expect(await page.getByRole('textbox', { name: 'Device' }).inputValue()).toBe('cam1');
      expect(await page.locator(`tr.recording-row[data-media-key="${other}"]`).count()).toBe(0);
      await page.context().close();
    });

    it('each page has its own title and takes the focus, so a screen reader starts at its content', async () => {
      const { fx } = ctx;
      const page = await openAs('#/recordings');
      await page.locator(`tr.recording-row[data-media-key="${fx.mediaKey}"] td a`).click();
      await page.locator('.layer').first().waitFor();
      await expect.poll(() => page.title()).toBe(`${fx.mediaKey} · Sightline`);
      expect(await page.evaluate(() => document.activeElement?.closest('main')?.className)).toBe('editor');
      await page.locator('header nav a', { hasText: 'Region search' }).click();
      await expect.poll(() => page.title()).toBe('Region search · Sightline');
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('MAIN');
      await page.context().close();
    });

    it('at 320 px wide the stage, the layers and the sign-out button are all there, one under the other', async () => {
      const page = await open();
      const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= innerWidth);
      // Wide, the layers panel keeps to its column.
      expect(await fits()).toBe(true);
      await page.setViewportSize({ width: 320, height: 640 });
      expect(await fits()).toBe(true);
      const stage = (await page.locator('.stage').boundingBox())!;
      const layers = (await page.locator('aside.layers').boundingBox())!;
      expect(stage.width).toBeGreaterThan(250);
      expect(layers.y).toBeGreaterThanOrEqual(stage.y + stage.height);
      const signOut = (await page.locator('button.signout').boundingBox())!;
      const header = (await page.locator('header').boundingBox())!;
      expect(signOut.x + signOut.width).toBeLessThanOrEqual(320);
      expect(signOut.y + signOut.height).toBeLessThanOrEqual(header.y + header.height);
      await page.context().close();
    });

    it('on a 3840×2160 recording the handles and the group switches are sized and named for people', async () => {
      const { fx } = ctx;
      const mediaKey = `${fx.mediaKey.split('/')[0]}/1700000100_big.mp4`;
      const made = await postJson(
        `${fx.server.url}/recordings`,
        { mediaKey, width: 3840, height: 2160, fps: 25 },
        bearer(fx.org.token),
      );
      expect(made.status).toBe(201);
      for (const runId of ['big-1', 'big-2']) {
        const posted = await postJson(
          `${fx.server.url}/detections`,
          {
            mediaKey,
            schemaVersion: '1.0',
            source: { kind: 'model', name: 'big-detector', runId },
            coordinateSpace: 'normalized',
            tracks: [{ id: `t-${runId}`, label: 'person', boxes: [{ frame: 0, x: 0.25, y: 0.25, w: 0.25, h: 0.25 }] }],
          },
          bearer(fx.org.token),
        );
        expect(posted.status).toBe(201);
      }
      const page = await open(mediaKey);
      const size = { width: 3840, height: 2160 };
      // big-2 is drawn over big-1 at the same place; hide it so the selection is big-1's.
      await page.locator('.layer[data-run-id="big-2"] .layer-visible').uncheck();
      const group = page.getByRole('checkbox', { name: 'Show the runs of big-detector' });
      expect(await group.evaluate((el) => (el as HTMLInputElement).indeterminate, undefined, { timeout: 5000 })).toBe(
        true,
      );
      await page.mouse.click(...(await at(page, 1920, 1500, size)));
      await page.mouse.click(...(await at(page, 1100, 700, size)));
      await expect.poll(() => page.locator('.inspect h2').textContent()).toBe('Selected box');
      const scale = await page
        .locator('canvas.overlay')
        .evaluate((c) => (c as HTMLCanvasElement).width / c.clientWidth);
      expect(scale).toBeGreaterThan(3.2);
      // 2.5 screen pixels outside the top-left corner, diagonally: inside a 6-pixel handle, outside the outline.
      const d = Math.round(2.5 * scale);
      const pixel = await page.evaluate(
        ([x, y]) =>
          Array.from(
            document.querySelector<HTMLCanvasElement>('canvas.overlay')!.getContext('2d')!.getImageData(x!, y!, 1, 1)
              .data,
          ),
        [960 - d, 540 - d],
      );
      expect(pixel).toEqual([255, 255, 0, 255]);

      // The partial group switch shows every run; names say which layer a button acts on.
      await group.click();
      expect(await page.locator('.layer[data-run-id="big-2"] .layer-visible').isChecked()).toBe(true);
      expect(await group.evaluate((el) => (el as HTMLInputElement).indeterminate)).toBe(false);
      expect(await group.isChecked()).toBe(true);
      await page.getByRole('button', { name: 'Delete layer big-detector (big-2)' }).waitFor({ timeout: 5000 });
      await page.getByRole('button', { name: 'Save big-detector (big-1)', exact: true }).waitFor({ timeout: 5000 });
      await page.getByRole('button', { name: 'Save big-detector (big-1) as a new layer' }).waitFor({ timeout: 5000 });
      await page.context().close();
    });
  });

  describe.each(DIALECTS)('editor audit, video player (%s)', (dialect) => {
    const account = `editor-audit-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    const { ctx, open } = harness(dialect, {
      EDITOR_STORAGE_ACCOUNT: account,
      STORAGE_URL_SIGNING_KEY: 'browser-test-signing-key-0123456789abcdef',
      SIGHTLINE_MASTER_KEY: 'browser-test-master-key-012345678',
    });

    beforeAll(async () => {
      const { fx } = ctx;
      const root = path.join(fx.server.config.dataDir, 'media');
      await createProvider(fx.server.store, fx.server.config, fx.org.orgId, {
        name: 'disk',
        type: 'fs',
        config: { root },
      });
      await createAccount(fx.server.store, fx.org.orgId, {
        name: account,
        defaultProvider: 'disk',
        directories: ['*'],
      });
      // The demo clip: 10 s at 25 fps, frames 0–249.
      const names = assetNames(fx.mediaKey);
      const files: Record<string, string> = {
        video: 'sample.mp4',
        redacted: 'sample_redacted.mp4',
        thumbnail: 'sample_thumbnail.jpg',
        sprite: 'sample_sprite.jpg',
      };
      for (const [kind, name] of Object.entries(names)) {
        const file = path.join(root, ...name.split('/'));
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.copyFileSync(path.join(SAMPLE, files[kind]!), file);
      }
      // A detection 2 s after the clip ends.
      const late = await postJson(
        `${fx.server.url}/detections`,
        {
          mediaKey: fx.mediaKey,
          schemaVersion: '1.0',
          source: { kind: 'model', name: 'late', runId: 'late-1' },
          coordinateSpace: 'normalized',
          tracks: [{ id: 'late', label: 'person', boxes: [{ frame: 300, x: 0.1, y: 0.1, w: 0.2, h: 0.2 }] }],
        },
        bearer(fx.org.token),
      );
      expect(late.status).toBe(201);
    });

    async function openVideo(): Promise<Page> {
      const page = await open();
      await page.waitForFunction(
        () => ((document.querySelector('video.video') as HTMLVideoElement | null)?.readyState ?? 0) >= 1,
      );
      expect(await page.locator('.no-video').count()).toBe(0);
      return page;
    }

    it('the Play button and the playing state follow the video to its end', async () => {
      const page = await openVideo();
      await page.evaluate(() => window.__sightline!.seek(240));
      await expect.poll(() => frame(page)).toBe(240);
      await page.locator('button.play').click();
      await page.waitForFunction(() => (document.querySelector('video.video') as HTMLVideoElement).ended, undefined, {
        timeout: 10_000,
      });
      await expect.poll(() => page.locator('button.play').textContent()).toBe('Play');
      expect(await page.evaluate(() => window.__sightline?.playing)).toBe(false);
      await page.context().close();
    });

    it("seeking stops at the video's last frame, also for detections after it; the slider seeks", async () => {
      const page = await openVideo();
      const slider = page.locator('input.frame-slider');
      expect(await slider.getAttribute('max')).toBe('300');
      await slider.focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => frame(page)).toBe(1);
      await page.evaluate(() => window.__sightline!.seek(300));
      await page.waitForFunction(() => !(document.querySelector('video.video') as HTMLVideoElement).seeking);
      await expect.poll(() => frame(page)).toBe(249);
      const timeline = (await page.locator('canvas.timeline').boundingBox())!;
      await page.mouse.click(timeline.x + timeline.width - 2, timeline.y + 10);
      await page.waitForTimeout(300);
      await expect.poll(() => frame(page)).toBe(249);
      expect(await page.locator('.frame-readout').textContent()).toMatch(/^Frame 249 \//);
      await page.context().close();
    });
  });
}
