// Runs as files through the editor in Debian's Chromium: a small MOT file imported with the recording's "Import"
// (the answer shown with its warnings and rejections by position), then the new layer exported as CVAT XML with its
// "Export", the downloaded bytes checked against the rows and against the export route itself.
import fs from 'node:fs';
import { beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { bearer } from '../support/server.js';
import { signedInPage } from './support.js';
import { describeInChromium } from './chromium-suite.js';

// On the demo recording's 640 × 360 frame. Line 3 cannot be read; the others are two tracks, three boxes.
const MOT = '1,7,100,50,200,100,0.9,-1,-1,-1\n2,7,110,50,200,100,0.8,-1,-1,-1\n2,8\n3,8,300,200,50,50,0.7,-1,-1,-1\n';

describeInChromium('run import and export in Chromium', (suite) => {
  beforeAll(async () => {}, 60_000);

  async function openRecording(role: string): Promise<Page> {
    const page = await signedInPage(suite.fx, suite.browser, role, {
      context: { acceptDownloads: true },
      timeoutMs: 30_000,
    });
    await page.goto(`${suite.fx.server.url}/#/recording/${encodeURIComponent(suite.fx.mediaKey)}`);
    await page.locator('.layer').first().waitFor();
    return page;
  }

  it('imports a MOT file, shows the answer, and exports the new layer as CVAT XML', async () => {
    const page = await openRecording('editor');
    await page.locator('.run-import summary').click();
    await page.locator('input.import-file').setInputFiles({
      name: 'tracker.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(MOT),
    });
    expect(await page.locator('select.import-format').inputValue()).toBe('mot');
    await page.locator('button.import-run').click();
    const answer = page.locator('.import-answer[data-status="207"]');
    await answer.waitFor();
    expect(await answer.textContent()).toContain('2 tracks, 3 boxes stored');
    const rejection = answer.locator('.import-rejections li');
    expect(await rejection.count()).toBe(1);
    expect(await rejection.textContent()).toMatch(/^line 3 row_malformed/);
    const runId = (await answer.locator('code').first().textContent())!;
    expect(runId).toMatch(/^mot-[0-9a-f]{32}$/);

    // The layers are read again: the imported run is a layer, with its own Export.
    const layer = page.locator(`.layer[data-run-id="${runId}"]`);
    await layer.waitFor();
    await layer.locator('.run-export summary').click();
    await layer.locator('select.export-format').selectOption('cvat-video');
    const [download] = await Promise.all([page.waitForEvent('download'), layer.locator('button.export-run').click()]);
    expect(download.suggestedFilename()).toBe(`${runId}.xml`);
    const bytes = fs.readFileSync((await download.path())!);
    const xml = bytes.toString('utf8');
    expect(xml).toMatch(/<original_size>\s*<width>640<\/width>\s*<height>360<\/height>/);
    expect(xml.match(/<box frame="\d+" keyframe="1" outside="0"[^>]*/g)).toEqual([
      expect.stringContaining('frame="0" keyframe="1" outside="0" occluded="0" xtl="100" ytl="50" xbr="300" ybr="150"'),
      expect.stringContaining('frame="1" keyframe="1" outside="0" occluded="0" xtl="110" ytl="50" xbr="310" ybr="150"'),
      expect.stringContaining(
        'frame="2" keyframe="1" outside="0" occluded="0" xtl="300" ytl="200" xbr="350" ybr="250"',
      ),
    ]);
    // The same bytes as the route answers.
    const direct = await fetch(
      `${suite.fx.server.url}/detections/${runId}/export?format=cvat-video&mediaKey=${encodeURIComponent(suite.fx.mediaKey)}`,
      { headers: bearer(suite.fx.org.token) },
    );
    expect(Buffer.from(await direct.arrayBuffer()).equals(bytes)).toBe(true);
    expect(await layer.locator('.export-note').textContent()).toContain(`Saved ${runId}.xml`);
    await page.context().close();
  });

  it('a viewer may export but sees no Import', async () => {
    const page = await openRecording('viewer');
    expect(await page.locator('.run-import').count()).toBe(0);
    expect(await page.locator('.layer .run-export').count()).toBeGreaterThan(0);
    await page.context().close();
  });
});
