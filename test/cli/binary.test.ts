// Smoke tests of the real executable: bin/sightline.js over dist/, in a process of its own. Everything else about
// the commands is tested in-process through main(argv, io).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../support/cli.js';

describe('the sightline binary', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bin-'));
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints its usage for --help and exits 0', async () => {
    const r = await spawnCli(['--help'], { dataDir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^usage: sightline <command>/);
  });

  it('runs a command against a store and prints one JSON object, then exits 0', async () => {
    const r = await spawnCli(['admin', 'org', 'create', '--name', 'smoke', '--json'], { dataDir });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'smoke' });
  });

  it('exits 2 with the reason on stderr for an unknown command', async () => {
    const r = await spawnCli(['frobnicate'], { dataDir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown command "frobnicate"');
  });
});
