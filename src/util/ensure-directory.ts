// mkdir -p that fails instead of hanging: Node's recursive mkdirSync loops for ever on a path it can never create
// under /proc (`serve --data /proc/1/x` hung at start), so the missing folders are made one by one.
import fs from 'node:fs';
import path from 'node:path';

export function ensureDirectory(dir: string): void {
  const missing: string[] = [];
  let at = path.resolve(dir);
  while (!fs.existsSync(at)) {
    missing.unshift(at);
    const up = path.dirname(at);
    if (up === at) break;
    at = up;
  }
  for (const folder of missing) {
    try {
      fs.mkdirSync(folder);
    } catch (err) {
      // Made by another process in the meantime: fine if it is a folder.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !fs.statSync(folder).isDirectory()) throw err;
    }
  }
  if (!fs.statSync(at).isDirectory() && missing.length === 0)
    throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}'`), { code: 'ENOTDIR' });
}
