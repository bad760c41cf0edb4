// Swagger UI at /docs still works under its Content-Security-Policy, in Debian's Chromium: the page renders the API,
// loads the OpenAPI document, and the browser reports no violation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.js';
import { HAS_CHROMIUM, launchChromium } from './support.js';

describe.skipIf(!HAS_CHROMIUM)('/docs under its CSP in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer('sqlite'), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('renders the API and its operations with no CSP violation', async () => {
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { reportViolation(t: string): void }).reportViolation(
          `${e.violatedDirective} ${e.blockedURI}`,
        ),
      );
    });
    const answer = await page.goto(`${server.url}/docs`);
    expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.locator('.swagger-ui .info .title').waitFor({ timeout: 15_000 });
    expect(await page.locator('.swagger-ui .info .title').textContent()).toContain('Sightline API');
    await page.locator('.opblock-summary-path', { hasText: '/login' }).first().waitFor();
    expect(violations).toEqual([]);
  });
});
