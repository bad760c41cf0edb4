// The embedded store's WAL checkpoints, moved off the request path. By default SQLite checkpoints inside the commit
// that takes the WAL past 1000 pages: that commit copies ~4 MB into the database file and waits for two fsyncs, and
// on a stream of small runs it made one write in a hundred take 5–35 ms (about 150 µs on every write on average).
// A serving process instead turns automatic checkpoints off on its own connection and lets a worker thread, with
// its own connection, run PASSIVE checkpoints (which never wait for readers or writers).
// Durability is unchanged: a commit is in the WAL either way; checkpoints only move pages into the main file.
//
// The WAL file is reused from its start only when a write begins after a checkpoint has copied every frame. Under
// steady writes PASSIVE checkpoints never catch up (the writer commits while they copy), so the WAL grew without
// bound (240 MiB in six seconds of small runs) and every commit appended to a growing file: measured in-process,
// a commit of 60 pages cost 2.1 ms of CPU appending against 0.7 ms overwriting, most of the difference the kernel
// zeroing and allocating new pages. So when the WAL is long, the worker follows its passes with a RESTART, which
// makes the next write start the file over (see the worker's comments for what that costs writers).
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SqliteDatabase from 'better-sqlite3';

const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
// 1000 frames: about 4 MiB of WAL, SQLite's own checkpoint threshold.
const RESTART_FRAMES = 1000;
// A RESTART waits until a PASSIVE pass finds at most this many new frames (1 MiB), so that little is left to copy
// while writers wait; after this many passes it gives up until the next tick.
const SMALL_FRAMES = 256;
const MAX_PASSES = 8;

// CommonJS, evaluated in the worker: it needs only the driver, whose resolved path is handed over.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
// Short: a RESTART holds writers off while it waits, and a busy moment is better left to the next tick.
db.pragma('busy_timeout = 5');
const passive = () => db.pragma('wal_checkpoint(PASSIVE)')[0];
// PASSIVE passes copy the WAL without holding anyone up, each one what was committed during the last. Once a pass
// finds little new, a RESTART copies the rest and waits until no reader uses the WAL, so that the next write starts
// the file over; writers wait for it, a millisecond or two. A writer faster than the passes, or a reader holding an
// old snapshot, leaves it to the next tick.
// A busy or locked store is another process checkpointing or writing: the next tick retries. Anything else (a full
// disk, an I/O error) is told to the serving thread once, and again only when it changes or clears, so that the log
// shows why the WAL grows without repeating itself twice a second.
let failing = '';
const report = (failure) => {
  if (failure !== failing) parentPort.postMessage({ failure, previous: failing });
  failing = failure;
};
const checkpoint = () => {
  try {
    let state = passive();
    for (let pass = 0; pass < workerData.maxPasses && state.log >= workerData.restartFrames; pass++) {
      const before = state.log;
      state = passive();
      if (state.log - before <= workerData.smallFrames) { db.pragma('wal_checkpoint(RESTART)'); break; }
    }
    report('');
  } catch (err) {
    if (!/^SQLITE_(BUSY|LOCKED)/.test(String(err && err.code))) report(String((err && err.code) || 'error') + ': ' + String(err && err.message));
  }
};
let timer;
const tick = () => { checkpoint(); timer = setTimeout(tick, workerData.intervalMs); };
timer = setTimeout(tick, workerData.intervalMs);
parentPort.on('message', () => {
  clearTimeout(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

export interface WalCheckpointer {
  stop(): Promise<void>;
}

/** What the checkpointer has to say: a failure that started (`failure`) or ended (`failure` empty, `previous` set). */
export type CheckpointReport = { failure: string; previous: string };

export interface WalCheckpointerOptions {
  onReport?: (report: CheckpointReport) => void;
  intervalMs?: number;
  /** The driver module the worker loads (tests hand it one that fails on purpose); better-sqlite3 by default. */
  driver?: string;
}

export function startWalCheckpointer(
  sqlite: SqliteDatabase.Database,
  options: WalCheckpointerOptions = {},
): WalCheckpointer {
  const { onReport = () => {}, intervalMs = 500 } = options;
  const driver = options.driver ?? createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      driver,
      file: sqlite.name,
      intervalMs,
      restartFrames: RESTART_FRAMES,
      smallFrames: SMALL_FRAMES,
      maxPasses: MAX_PASSES,
    },
  });
  sqlite.pragma('wal_autocheckpoint = 0');
  let stopping = false;
  // Should the worker ever die, the connection goes back to checkpointing itself: the WAL must not grow unbounded.
  const restore = () => {
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
  };
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', () => {
      restore();
      resolve();
    });
  });
  worker.on('message', (report: CheckpointReport) => onReport(report));
  // An error is always followed by 'exit', which restores; without a listener it would be thrown here instead.
  worker.on('error', (err) =>
    onReport({
      failure: `the checkpoint worker stopped (${err.message}); the store checkpoints on commit from now on`,
      previous: '',
    }),
  );
  // The timer must not keep a process alive that has nothing else to do.
  worker.unref();
  return {
    stop() {
      if (!stopping) {
        stopping = true;
        // Whoever awaits the stop keeps the process alive until the worker is gone: unreferenced, a process with
        // nothing else left (a server whose listen just failed) would exit 0 in the middle of the await.
        worker.ref();
        worker.postMessage('stop');
      }
      return exited;
    },
  };
}
