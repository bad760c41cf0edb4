// The editor's comparison mode in Debian's Chromium against a real server: a ground truth and a prediction posted
// over HTTP (one known false positive, one known miss, one identity switch), compared in the editor; the canvas
// pixels show the false positive red and the miss orange where their boxes are, the switch marked on its frame, the
// timeline's switch mark seeks, and the panel's figures are the evaluation engine's.
import { beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { evaluate } from '../../src/evaluation/evaluate.js';
import { boxSetFromRows } from '../../src/evaluation/layout.js';
import { bearer, getJson, postJson } from '../support/server.js';
import { signedInPage } from './support.js';
import { describeInChromium } from './chromium-suite.js';

const W = 640;
const H = 360;
// Pixel boxes [x, y, w, h]. A is seen in every frame; the prediction follows it as p-a, then (frame 5 on) as p-a2:
// an identity switch at frame 5. B is missed at frame 3. p-fp is a false positive at frame 3 where nothing is.
const A = [50, 100, 60, 100];
const B = [300, 50, 80, 120];
const FP = [480, 200, 100, 100];
const SWITCH_FRAME = 5;
const MISS_FRAME = 3;
const FRAMES = 10;

const box = (frame: number, [x, y, w, h]: number[], confidence?: number) => ({
  frame,
  x1: x!,
  y1: y!,
  x2: x! + w!,
  y2: y! + h!,
  ...(confidence === undefined ? {} : { confidence }),
});
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);

function runs(mediaKey: string) {
  const common = { mediaKey, schemaVersion: '1.0', coordinateSpace: 'pixel', media: { width: W, height: H } };
  const shift = ([x, y, w, h]: number[]) => [x! + 3, y! + 2, w!, h!];
  return {
    gt: {
      ...common,
      source: { kind: 'human', name: 'ground-truth', runId: 'gt-1' },
      tracks: [
        { id: 'a', label: 'person', boxes: range(0, FRAMES).map((f) => box(f, A)) },
        { id: 'b', label: 'person', boxes: range(0, FRAMES).map((f) => box(f, B)) },
      ],
    },
    pred: {
      ...common,
      source: { kind: 'model', name: 'tracker', runId: 'pred-1' },
      tracks: [
        { id: 'p-a', label: 'person', boxes: range(0, SWITCH_FRAME).map((f) => box(f, shift(A), 0.9)) },
        { id: 'p-a2', label: 'person', boxes: range(SWITCH_FRAME, FRAMES).map((f) => box(f, shift(A), 0.8)) },
        {
          id: 'p-b',
          label: 'person',
          boxes: range(0, FRAMES)
            .filter((f) => f !== MISS_FRAME)
            .map((f) => box(f, shift(B), 0.7)),
        },
        { id: 'p-fp', label: 'person', boxes: [box(MISS_FRAME, FP, 0.6)] },
      ],
    },
  };
}

/** RGBA of one overlay pixel (canvas pixels). */
async function pixel(page: Page, x: number, y: number): Promise<number[]> {
  return page.evaluate(
    ([px, py]) => {
      const canvas = document.querySelector<HTMLCanvasElement>('canvas.overlay')!;
      return Array.from(canvas.getContext('2d')!.getImageData(px!, py!, 1, 1).data);
    },
    [x, y],
  );
}

const isRed = ([r, g, b, a]: number[]) => r! > 200 && g! < 100 && b! < 100 && a! > 0;
const isOrange = ([r, g, b, a]: number[]) => r! > 200 && g! > 110 && g! < 190 && b! < 60 && a! > 200;
const isMagenta = ([r, g, b, a]: number[]) => r! > 200 && g! < 100 && b! > 200 && a! > 200;

async function seek(page: Page, frame: number) {
  await page.evaluate((f) => window.__sightline!.seek(f), frame);
  await page.waitForFunction((f) => window.__sightline?.frame === f, frame);
}

describeInChromium('comparison mode in Chromium', (suite) => {
  let page: Page;
  const workers: string[] = [];

  beforeAll(async () => {
    // Only the two runs compared here stay on the recording.
    for (const runId of ['demo-detector-1', 'demo-tracker-1']) {
      const res = await fetch(
        `${suite.fx.server.url}/detections/${runId}?mediaKey=${encodeURIComponent(suite.fx.mediaKey)}`,
        {
          method: 'DELETE',
          headers: bearer(suite.fx.org.token),
        },
      );
      expect(res.status).toBe(200);
    }
    const { gt, pred } = runs(suite.fx.mediaKey);
    for (const body of [gt, pred]) {
      const res = await postJson(`${suite.fx.server.url}/detections`, body, bearer(suite.fx.org.token));
      expect(res.status).toBe(201);
    }
    page = await signedInPage(suite.fx, suite.browser, 'viewer', { timeoutMs: 30_000 });
    page.on('worker', (worker) => workers.push(worker.url()));
    await page.goto(`${suite.fx.server.url}/#/recording/${encodeURIComponent(suite.fx.mediaKey)}`);
    await page.locator('.layer[data-run-id="pred-1"]').waitFor();
    await page.waitForFunction(() => window.__sightline?.drawn !== undefined);
    await page.locator('select.compare-gt').selectOption('gt-1');
    await page.locator('select.compare-pred').selectOption('pred-1');
    await page.locator('button.compare-run').click();
    await page.waitForFunction(() => window.__sightline?.comparing === true);
  });

  it('draws the false positive red and the miss orange where their boxes are', async () => {
    await seek(page, MISS_FRAME);
    const [fx0, fy0, fw, fh] = FP as [number, number, number, number];
    // Dashed red outline: red pixels along the top edge, a faint red fill inside.
    const edge = await Promise.all(range(0, 20).map((k) => pixel(page, fx0 + 5 + k * 4, fy0)));
    expect(edge.filter(isRed).length).toBeGreaterThan(4);
    expect(isRed(await pixel(page, fx0 + fw / 2, fy0 + fh / 2))).toBe(true);
    // Hollow orange: the outline is orange, the inside left clear.
    const [bx, by, bw, bh] = B as [number, number, number, number];
    expect(isOrange(await pixel(page, bx, by + bh / 2))).toBe(true);
    expect(isOrange(await pixel(page, bx + bw, by + bh / 2))).toBe(true);
    expect((await pixel(page, bx + bw / 2, by + bh / 2))[3]).toBe(0);
    // A matched box is neither: A's outline at the same frame.
    const a = await pixel(page, A[0]!, A[1]! + 50);
    expect(isRed(a) || isOrange(a)).toBe(false);
    expect(a[3]).toBe(255);
    // One frame later B is matched and the false positive is gone.
    await seek(page, MISS_FRAME + 1);
    expect(isOrange(await pixel(page, bx, by + bh / 2))).toBe(false);
    expect(isRed(await pixel(page, fx0 + fw / 2, fy0 + fh / 2))).toBe(false);
  });

  it('marks the identity switch on its frame only', async () => {
    await seek(page, SWITCH_FRAME);
    expect(isMagenta(await pixel(page, A[0]!, A[1]!))).toBe(true);
    await seek(page, SWITCH_FRAME + 1);
    expect(isMagenta(await pixel(page, A[0]!, A[1]!))).toBe(false);
  });

  it("a click on the timeline's switch mark seeks to the switch", async () => {
    await seek(page, 0);
    const timeline = (await page.locator('canvas.timeline').boundingBox())!;
    const frames = await page.evaluate(() => window.__sightline!.frames);
    // Two CSS pixels right of the mark's centre: the click snaps to the switch.
    const x = timeline.x + ((SWITCH_FRAME + 0.5) / frames) * timeline.width + 2;
    await page.mouse.click(x, timeline.y + 10);
    await page.waitForFunction((f) => window.__sightline?.frame === f, SWITCH_FRAME);
    // The panel lists the switch too, and its button seeks.
    await seek(page, 0);
    await page.locator('button.switch-frame', { hasText: String(SWITCH_FRAME) }).click();
    await page.waitForFunction((f) => window.__sightline?.frame === f, SWITCH_FRAME);
  });

  it("the panel's figures are the evaluation engine's, with the full table a click away", async () => {
    // The engine on the runs as the server returns them.
    const sides = await Promise.all(
      ['gt-1', 'pred-1'].map(async (runId) => {
        const res = await getJson(
          `${suite.fx.server.url}/detections/${runId}?mediaKey=${encodeURIComponent(suite.fx.mediaKey)}`,
          bearer(suite.fx.org.token),
        );
        const rows = {
          f: [] as number[],
          ids: [] as number[],
          xywh: [] as number[],
          cls: [] as number[],
          s: [] as number[],
        };
        res.body.data.tracks.forEach(
          (
            t: {
              confidence?: number;
              boxes: { frame: number; x: number; y: number; w: number; h: number; confidence?: number }[];
            },
            ti: number,
          ) => {
            for (const b of t.boxes) {
              rows.f.push(b.frame);
              rows.ids.push(ti);
              rows.xywh.push(b.x * W, b.y * H, b.w * W, b.h * H);
              rows.cls.push(0);
              rows.s.push(b.confidence ?? t.confidence ?? 1);
            }
          },
        );
        return boxSetFromRows(
          suite.fx.org.recording.frameCount ?? FRAMES,
          rows.f,
          rows.ids,
          rows.xywh,
          rows.cls,
          rows.s,
        );
      }),
    );
    const numFrames = suite.fx.org.recording.frameCount ?? FRAMES;
    const want = evaluate([{ name: 'r', numFrames, gt: sides[0]!, pred: sides[1]! }], {
      classNames: ['person'],
      metrics: ['hota', 'clear', 'identity', 'count', 'coco'],
    }).combined;
    expect(want.IDSW).toBe(1);
    expect(want.CLR_FP).toBe(1);
    expect(want.CLR_FN).toBe(1);
    for (const field of ['HOTA', 'MOTA', 'IDF1', 'AP', 'AP50']) {
      const cell = page.locator(`.compare-figures dd[data-field="${field}"]`);
      expect(Math.abs(Number(await cell.getAttribute('data-value')) - (want[field] as number))).toBeLessThanOrEqual(
        1e-9,
      );
      expect(await cell.textContent()).toBe((want[field] as number).toFixed(4));
    }
    // Scored off the page's thread.
    expect(workers.some((url) => /compare-worker/.test(url))).toBe(true);
    await page.locator('.compare-all summary').click();
    await expect.poll(() => page.locator('.compare-table td[data-field="IDSW"]').textContent()).toBe('1');
    expect(await page.locator('.compare-table td[data-field="CLR_FP"]').textContent()).toBe('1');
    expect(await page.locator('.compare-table td[data-field="DetA"]').isVisible()).toBe(true);
  });
});
