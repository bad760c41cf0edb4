// The embedded store's WAL checkpoints, moved off the request path. By default SQLite checkpoints inside the commit
// that takes the WAL past 1000 pages: that commit copies ~4 MB into the database file and waits for two fsyncs, and
// on a stream of small runs it made one write in a hundred take 5–35 ms (about 150 µs on every write on average).
// A serving process instead turns automatic checkpoints off on its own connection and lets a worker thread, with
// its own connection, run PASSIVE checkpoints (which never wait for readers or writers) every half second.
// Durability is unchanged: a commit is in the WAL either way; checkpoints only move pages into the main file.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SqliteDatabase from 'better-sqlite3';

const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

// CommonJS, evaluated in the worker: it needs only the driver, whose resolved path is handed over.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
const checkpoint = () => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* another process is checkpointing: the next tick retries */ }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

export interface WalCheckpointer { stop(): Promise<void> }

export function startWalCheckpointer(sqlite: SqliteDatabase.Database, intervalMs = 500): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file: sqlite.name, intervalMs } });
  sqlite.pragma('wal_autocheckpoint = 0');
  let stopping = false;
  // Should the worker ever die, the connection goes back to checkpointing itself: the WAL must not grow unbounded.
  const restore = () => {
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
  };
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', () => { restore(); resolve(); });
  });
  // An error is always followed by 'exit', which restores; without a listener it would be thrown here instead.
  worker.on('error', () => {});
  // The timer must not keep a process alive that has nothing else to do.
  worker.unref();
  return {
    stop() {
      if (!stopping) {
        stopping = true;
        worker.postMessage('stop');
      }
      return exited;
    },
  };
}
