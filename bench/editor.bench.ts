// Drawing frame time of the editor for a large layer (5000 tracks × 50 boxes) in headless Chromium: the
// editor plays the recording on its clock and records how long each overlay draw took. Then how long an edit
// takes to be answered (the key's handler, the redraw and the side panel's render) on the same layer.
import { upsertRun } from '../src/detections/queries.js';
import { validateRun } from '../src/detections/validate-run.js';
import { seedOrg, startTestServer } from '../test/support/server.js';
import { buildEditor, CHROMIUM, HAS_CHROMIUM, launchChromium } from '../test/web/support.js';
import { buildFrameIndex, updateFrameIndex } from '../src/web/editor/frame-index.js';
import type { Track } from '../src/web/types.js';
import { fmt, median, percentile, type Row, type Suite } from './harness.js';

const TRACKS = 5000;
const BOXES = 50;
const FPS = 60;
const FRAMES = 600;
const PLAY_MS = 6000;
const EDITS = 40;

function largeRun(mediaKey: string) {
  let seed = 42;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const labels = ['person', 'car', 'bicycle', 'dog', 'truck', 'bus'];
  const tracks = Array.from({ length: TRACKS }, (_, t) => {
    const first = Math.floor(rand() * (FRAMES - BOXES));
    let x = rand() * 0.9;
    let y = rand() * 0.9;
    const w = 0.02 + rand() * 0.06;
    const h = 0.03 + rand() * 0.08;
    const boxes = Array.from({ length: BOXES }, (_, k) => {
      x = Math.min(1 - w, Math.max(0, x + (rand() - 0.5) * 0.004));
      y = Math.min(1 - h, Math.max(0, y + (rand() - 0.5) * 0.004));
      return { frame: first + k, x, y, w, h, confidence: Math.round(rand() * 1000) / 1000 };
    });
    return { id: `t${t}`, label: labels[t % labels.length], boxes };
  });
  return {
    mediaKey,
    schemaVersion: '1.0',
    coordinateSpace: 'normalized',
    media: { width: 1920, height: 1080, fps: FPS, frameCount: FRAMES },
    source: { kind: 'model', name: 'large-bench', runId: 'large-1' },
    tracks,
  };
}

export const suite: Suite = {
  name: 'editor',
  title: 'Editor',
  baseline:
    'A layer of 5000 tracks × 50 boxes on a 1920×1080, 60 fps, 600-frame recording, played for 6 s in ' +
    "headless Debian Chromium (`--disable-gpu`), with the labels on the boxes (the editor's default). No " +
    'ratio: the target is at least 30 frames drawn per second. _draw_ is one overlay draw during playback; ' +
    '_draw + raster_ seeks frame by frame and reads a pixel back. _script_: an edit key dispatched until its ' +
    'handler, redraw, timeline and side panel are done (no paint); _answer_: the script and the rendering of ' +
    'the next frame (paint and rasterisation included, the wait for the frame not). The frame index row is ' +
    'the CPU time of updating the index after one moved box, with a full rebuild in brackets (Node).',
  async run(): Promise<Row[]> {
    if (!HAS_CHROMIUM) return [{ note: `skipped: ${CHROMIUM} is absent (apt-get install -y chromium)` }];
    const webDir = await buildEditor();
    const server = await startTestServer('sqlite', { SIGHTLINE_WEB_DIR: webDir });
    const browser = await launchChromium();
    try {
      const org = await seedOrg(server.store, { width: 1920, height: 1080, fps: FPS, frameCount: FRAMES });
      const validated = validateRun(largeRun(org.recording.mediaKey));
      if (!validated.ok) throw new Error(validated.detail);
      await upsertRun(server.store, org.orgId, org.recording, validated);
      const login = await fetch(`${server.url}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        // An editor, so that the edits can be measured too.
        body: JSON.stringify({ username: `editor-${org.name.slice(4)}`, password: 'correct horse battery' }),
      }).then((r) => r.json() as Promise<{ data: unknown }>);
      const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
      await context.addInitScript((s) => sessionStorage.setItem('sightline.session', s), JSON.stringify(login.data));
      const page = await context.newPage();
      const t0 = Date.now();
      await page.goto(`${server.url}/#/recording/${encodeURIComponent(org.recording.mediaKey)}`);
      await page.locator('.layer[data-run-id="large-1"]').waitFor({ timeout: 120_000 });
      await page.waitForFunction(() => (window.__sightline?.drawn ?? 0) > 0);
      const loadMs = Date.now() - t0;
      const rows: Row[] = [];
      for (const trail of [0, 10]) {
        await page.locator('.trail input').fill(String(trail));
        await page.keyboard.press('Escape');
        const timeline = (await page.locator('canvas.timeline').boundingBox())!;
        await page.mouse.click(timeline.x + 1, timeline.y + 5);
        await page.waitForFunction(() => window.__sightline?.frame === 0);
        await page.evaluate(() => {
          window.__sightline!.drawTimes.length = 0;
        });
        await page.locator('button.play').click();
        await page.waitForTimeout(PLAY_MS);
        await page.locator('button.play').click();
        const times = await page.evaluate(() => [...window.__sightline!.drawTimes]);
        // Each frame drawn on demand, then one pixel read back: that waits for the rasterisation too.
        const flushed = await page.evaluate((frames) => {
          const ctx = document.querySelector<HTMLCanvasElement>('canvas.overlay')!.getContext('2d')!;
          const out: number[] = [];
          for (let f = 0; f < frames; f += 2) {
            const t = performance.now();
            window.__sightline!.seek(f);
            ctx.getImageData(0, 0, 1, 1);
            out.push(performance.now() - t);
          }
          return out;
        }, FRAMES);
        rows.push({
          layer: `${TRACKS} tracks × ${BOXES} boxes`,
          trail: `${trail} frames`,
          'boxes per frame (avg)': Math.round((TRACKS * BOXES) / FRAMES),
          draws: times.length,
          'draw median ms': fmt(median(times), 2),
          'draw p99 ms': fmt(percentile(times, 99), 2),
          'draw + raster median ms': fmt(median(flushed), 2),
          'draw + raster p99 ms': fmt(percentile(flushed, 99), 2),
          [`frames drawn per second (clip is ${FPS} fps)`]: fmt((times.length * 1000) / PLAY_MS, 1),
          'open + index (ms)': loadMs,
        });
      }
      rows.push(...(await editAnswers(page)), indexUpdate(org.recording.mediaKey));
      return rows;
    } finally {
      await browser.close();
      await server.close();
    }
  },
};

/**
 * Edit-answer times on the large layer: each key dispatched on the page, timed until its handler, the redraw and
 * the side panel's render are done (_script_: the handler and the microtasks it queued, where Preact renders),
 * then the rendering of the next frame (style, layout, paint and the canvases' rasterisation: from its
 * requestAnimationFrame callback until a MessageChannel post made there arrives, which is after the frame). The
 * answer is their sum: the main thread's work for the edit, without the wait for the frame. (A setTimeout(0) is
 * not used to wait: Chromium clamps it to 4 ms once nested.) A nudge moves the selected box (its track
 * interpolated again); a split and its undo change the track list.
 */
async function editAnswers(page: import('playwright-core').Page): Promise<Row[]> {
  await page.evaluate(() => window.__sightline!.seek(300));
  await page.waitForFunction(() => window.__sightline?.frame === 300);
  await page.locator('canvas.overlay').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press('n');
  await page.locator('.track-tools').waitFor();
  const timed = (keys: Array<{ key: string; ctrlKey?: boolean }>, rounds: number) =>
    page.evaluate(
      async ([keys, rounds]) => {
        const script: number[] = [];
        const answer: number[] = [];
        const channel = new MessageChannel();
        for (let r = 0; r < rounds; r++) {
          for (const k of keys) {
            const t = performance.now();
            document.body.dispatchEvent(new KeyboardEvent('keydown', { ...k, bubbles: true, cancelable: true }));
            // Queued after the microtasks the handler queued (Preact's render among them): they have run here.
            await Promise.resolve();
            const s = performance.now() - t;
            const frame = await new Promise<number>((done) => {
              requestAnimationFrame(() => {
                const f = performance.now();
                channel.port1.onmessage = () => done(performance.now() - f);
                channel.port2.postMessage(null);
              });
            });
            script.push(s);
            answer.push(s + frame);
          }
        }
        return { script, answer };
      },
      [keys, rounds] as const,
    );
  const nudges = await timed([{ key: 'ArrowRight' }, { key: 'ArrowLeft' }], EDITS / 2);
  const splits = await timed([{ key: 's' }, { key: 'z', ctrlKey: true }], EDITS / 2);
  return [
    ['nudge (move the selected box)', nudges],
    ['split here, then undo', splits],
  ].map(([edit, times]) => {
    const { script, answer } = times as { script: number[]; answer: number[] };
    return {
      layer: `${TRACKS} tracks × ${BOXES} boxes`,
      edit: edit as string,
      edits: answer.length,
      'script median ms': fmt(median(script), 2),
      'script p99 ms': fmt(percentile(script, 99), 2),
      'answer median ms': fmt(median(answer), 2),
      'answer p99 ms': fmt(percentile(answer, 99), 2),
    };
  });
}

/**
 * The frame index alone, in Node: CPU time of updating it after one track's box moved, against rebuilding it
 * from every track (what each edit did before), alternated in one loop.
 */
function indexUpdate(mediaKey: string): Row {
  const tracks = largeRun(mediaKey).tracks as Track[];
  let index = buildFrameIndex(tracks);
  const updates: number[] = [];
  const rebuilds: number[] = [];
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  for (let r = 0; r < 100; r++) {
    const edited = tracks[(r * 37) % TRACKS]!;
    const before = { ...edited, boxes: edited.boxes.map((b) => ({ ...b })) };
    edited.boxes[r % BOXES]!.x += r % 2 === 0 ? 0.001 : -0.001;
    let t = cpu();
    index = updateFrameIndex(index, tracks, [edited.id], [before]);
    updates.push(cpu() - t);
    t = cpu();
    buildFrameIndex(tracks);
    rebuilds.push(cpu() - t);
  }
  return {
    layer: `${TRACKS} tracks × ${BOXES} boxes`,
    edit: 'frame index after a box moved: update (rebuild)',
    edits: updates.length,
    'answer median ms': `${fmt(median(updates), 2)} CPU (${fmt(median(rebuilds), 2)})`,
    'answer p99 ms': `${fmt(percentile(updates, 99), 2)} CPU (${fmt(percentile(rebuilds, 99), 2)})`,
  };
}
