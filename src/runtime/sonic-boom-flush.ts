// The log destination's exit flush, written against sonic-boom's private buffers (4.x): its own flushSync retries a
// failed write for ever, so a process whose stdout reader is gone never finished exiting. Not a Node internal, but as
// fragile: re-check the field names when sonic-boom's major changes (test/http/logging.test.ts covers the exit).
import fs from 'node:fs';

/** sonic-boom's buffers (4.x), read only to write them out once at exit. */
interface Buffered {
  _bufs?: Array<string | Buffer>;
  _writingBuf?: string | Buffer;
  _writing?: boolean;
  _len?: number;
}

/** Whether the destination holds bytes not yet written (true when its buffers cannot be read). */
export function hasPendingBytes(destination: object): boolean {
  return (destination as Buffered)._len !== 0;
}

/** Writes what is buffered once, and drops it if nobody reads. */
export function exitFlushOnce(destination: object): void {
  writeOnce(destination as Buffered);
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
