// A body that holds a scarce turn must keep coming. Without this, two clients trickling a large run at a byte a
// second held both large-body turns until the request timeout (5 minutes), and every other large post waited.
import { Transform, type Readable } from 'node:stream';
import type { MinimumRate } from '../config.js';
import { ApiError } from './problem.js';

export type { MinimumRate };

export interface RateWatched {
  stream: Readable;
  /** Starts the clock: from now on, each window must bring its share of bytes. */
  start(): void;
  /** Stops the clock and lets go of the source: the request has been answered. */
  stop(): void;
}

/**
 * The body as it arrives, failing with 408 `request_timeout` once started if a window brings fewer bytes than the
 * rate asks for the time that really passed. The source is paused, not destroyed, so that the 408 can still be
 * written to the client (the error handler then closes the connection).
 */
export function watchRate(source: Readable, rate: MinimumRate): RateWatched {
  let seen = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const stopClock = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  const watched = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      callback(null, chunk);
    },
    flush(callback) {
      stopClock();
      callback();
    },
  });
  const onData = (chunk: Buffer) => {
    if (!watched.write(chunk)) source.pause();
  };
  source.on('data', onData);
  watched.on('drain', () => {
    if (!watched.destroyed) source.resume();
  });
  source.on('end', () => watched.end());
  // A client that goes away mid-body ends the watched stream too, as a pipe would not.
  source.on('error', (err) => watched.destroy(err));
  source.on('close', () => {
    if (!source.readableEnded && !watched.destroyed) watched.destroy(new Error('aborted'));
  });
  watched.on('close', stopClock);
  // Nobody reads the watched stream when the request is refused before its body (a 413 from Content-Length): its
  // error must not go unheard, which would crash the process.
  watched.on('error', () => {});
  return {
    stream: watched,
    start() {
      if (rate.bytesPerSecond <= 0 || timer || stopped || watched.destroyed) return;
      let since = performance.now();
      seen = 0;
      timer = setInterval(() => {
        const now = performance.now();
        // A late tick means the event loop was busy (a large run being parsed): bytes may be waiting in the socket
        // unread. That window is not the client's fault and is not judged.
        if (now - since > 2 * rate.windowMs) {
          seen = 0;
          since = now;
          return;
        }
        const wanted = (rate.bytesPerSecond * (now - since)) / 1000;
        if (seen < wanted) {
          stopClock();
          source.pause();
          source.removeListener('data', onData);
          watched.destroy(
            new ApiError(
              408,
              'request_timeout',
              `The body arrived at ${Math.round((seen * 1000) / (now - since))} bytes/s; a body of this size must arrive at ${rate.bytesPerSecond} bytes/s or more`,
            ),
          );
          return;
        }
        seen = 0;
        since = now;
      }, rate.windowMs);
      timer.unref();
    },
    stop() {
      stopped = true;
      stopClock();
      source.removeListener('data', onData);
    },
  };
}
