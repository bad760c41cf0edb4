// Where log lines go: stdout, through a buffered asynchronous writer (a synchronous write per line costs a system
// call per request).
import fs from 'node:fs';
import pino from 'pino';

/** sonic-boom's buffers (4.x), read only to write them out once at exit. */
interface Buffered {
  _bufs?: Array<string | Buffer>;
  _writingBuf?: string | Buffer;
  _writing?: boolean;
  _len?: number;
}

/**
 * What is buffered goes out within a second even on a quiet server (an operator watching the log sees a request,
 * or an error, at once), and at exit. pino flushes at exit with sonic-boom's flushSync, which retries a failed
 * write for ever: a process whose stdout reader was gone (`serve | head`) never finished exiting after SIGTERM. Here
 * the exit flush writes what is buffered once, and drops it if nobody reads.
 */
export function asyncStdout() {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  // Logging must not crash the server: pino itself silences a broken pipe (EPIPE); anything else ends here.
  destination.on('error', () => {});
  const internal = destination as unknown as Buffered;
  setInterval(() => {
    if (internal._len !== 0) destination.flush();
  }, 1000).unref();
  destination.flushSync = () => writeOnce(internal);
  return destination;
}

function writeOnce(internal: Buffered): void {
  if (!Array.isArray(internal._bufs)) return;
  // A write in flight owns its buffer; what waits behind it is in _bufs.
  const pending = [internal._writing ? undefined : internal._writingBuf, ...internal._bufs];
  internal._bufs = [];
  if (!internal._writing) internal._writingBuf = '';
  internal._len = 0;
  try {
    for (const chunk of pending) {
      if (chunk === undefined || chunk.length === 0) continue;
      if (typeof chunk === 'string') fs.writeSync(1, chunk);
      else fs.writeSync(1, chunk);
    }
  } catch {
    // Nobody reads stdout: the lines are lost, and the process still exits.
  }
}
