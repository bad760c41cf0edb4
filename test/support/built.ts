// Whether dist/ (what bin/sightline.js runs) is at least as new as the sources it is built from.
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
/** tsc writes every output; this one stands for the build. */
export const BUILD_STAMP = path.join(ROOT, 'dist', 'cli', 'main.js');

function newestMtime(dir: string, skip: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (p === skip) continue;
    const t = entry.isDirectory() ? newestMtime(p, skip) : fs.statSync(p).mtimeMs;
    if (t > newest) newest = t;
  }
  return newest;
}

/** The editor (src/web) is bundled by vite, not tsc, and the spawned servers' tests do not need it. */
export function distIsStale(): boolean {
  const sources = newestMtime(path.join(ROOT, 'src'), path.join(ROOT, 'src', 'web'));
  const built = fs.existsSync(BUILD_STAMP) ? fs.statSync(BUILD_STAMP).mtimeMs : 0;
  return built < sources;
}
