// Where log lines go: stdout, through a buffered asynchronous writer (a synchronous write per line costs a system
// call per request).
import pino from 'pino';
import { exitFlushOnce, hasPendingBytes } from '../runtime/sonic-boom-flush.js';

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
  setInterval(() => {
    if (hasPendingBytes(destination)) destination.flush();
  }, 1000).unref();
  destination.flushSync = () => exitFlushOnce(destination);
  return destination;
}
