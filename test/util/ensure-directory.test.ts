// mkdir -p that fails with the reason instead of hanging, as Node's recursive mkdirSync does under /proc.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureDirectory } from '../../src/util/ensure-directory.js';
import { runCli } from '../support/cli.js';

const base = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-dir-'));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('ensureDirectory', () => {
  it('makes every missing folder of a path, and is happy with one that exists', () => {
    const deep = path.join(base, 'a', 'b', 'c');
    ensureDirectory(deep);
    expect(fs.statSync(deep).isDirectory()).toBe(true);
    ensureDirectory(deep);
    ensureDirectory(path.join(base, 'a'));
  });

  it('refuses a path through or onto a file', () => {
    const file = path.join(base, 'file');
    fs.writeFileSync(file, 'x');
    expect(() => ensureDirectory(path.join(file, 'below'))).toThrow(/ENOTDIR/);
    expect(() => ensureDirectory(file)).toThrow(/ENOTDIR/);
  });

  it.skipIf(!fs.existsSync('/proc/1'))('fails at once for a folder that can never be made under /proc', () => {
    expect(() => ensureDirectory('/proc/1/sightline-data/x')).toThrow(/ENOENT|EACCES|EPERM/);
  });

  it.skipIf(!fs.existsSync('/proc/1'))(
    'the CLI given such a --data exits 1 naming the folder, instead of hanging',
    async () => {
      const res = await runCli(['admin', 'org', 'create', '--name', 'x'], { dataDir: '/proc/1/sightline-data' });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('/proc/1/sightline-data');
    },
    30_000,
  );
});
