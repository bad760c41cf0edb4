import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'tick-feedback.ts');

function feedbackAfterQuietCollections(mode: 'pin' | 'control'): { pinned: boolean; states: string[] } {
  // Into a file: V8 writes %DebugPrint through C's buffered stdout, whose flush at exit can lose part of it on a
  // non-blocking pipe.
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-tick-')), 'out.txt');
  const fd = fs.openSync(file, 'w');
  let run: SpawnSyncReturns<string>;
  try {
    run = spawnSync(process.execPath, ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', FIXTURE, mode], {
      encoding: 'utf8',
      stdio: ['ignore', fd, 'pipe'],
    });
  } finally {
    fs.closeSync(fd);
  }
  const stdout = fs.readFileSync(file, 'utf8');
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  expect(run.status, run.stderr).toBe(0);
  const { pinned } = JSON.parse(stdout.slice(0, stdout.indexOf('\n')));
  const states = [...stdout.matchAll(/slot #\d+ DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((m) => m[1]!);
  // Four keys, four caches: a V8 that prints its feedback differently would fail here rather than pass vacuously.
  expect(states).toHaveLength(4);
  return { pinned, states };
}

describe('the pinned tick object', () => {
  it("keeps nextTick's tick-object literal monomorphic through full collections in quiet moments", (ctx) => {
    const control = feedbackAfterQuietCollections('control');
    // The V8 behaviour the pin exists for: without it the literal's caches go megamorphic. A Node whose nextTick no
    // longer works this way has nothing to check.
    if (!control.states.includes('MEGAMORPHIC')) ctx.skip();
    const pinned = feedbackAfterQuietCollections('pin');
    expect(pinned.pinned).toBe(true);
    expect(pinned.states.length).toBe(control.states.length);
    expect(
      pinned.states.every((s) => s === 'MONOMORPHIC'),
      pinned.states.join(' '),
    ).toBe(true);
  });
});
