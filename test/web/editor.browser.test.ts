// The editor in Debian's Chromium against a real server: sign in, the demo recording with its two layers,
// layer visibility and the confidence threshold read back from canvas pixels, timeline seeking, a
// correction saved as a replacement, and region search.
import { beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { bearer, getJson, postJson } from '../support/server.js';
import fs from 'node:fs';
import path from 'node:path';
import { createAccount, createProvider } from '../../src/storage/admin.js';
import { assetNames } from '../../src/recordings/assets-route.js';
import { PASSWORD, setRange, signedInPage } from './support.js';
import { describeInChromium } from './chromium-suite.js';

// The demo detector's person at frame 0: x 40–100, y 150–300 px of 640×360, confidence 0.665. The tracker's
// person starts 4 px further right, so pixel (41, 225) is inside the detector's box only.
const PROBE = { x: 41, y: 225 };
const DETECTOR = 'demo-detector-1';
const TRACKER = 'demo-tracker-1';

async function overlayAlpha(page: Page, x: number, y: number): Promise<number> {
  return page.evaluate(
    ([px, py]) => {
      const canvas = document.querySelector<HTMLCanvasElement>('canvas.overlay')!;
      return canvas.getContext('2d')!.getImageData(px!, py!, 1, 1).data[3]!;
    },
    [x, y],
  );
}

/** Page coordinates of a point given in the overlay canvas's own pixels. */
async function canvasPoint(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  const box = (await page.locator('canvas.overlay').boundingBox())!;
  return { x: box.x + (x / 640) * box.width, y: box.y + (y / 360) * box.height };
}

describeInChromium('editor in Chromium', (suite) => {
  /** A page signed in as `role`, opened at `hash`. */
  async function openAs(role = 'editor', hash = ''): Promise<Page> {
    const page = await signedInPage(suite.fx, suite.browser, role, { timeoutMs: 30_000 });
    await page.goto(`${suite.fx.server.url}/${hash}`);
    return page;
  }

  async function openDemo(role = 'editor'): Promise<Page> {
    const page = await openAs(role, `#/recording/${encodeURIComponent(suite.fx.mediaKey)}`);
    await page.locator(`.layer[data-run-id="${TRACKER}"]`).waitFor();
    await page.waitForFunction(() => window.__sightline?.frame === 0 && window.__sightline.drawn > 0);
    return page;
  }

  it('signs in through the form, shows API errors in words, then lists the demo recording', async () => {
    const page = await suite.browser.newPage();
    await page.goto(`${suite.fx.server.url}/`);
    await page.fill('input[name=username]', suite.fx.username('viewer'));
    await page.fill('input[name=password]', 'not the password');
    await page.click('button[type=submit]');
    await expect.poll(() => page.locator('.signin .error').textContent()).toBe('Wrong username or password.');
    await page.fill('input[name=password]', PASSWORD);
    await page.click('button[type=submit]');
    const row = page.locator(`tr.recording-row[data-media-key="${suite.fx.mediaKey}"]`);
    await row.waitFor();
    expect(await row.locator('td.runs').textContent()).toBe('2');
    await expect.poll(() => row.locator('td.labels').textContent()).toBe('car, dog, person');
    await expect.poll(() => page.locator('header .who').textContent()).toContain(suite.fx.username('viewer'));
    await page.click('button.signout');
    await page.locator('form[aria-label="Sign in"]').waitFor();
    await page.close();
  });

  it('opens the demo recording with both layers, named by source.name, oldest first', async () => {
    const page = await openAs('viewer');
    await page.locator(`tr.recording-row[data-media-key="${suite.fx.mediaKey}"]`).click();
    await page.locator(`.layer[data-run-id="${TRACKER}"]`).waitFor();
    const names = await page.locator('.layer-group .group-name').allTextContents();
    expect(names).toEqual(['yolov8-demo', 'bytetrack-demo']);
    expect(await page.locator('.layer').count()).toBe(2);
    expect(await page.locator(`.layer[data-run-id="${DETECTOR}"] .layer-visible`).isChecked()).toBe(true);
    // A viewer sees no correction buttons.
    expect(await page.locator('button.save-replace').count()).toBe(0);
    await page.waitForFunction(() => (window.__sightline?.drawn ?? 0) > 0);
    expect(await overlayAlpha(page, PROBE.x, PROBE.y)).toBeGreaterThan(0);
    await page.context().close();
  });

  it('hiding a layer removes its boxes from the canvas; showing it draws them again', async () => {
    const page = await openDemo('viewer');
    expect(await overlayAlpha(page, PROBE.x, PROBE.y)).toBeGreaterThan(0);
    await page.locator(`.layer[data-run-id="${DETECTOR}"] .layer-visible`).uncheck();
    await expect.poll(() => overlayAlpha(page, PROBE.x, PROBE.y)).toBe(0);
    // The other layer is still drawn: the tracker's person box at frame 0 (x 44–100).
    expect(await overlayAlpha(page, 70, 225)).toBeGreaterThan(0);
    await page.locator(`.layer[data-run-id="${DETECTOR}"] .layer-visible`).check();
    await expect.poll(() => overlayAlpha(page, PROBE.x, PROBE.y)).toBeGreaterThan(0);
    await page.context().close();
  });

  it('the confidence slider hides boxes below the threshold', async () => {
    const page = await openDemo('viewer');
    await setRange(page, `.layer[data-run-id="${DETECTOR}"] .layer-threshold`, 0.7);
    await expect.poll(() => overlayAlpha(page, PROBE.x, PROBE.y)).toBe(0);
    expect(await page.locator(`.layer[data-run-id="${DETECTOR}"] .threshold-value`).textContent()).toBe('0.70');
    await setRange(page, `.layer[data-run-id="${DETECTOR}"] .layer-threshold`, 0.6);
    await expect.poll(() => overlayAlpha(page, PROBE.x, PROBE.y)).toBeGreaterThan(0);
    await page.context().close();
  });

  it('a click on the timeline seeks to the frame under it; keys step and play', async () => {
    const page = await openDemo('viewer');
    const timeline = (await page.locator('canvas.timeline').boundingBox())!;
    await page.mouse.click(timeline.x + timeline.width * 0.5 + 1, timeline.y + timeline.height / 2);
    await page.waitForFunction(() => window.__sightline?.frame === 125);
    expect(await page.locator('.frame-readout').textContent()).toBe('Frame 125 / 249 · 5.00 s');
    await page.keyboard.press('.');
    await page.waitForFunction(() => window.__sightline?.frame === 126);
    await page.keyboard.press(',');
    await page.keyboard.press(',');
    await page.waitForFunction(() => window.__sightline?.frame === 124);
    await page.keyboard.press(' ');
    await page.waitForFunction(() => (window.__sightline?.frame ?? 0) > 124);
    await page.keyboard.press(' ');
    await page.waitForFunction(() => window.__sightline?.playing === false);
    // Space with a layer switch focused flips the switch; it does not play (editor-audit.browser.test.ts has more).
    const visible = page.locator(`.layer[data-run-id="${TRACKER}"] .layer-visible`);
    await visible.focus();
    await page.keyboard.press(' ');
    await expect.poll(() => visible.isChecked()).toBe(false);
    expect(await page.evaluate(() => window.__sightline?.playing)).toBe(false);
    await page.context().close();
  });

  it('region search finds the recording around a known box and nothing for an empty region', async () => {
    const page = await openAs('viewer', '#/search');
    const canvas = page.locator('canvas.region-canvas');
    await canvas.waitFor();
    const drag = async (from: [number, number], to: [number, number]) => {
      const box = (await canvas.boundingBox())!;
      const at = ([x, y]: [number, number]) => [box.x + (x / 640) * box.width, box.y + (y / 360) * box.height] as const;
      await page.mouse.move(...at(from));
      await page.mouse.down();
      await page.mouse.move(...at(to), { steps: 4 });
      await page.mouse.up();
    };
    // The detector's person is centred at (70, 225) px on its first frame.
    await drag([50, 200], [90, 250]);
    await page.click('button.primary');
    const hit = page.locator(`tr.result-row[data-media-key="${suite.fx.mediaKey}"]`);
    await hit.waitFor();
    expect(await hit.textContent()).toContain(`person`);
    expect(await hit.textContent()).toContain(DETECTOR);
    // Nothing is ever in the top-left corner.
    await drag([2, 2], [30, 30]);
    await page.click('button.primary');
    await page.locator('.search-empty').waitFor();
    expect(await page.locator('tr.result-row').count()).toBe(0);
    await page.context().close();
  });

  it('region search works from the keyboard alone: the region typed as numbers, and a drawn one shown as numbers', async () => {
    const page = await openAs('viewer', '#/search');
    const field = page.getByRole('textbox', { name: 'Region: x, y, width, height (px)' });
    await field.waitFor();
    await field.focus();
    // The detector's person is centred at (70, 225) px on its first frame.
    await page.keyboard.type('50, 200, 40, 50');
    expect(await page.getByRole('img', { name: 'The region: 50, 200, 40, 50 (px of a 640×360 frame)' }).count()).toBe(
      1,
    );
    // On to Search (past Clear and Labels), by Tab.
    for (let i = 0; i < 5 && (await page.evaluate(() => document.activeElement?.textContent)) !== 'Search'; i++)
      await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.locator(`tr.result-row[data-media-key="${suite.fx.mediaKey}"]`).waitFor();
    // A polygon, typed as points.
    await page.getByRole('combobox', { name: 'Shape' }).selectOption('polygon');
    await page.getByRole('textbox', { name: 'Region: x y; x y; x y … (px)' }).fill('0 0; 30 0; 0 30');
    await page.getByRole('button', { name: 'Search' }).press('Enter');
    await page.locator('.search-empty').waitFor();
    // Drawn with the mouse, the region shows as numbers a keyboard user can then change.
    await page.getByRole('combobox', { name: 'Shape' }).selectOption('rectangle');
    const box = (await page.locator('canvas.region-canvas').boundingBox())!;
    await page.mouse.move(box.x + (10 / 640) * box.width, box.y + (20 / 360) * box.height);
    await page.mouse.down();
    await page.mouse.move(box.x + (110 / 640) * box.width, box.y + (220 / 360) * box.height, { steps: 3 });
    await page.mouse.up();
    const [x, y, w, h] = (await page.getByRole('textbox', { name: 'Region: x, y, width, height (px)' }).inputValue())
      .split(', ')
      .map(Number);
    expect([x, y, w, h].map((v, i) => Math.abs(v! - [10, 20, 100, 200][i]!) <= 2)).toEqual([true, true, true, true]);
    await page.context().close();
  });

  it('a box moved and saved as a replacement is what GET /detections/{runId} returns', async () => {
    const before = await getJson(
      `${suite.fx.server.url}/detections/${DETECTOR}?mediaKey=${encodeURIComponent(suite.fx.mediaKey)}`,
      bearer(suite.fx.org.token),
    );
    const person = before.body.data.tracks.find((t: { id: string }) => t.id === 'p1');
    expect(person.boxes[0]).toMatchObject({ frame: 0, x: 40 / 640, y: 150 / 360 });

    const page = await openDemo('editor');
    // Select the detector's person (left of the tracker's box) and drag it 100 px to the right, 20 px down.
    const from = await canvasPoint(page, 42, 200);
    const to = await canvasPoint(page, 142, 220);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => page.locator('.inspect dd[data-field="track"]').textContent()).toBe('p1');
    await page.locator(`.layer[data-run-id="${DETECTOR}"].edited`).waitFor();
    await page.locator(`.layer[data-run-id="${DETECTOR}"] button.save-replace`).click();
    await expect.poll(() => page.locator('.message').textContent()).toContain(`into ${DETECTOR}`);

    const after = await getJson(
      `${suite.fx.server.url}/detections/${DETECTOR}?mediaKey=${encodeURIComponent(suite.fx.mediaKey)}`,
      bearer(suite.fx.org.token),
    );
    expect(after.status).toBe(200);
    const run = after.body.data;
    expect(run.runId).toBe(DETECTOR);
    expect(run.source).toMatchObject({ name: 'yolov8-demo', version: '8.1.0', kind: 'model' });
    expect(run.boxesStored).toBe(before.body.data.boxesStored);
    const moved = run.tracks.find((t: { id: string }) => t.id === 'p1').boxes[0];
    // The canvas may be scaled, so a CSS pixel is a little more or less than a canvas pixel.
    expect(moved.frame).toBe(0);
    expect(moved.x * 640).toBeCloseTo(140, 0);
    expect(moved.y * 360).toBeCloseTo(170, 0);
    expect(moved.w).toBeCloseTo(60 / 640, 6);
    expect(moved.h).toBeCloseTo(150 / 360, 6);
    expect(moved.confidence).toBe(person.boxes[0].confidence);
    // Every other box is untouched.
    expect(run.tracks.find((t: { id: string }) => t.id === 'p1').boxes.slice(1)).toEqual(person.boxes.slice(1));
    await page.context().close();
  });

  it('a correction saved as a new layer becomes a human run; deleting a layer asks first', async () => {
    const page = await openDemo('editor');
    await page.mouse.click(...(Object.values(await canvasPoint(page, 70, 225)) as [number, number]));
    await page.locator('button.delete-track').click();
    await page.locator(`.layer[data-run-id="${TRACKER}"].edited`).waitFor();
    await page.locator(`.layer[data-run-id="${TRACKER}"] button.save-new`).click();
    await expect.poll(() => page.locator('.layer').count()).toBe(3);
    const newRunId = (await page.locator('.layer').nth(2).getAttribute('data-run-id'))!;
    const created = await getJson(
      `${suite.fx.server.url}/detections/${encodeURIComponent(newRunId)}?mediaKey=${encodeURIComponent(suite.fx.mediaKey)}`,
      bearer(suite.fx.org.token),
    );
    expect(created.body.data.source).toMatchObject({
      kind: 'human',
      name: 'bytetrack-demo (corrected)',
      correctedFrom: TRACKER,
    });
    expect(created.body.data.tracks.map((t: { id: string }) => t.id)).toEqual(['t-car']);
    // The original keeps both tracks.
    const original = await getJson(
      `${suite.fx.server.url}/detections/${TRACKER}?mediaKey=${encodeURIComponent(suite.fx.mediaKey)}`,
      bearer(suite.fx.org.token),
    );
    expect(original.body.data.tracksStored).toBe(2);

    page.once('dialog', (d) => void d.dismiss());
    await page.locator(`.layer[data-run-id="${newRunId}"] button.delete-layer`).click();
    expect(await page.locator('.layer').count()).toBe(3);
    page.once('dialog', (d) => void d.accept());
    await page.locator(`.layer[data-run-id="${newRunId}"] button.delete-layer`).click();
    await expect.poll(() => page.locator('.layer').count()).toBe(2);
    const gone = await getJson(
      `${suite.fx.server.url}/detections/${encodeURIComponent(newRunId)}?mediaKey=${encodeURIComponent(suite.fx.mediaKey)}`,
      bearer(suite.fx.org.token),
    );
    expect(gone.status).toBe(404);
    await page.context().close();
  });
});

// The storage account the editor signs its URLs with, named for this process (the server takes it from env).
const account = `editor-ui-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
describeInChromium(
  'editor with a storage account',
  (suite) => {
    beforeAll(async () => {
      const root = path.join(suite.fx.server.config.dataDir, 'media');
      await createProvider(suite.fx.server.store, suite.fx.server.config, suite.fx.org.orgId, {
        name: 'disk',
        type: 'fs',
        config: { root },
      });
      await createAccount(suite.fx.server.store, suite.fx.org.orgId, {
        name: account,
        defaultProvider: 'disk',
        directories: ['*'],
      });
      // Not a playable video: the editor must notice and fall back to its blank canvas.
      for (const name of Object.values(assetNames(suite.fx.mediaKey))) {
        const file = path.join(root, ...name.split('/'));
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, 'not really a video');
      }
    });

    it('loads the video through a signed URL and falls back to a blank canvas when it cannot play', async () => {
      const login = await postJson(`${suite.fx.server.url}/login`, {
        username: suite.fx.username('viewer'),
        password: PASSWORD,
      });
      const context = await suite.browser.newContext();
      await context.addInitScript(
        (session) => sessionStorage.setItem('sightline.session', session),
        JSON.stringify(login.body.data),
      );
      const page = await context.newPage();
      const videoRequests: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/storage/signed')) videoRequests.push(decodeURIComponent(r.url()));
      });
      await page.goto(`${suite.fx.server.url}/#/recording/${encodeURIComponent(suite.fx.mediaKey)}`);
      await page.locator('.no-video').waitFor();
      expect(await page.locator('.no-video').textContent()).toMatch(/in storage but this browser cannot play it/);
      expect(videoRequests.some((u) => u.includes(`f=${suite.fx.mediaKey}`))).toBe(true);
      await page.waitForFunction(() => (window.__sightline?.drawn ?? 0) > 0);
      const timeline = (await page.locator('canvas.timeline').boundingBox())!;
      await page.mouse.click(timeline.x + timeline.width * 0.2 + 1, timeline.y + 10);
      await page.waitForFunction(() => window.__sightline?.frame === 50);
      await context.close();
    });
  },
  {
    env: {
      EDITOR_STORAGE_ACCOUNT: account,
      STORAGE_URL_SIGNING_KEY: 'browser-test-signing-key-0123456789abcdef',
      SIGHTLINE_MASTER_KEY: 'browser-test-master-key-012345678',
    },
  },
);
