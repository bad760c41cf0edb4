// A web page on another origin reads a service-signed URL with fetch, Range and If-Range: Chromium sends the preflight
// and enforces the CORS answer itself, so this proves what a player (hls.js, dash.js, canvas capture) sees.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DIALECTS } from '../support/store.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { STORAGE_ENV, getUrl, seedStorage, writeObject } from '../storage/helpers.js';
import { HAS_CHROMIUM, NO_CHROMIUM_MESSAGE, launchChromium } from './support.js';

/** The other origin: a blank page on its own port. */
function pageServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>app'));
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://localhost:${(server.address() as { port: number }).port}`,
        close: () => new Promise<void>((r) => server.close(() => r())),
      }),
    ),
  );
}

if (!HAS_CHROMIUM) {
  describe('signed URLs from another origin in Chromium', () => {
    it.skip(NO_CHROMIUM_MESSAGE, () => {});
  });
} else {
  describe.each(DIALECTS)('signed URLs from another origin in Chromium (%s)', (dialect) => {
    let server: TestServer;
    let page: Awaited<ReturnType<typeof pageServer>>;
    let browser: Browser;
    beforeAll(async () => {
      [server, page, browser] = await Promise.all([
        startTestServer(dialect, { ...STORAGE_ENV, STORAGE_SIGNING: 'true' }),
        pageServer(),
        launchChromium(),
      ]);
    });
    afterAll(async () => {
      await browser?.close();
      await page?.close();
      await server?.close();
    });

    it('fetches a range with If-Range across origins and reads Content-Range and ETag', async () => {
      const fx = await seedStorage(server);
      writeObject(fx.root, 'alice/clip.mp4', Buffer.from('0123456789abcdefghij'));
      const issued = await getUrl(
        server,
        fx.headers({ 'x-service-storage-filename': 'alice/clip.mp4', 'x-service-storage-provider': 'disk' }),
      );
      const url: string = issued.body.data;
      const tab = await browser.newPage();
      await tab.goto(page.url);
      const seen = await tab.evaluate(async (target) => {
        const whole = await fetch(target);
        const etag = whole.headers.get('etag');
        await whole.arrayBuffer();
        // If-Range is not CORS-safelisted: Chromium sends a preflight first, and refuses the answer without CORS.
        const part = await fetch(target, { headers: { Range: 'bytes=10-13', 'If-Range': etag ?? '' } });
        return {
          etag,
          status: part.status,
          contentRange: part.headers.get('content-range'),
          text: await part.text(),
        };
      }, url);
      expect(seen.etag).toMatch(/^"/);
      expect(seen).toMatchObject({ status: 206, contentRange: 'bytes 10-13/20', text: 'abcd' });
      await tab.close();
    });
  });
}
