// The serving process's WAL checkpoints run in a worker, not inside the commits of requests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/db/store.js';
import { startWalCheckpointer, type CheckpointReport } from '../../src/db/wal-checkpointer.js';

const PAGE = 4096;

describe('WAL checkpointer', () => {
  let store: Store | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await store?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Waits until the condition holds, failing after the deadline (the worker runs on its own clock). */
  async function eventually(condition: () => boolean, what: string, ms = 10_000) {
    const deadline = Date.now() + ms;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it("turns the connection's own checkpoints off, moves committed pages into the database file, and restores them on stop", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-wal-'));
    store = openStore({ dataDir: dir });
    const sqlite = store.sqlite!;
    const file = path.join(dir, 'sightline.db');
    sqlite.exec('create table filler (id integer primary key, data blob)');
    const checkpointer = startWalCheckpointer(sqlite, { intervalMs: 50 });
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const before = fs.statSync(file).size;
    // 1500 pages in one commit: past the 1000 at which the connection would have checkpointed by itself.
    const insert = sqlite.prepare('insert into filler (data) values (?)');
    sqlite.transaction(() => {
      for (let i = 0; i < 1500; i++) insert.run(Buffer.alloc(PAGE - 100, i % 251));
    })();
    await eventually(() => fs.statSync(file).size >= before + 1400 * PAGE, 'the pages to reach the database file');
    await checkpointer.stop();
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect((sqlite.prepare('select count(*) as n from filler').get() as { n: number }).n).toBe(1500);
  });

  it('keeps the WAL bounded under steady writes: the file starts over instead of growing with every commit', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-wal-'));
    store = openStore({ dataDir: dir });
    const sqlite = store.sqlite!;
    sqlite.exec('create table filler (id integer primary key, data blob)');
    const checkpointer = startWalCheckpointer(sqlite, { intervalMs: 50 });
    const insert = sqlite.prepare('insert into filler (data) values (?)');
    const commit = sqlite.transaction((n: number) => {
      for (let i = 0; i < 16; i++) insert.run(Buffer.alloc(PAGE - 100, (n + i) % 251));
    });
    // A commit every millisecond or so, as a busy server makes them: the checkpoints never find the WAL idle.
    const commits = 1500;
    for (let n = 0; n < commits; n++) {
      commit(n);
      await new Promise((r) => setTimeout(r, 1));
    }
    const written = commits * 16 * PAGE;
    const wal = fs.statSync(path.join(dir, 'sightline.db-wal')).size;
    await checkpointer.stop();
    expect((sqlite.prepare('select count(*) as n from filler').get() as { n: number }).n).toBe(commits * 16);
    expect(
      wal,
      `WAL of ${(wal / 2 ** 20).toFixed(1)} MiB after ${(written / 2 ** 20).toFixed(0)} MiB written`,
    ).toBeLessThan(written / 4);
  });

  it('stops at once when asked twice, and leaves the connection usable', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-wal-'));
    store = openStore({ dataDir: dir });
    const checkpointer = startWalCheckpointer(store.sqlite!, { intervalMs: 50 });
    await Promise.all([checkpointer.stop(), checkpointer.stop()]);
    expect(store.sqlite!.prepare('select 1 as one').get()).toEqual({ one: 1 });
  });

  it('reports a failing checkpoint once and its recovery once, and keeps quiet about a busy store', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-wal-'));
    store = openStore({ dataDir: dir });
    const failure = path.join(dir, 'failure');
    const attempts = () => {
      try {
        return fs.readFileSync(`${failure}.attempts`, 'utf8').trim().split('\n');
      } catch {
        return [];
      }
    };
    const countOf = (code: string) => attempts().filter((a) => a === code).length;
    process.env.SIGHTLINE_TEST_CHECKPOINT_FAILURE = failure;
    const reports: CheckpointReport[] = [];
    const checkpointer = startWalCheckpointer(store.sqlite!, {
      intervalMs: 20,
      onReport: (r) => reports.push(r),
      driver: path.resolve('test/support/failing-sqlite-driver.cjs'),
    });
    try {
      fs.writeFileSync(failure, 'SQLITE_BUSY');
      await eventually(() => countOf('SQLITE_BUSY') >= 3, 'three busy checkpoints');
      fs.writeFileSync(failure, 'SQLITE_IOERR_WRITE');
      await eventually(() => countOf('SQLITE_IOERR_WRITE') >= 3, 'three failed checkpoints');
      fs.rmSync(failure);
      await eventually(() => countOf('ok') >= 2, 'two good checkpoints');
    } finally {
      await checkpointer.stop();
      delete process.env.SIGHTLINE_TEST_CHECKPOINT_FAILURE;
    }
    const ioerr = 'SQLITE_IOERR_WRITE: injected SQLITE_IOERR_WRITE';
    expect(reports).toEqual([
      { failure: ioerr, previous: '' },
      { failure: '', previous: ioerr },
    ]);
  });
});
