// The e2e tests spawn bin/sightline.js, which runs dist/: a built start takes about a third of a tsx one, and that
// is most of what those tests wait for. So that they test the current sources, dist/ is rebuilt here (tsc only)
// when anything under src/ is newer than the last build. `npm ci` builds it too, through `prepare`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BUILD_STAMP, ROOT, distIsStale } from './built.js';

export default function setup(): void {
  if (!distIsStale()) return;
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' });
  // The declarations of sightline/client, which the package's test compiles a program against.
  execFileSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.client.json')], { cwd: ROOT, stdio: 'inherit' });
  // The stamp is what the next run compares with the sources: make it certainly the newest.
  const now = new Date();
  fs.utimesSync(BUILD_STAMP, now, now);
}
