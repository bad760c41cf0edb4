// Regenerates the editor screenshots in docs/: `node --import tsx test/web/screenshots.ts`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PASSWORD, launchChromium, startEditorServer } from './support.js';

const docs = fileURLToPath(new URL('../../docs', import.meta.url));
const fx = await startEditorServer('sqlite');
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${fx.server.url}/`);
  await page.fill('input[name=username]', fx.username('editor'));
  await page.fill('input[name=password]', 'wrong');
  await page.click('button[type=submit]');
  await page.locator('.signin .error').waitFor();
  await page.screenshot({ path: path.join(docs, 'editor-sign-in.png') });
  await page.fill('input[name=password]', PASSWORD);
  await page.click('button[type=submit]');
  await page.locator('tr.recording-row').waitFor();
  await page.waitForFunction(() => document.querySelector('td.labels')?.textContent !== '—');
  await page.screenshot({ path: path.join(docs, 'editor-recordings.png') });
  await page.locator('tr.recording-row').click();
  await page.locator('.layer').nth(1).waitFor();
  await page.waitForFunction(() => (window.__sightline?.drawn ?? 0) > 0);
  await page.evaluate(() => window.__sightline!.seek(140));
  const box = (await page.locator('canvas.overlay').boundingBox())!;
  // The detector's person around frame 140 (x ≈ 310–370 px, y ≈ 160–310 px of 640×360).
  await page.mouse.click(box.x + (335 / 640) * box.width, box.y + (230 / 360) * box.height);
  await page.screenshot({ path: path.join(docs, 'editor-recording.png'), fullPage: true });
  await page.goto(`${fx.server.url}/#/search`);
  const canvas = page.locator('canvas.region-canvas');
  await canvas.waitFor();
  const c = (await canvas.boundingBox())!;
  const at = (x: number, y: number) => [c.x + (x / 640) * c.width, c.y + (y / 360) * c.height] as const;
  await page.selectOption('select[name=mode]', 'polygon');
  for (const [x, y] of [
    [40, 180],
    [200, 170],
    [260, 260],
    [120, 330],
    [60, 280],
  ] as const)
    await page.mouse.click(...at(x, y));
  await page.click('text=Close polygon');
  await page.click('button.primary');
  await page.locator('tr.result-row').waitFor();
  await page.screenshot({ path: path.join(docs, 'editor-region-search.png'), fullPage: true });
  console.log('screenshots written to', docs);
} finally {
  await browser.close();
  await fx.server.close();
}
