// The built editor over HTTP: index.html at / never cached, hashed assets cached for a year, nothing outside
// the assets folder reachable, API routes untouched, and a clear page when the editor is not built.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { serverTest, serverTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { buildEditor } from './support.js';

// The editor is built once for the file (buildEditor keeps it), on the first server's start.
const tests = serverTests({ env: async () => ({ SIGHTLINE_WEB_DIR: await buildEditor() }) });
const unbuilt = serverTest('sqlite', {
  env: () => ({ SIGHTLINE_WEB_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-empty-web-')) }),
});

describe.each(DIALECTS)('serving the editor (%s)', (dialect) => {
  const it = tests[dialect];

  it('serves index.html at / with no-cache, and its hashed script and style for a year', async ({ server }) => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await res.text();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.some((a) => /\/assets\/index-[\w-]+\.js$/.test(a))).toBe(true);
    expect(assets.some((a) => /\.css$/.test(a))).toBe(true);
    for (const asset of assets) {
      const file = await fetch(`${server.url}${asset}`);
      expect(file.status).toBe(200);
      expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(file.headers.get('content-type')).toMatch(asset.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
      const again = await fetch(`${server.url}${asset}`, { headers: { 'if-none-match': file.headers.get('etag')! } });
      expect(again.status).toBe(304);
    }
  });

  it('keeps the JavaScript bundle under 150 KB gzipped', async () => {
    const webDir = await buildEditor();
    const { gzipSync } = await import('node:zlib');
    const files = fs.readdirSync(path.join(webDir, 'assets')).filter((f) => f.endsWith('.js'));
    const total = files.reduce((n, f) => n + gzipSync(fs.readFileSync(path.join(webDir, 'assets', f))).length, 0);
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThan(150 * 1024);
  });

  it('answers 404 problem+json for unknown assets and never leaves the assets folder', async ({ server }) => {
    for (const p of [
      '/assets/nope.js',
      '/assets/..%2Findex.html',
      '/assets/%2e%2e%2f%2e%2e%2fpackage.json',
      '/assets/.hidden',
    ]) {
      const res = await fetch(`${server.url}${p}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      // The code of any unknown path (docs/detections.md), not one of its own.
      expect((await res.json()).code).toBe('route_not_found');
    }
  });

  it('leaves the API routes to the API', async ({ server }) => {
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect((await health.json()).data.status).toBe('ok');
    const detections = await fetch(`${server.url}/detections?mediaKey=x`);
    expect(detections.status).toBe(401);
  });
});

describe('an editor that is not built', () => {
  const it = unbuilt;

  it('answers / with 503 and says how to build it', async ({ server }) => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('npm run build');
  });
});
