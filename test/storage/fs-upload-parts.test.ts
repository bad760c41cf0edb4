// An fs upload writes a temporary `.sightline-<hex>.part` beside its target; a process killed midway leaves it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { FsProvider } from '../../src/storage/providers/fs.js';

describe('fs upload leftovers', () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
  });
  const provider = () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-parts-'));
    roots.push(root);
    return { root, fsp: new FsProvider('disk', root) };
  };
  const put = (p: FsProvider, key: string, text: string) =>
    p.put(key, { body: Readable.from([Buffer.from(text)]), size: text.length, contentType: 'text/plain' });

  it('serves no leftover as an object, and the next upload into its folder removes those a day old', async () => {
    const { root, fsp } = provider();
    fs.mkdirSync(path.join(root, 'cams'));
    const stale = path.join(root, 'cams', '.sightline-0123456789ab.part');
    const fresh = path.join(root, 'cams', '.sightline-ba9876543210.part');
    fs.writeFileSync(stale, 'half of a file');
    fs.writeFileSync(fresh, 'an upload under way');
    const dayAgo = new Date(Date.now() - 25 * 3600 * 1000);
    fs.utimesSync(stale, dayAgo, dayAgo);
    await expect(
      fsp.read('cams/.sightline-0123456789ab.part', { method: 'GET', signal: new AbortController().signal }),
    ).rejects.toMatchObject({ status: 404, code: 'object_not_found' });
    await put(fsp, 'cams/clip.mp4', 'whole');
    expect(fs.readdirSync(path.join(root, 'cams')).sort()).toEqual(['.sightline-ba9876543210.part', 'clip.mp4']);
    expect(fs.readFileSync(path.join(root, 'cams', 'clip.mp4'), 'utf8')).toBe('whole');
  });
});
