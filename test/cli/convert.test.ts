// sightline convert, in-process through main(argv, io): no server, no store.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { FIXTURES, fixture } from '../formats/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'sightline-convert-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function convert(args: string[], stdin?: Uint8Array) {
  let stdout = '';
  const bytes: Buffer[] = [];
  let stderr = '';
  const code = await main(['convert', ...args], {
    stdout: {
      write: (chunk: string | Uint8Array) => {
        if (typeof chunk === 'string') stdout += chunk;
        else bytes.push(Buffer.from(chunk));
      },
    },
    stderr: { write: (chunk: string | Uint8Array) => (stderr += String(chunk)) },
    env: {},
    ...(stdin ? { stdin: [stdin] } : {}),
  });
  return { code, stdout, stderr, bytes: Buffer.concat(bytes) };
}

describe('sightline convert', () => {
  it('MOT → CVAT → MOT gives the same bytes, exit 0', async () => {
    // Ground truth in MOT's own order (frames, then tracks); CVAT has no confidence, so gt is what survives it whole.
    const gt =
      '1,1,100,50,200,200,1,1,1\n1,2,300,60,50.5,120,1,3,1\n2,1,102,50,200,200,1,1,1\n4,1,106.25,50,200,200,1,1,1\n';
    const mot = join(dir, 'gt.txt');
    writeFileSync(mot, gt);
    const xml = join(dir, 'run.xml');
    const back = join(dir, 'back.txt');
    const size = ['--width', '1920', '--height', '1080'];
    const there = await convert(['--from', 'mot', '--flavor', 'gt', '--to', 'cvat-video', ...size, mot, '-o', xml]);
    expect(there.code, there.stderr).toBe(0);
    expect(there.stderr).toBe('');
    expect(readFileSync(xml, 'utf8')).toMatch(/<original_size>\s*<width>1920<\/width>/);
    const again = await convert(['--from', 'cvat-video', '--to', 'mot', '--flavor', 'gt', xml, '-o', back]);
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(back, 'utf8')).toBe(gt);
  });

  it('reads standard input (-) and writes standard output', async () => {
    const r = await convert(
      ['--from', 'mot', '--to', 'sightline', '--width', '1920', '--height', '1080', '-'],
      fixture('mot-results.txt'),
    );
    expect(r.code, r.stderr).toBe(0);
    const run = JSON.parse(r.stdout);
    expect(run.tracks.map((t: { id: string }) => t.id)).toEqual(['1', '2']);
    expect(run.source.runId).toBeUndefined();
  });

  it('a yolo folder in, a zip out (bytes on standard output)', async () => {
    const r = await convert(['--from', 'yolo', '--to', 'yolo', join(FIXTURES, 'ultralytics-track')]);
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(unzipSync(r.bytes))).toContain('labels/video_1.txt');
  });

  it('rows it cannot read: on stderr with their line, the rest written, exit 1', async () => {
    const out = join(dir, 'partial.json');
    const r = await convert([
      '--from',
      'mot',
      '--flavor',
      'gt',
      '--to',
      'sightline',
      '--width',
      '1920',
      '--height',
      '1080',
      join(FIXTURES, 'mot-malformed.txt'),
      '-o',
      out,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/line 2: row_malformed/);
    expect(r.stderr).toMatch(/line 5: box_non_positive_dimensions/);
    expect(JSON.parse(readFileSync(out, 'utf8')).tracks.length).toBeGreaterThan(0);
  });

  it('a file it cannot read at all: exit 2 with the position, nothing written', async () => {
    const out = join(dir, 'never.txt');
    const r = await convert(['--from', 'cvat-video', '--to', 'mot', join(FIXTURES, 'cvat-truncated.xml'), '-o', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid_file: .*\(line \d+\)/);
    expect(() => readFileSync(out)).toThrow();
  });

  it('usage errors and a pixel output without a frame size: exit 2', async () => {
    expect((await convert(['--from', 'mot', '--to', 'nope', 'x.txt'])).code).toBe(2);
    expect((await convert(['--from', 'mot', '--to', 'kitti'])).code).toBe(2);
    expect((await convert(['--from', 'mot', '--to', 'kitti', join(dir, 'missing.txt')])).code).toBe(2);
    const file = join(dir, 'mot.txt');
    writeFileSync(file, '1,7,100,50,200,200,0.9,-1,-1,-1\n');
    const noSize = await convert(['--from', 'mot', '--to', 'kitti', file]);
    expect(noSize.code).toBe(2);
    expect(noSize.stderr).toMatch(/media_required/);
  });
});
