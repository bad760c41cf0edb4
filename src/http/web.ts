// Serves the built editor: index.html at `/` (never cached, so a deploy is picked up at once) and the
// content-hashed files under /assets/ (cached for a year: a new build gives them new names).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from './problem.js';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};
const IMMUTABLE = 'public, max-age=31536000, immutable';
// Only flat, plain names: nothing in a request can walk out of the assets folder.
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** <package>/dist/web, from src/http (tsx) and from dist/http (built) alike. */
export function defaultWebDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.resolve(here, '..', '..', 'dist', 'web');
}

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

function readAsset(file: string): Asset | undefined {
  try {
    const body = fs.readFileSync(file);
    const stat = fs.statSync(file);
    return {
      body,
      type: TYPES[path.extname(file)] ?? 'application/octet-stream',
      etag: `"${stat.size.toString(16)}-${stat.mtimeMs.toString(16)}"`,
    };
  } catch {
    return undefined;
  }
}

function sendAsset(reply: FastifyReply, asset: Asset, cacheControl: string, ifNoneMatch: string | undefined) {
  reply.header('Cache-Control', cacheControl).header('ETag', asset.etag).header('X-Content-Type-Options', 'nosniff');
  if (ifNoneMatch === asset.etag) return reply.code(304).send();
  return reply.type(asset.type).send(asset.body);
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Sightline</title>
<p>The editor is not built. Run <code>npm run build</code> and restart the server. The API is at <a href="/docs">/docs</a>.</p>`;

export async function webRoutes(app: FastifyInstance): Promise<void> {
  const dir = app.config.editor?.webDir ?? defaultWebDir();
  const assetsDir = path.join(dir, 'assets');
  // Hashed files never change under one name, so each is read once.
  const cache = new Map<string, Asset>();

  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    // index.html is re-read on every request: it is small, and a rebuild must show without a restart.
    const index = readAsset(path.join(dir, 'index.html'));
    if (!index)
      return reply.code(503).header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(NOT_BUILT);
    reply.header(
      'Content-Security-Policy',
      "default-src 'self'; img-src 'self' data: blob: https: http:; media-src 'self' blob: https: http:; connect-src 'self'; style-src 'self'; script-src 'self'; frame-ancestors 'none'",
    );
    reply.header('Referrer-Policy', 'no-referrer');
    return sendAsset(reply, index, 'no-cache', request.headers['if-none-match']);
  });

  app.get('/assets/:name', { schema: { hide: true } }, async (request, reply) => {
    const { name } = request.params as { name: string };
    let asset = cache.get(name);
    if (!asset && ASSET_NAME.test(name)) {
      asset = readAsset(path.join(assetsDir, name));
      if (asset) cache.set(name, asset);
    }
    if (!asset) throw new ApiError(404, 'route_not_found', `No editor asset "${name}"`);
    return sendAsset(reply, asset, IMMUTABLE, request.headers['if-none-match']);
  });
}
