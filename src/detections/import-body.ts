// The import route's body, read by the format's reader as it arrives instead of being gathered first: the reading
// of a 31 MiB file overlaps its receiving, and the file is never held whole (gathered, it was also copied once more
// into one buffer, ~20 ms). The limits and failures are those of Fastify's own body reading, which this replaces
// for the import types: 413 past the limit (the decoded bytes, and the coded ones), 400 when the length does not
// match Content-Length, and a failed stream (a corrupt gzip body, a client gone) as its own error.
import { createHash, type Hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { errorCodes } from 'fastify';
import type { FormatReader, ReadResult } from '../formats/index.js';

/** What the route keeps of the file: the reader's result, or the error that ended the reading; and its hash. */
export interface ImportBody {
  outcome: { read: ReadResult } | { failure: unknown };
  /** SHA-256 of the file as hex, when it was asked for (the fallback runId). */
  sha256?: string;
}

export interface ImportBodyOptions {
  reader: FormatReader;
  /** The route's limit on the decoded body. */
  limit: number;
  /** The request's Content-Length, NaN when it has none. */
  contentLength: number;
  /** Hash the file as it passes (only when the run may be named after it). */
  hash: boolean;
}

/**
 * Feeds every chunk of `payload` to the reader. A reader that fails stops being fed, but the body is still read to
 * its end: its length is checked as any other's, and the answer (400 invalid_file) goes out once the client is done.
 */
export function readImportBody(payload: Readable, options: ImportBodyOptions): Promise<ImportBody> {
  const { reader, limit, contentLength } = options;
  if (contentLength > limit) return Promise.reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  const hash: Hash | undefined = options.hash ? createHash('sha256') : undefined;
  let received = 0;
  /** The coded bytes a decoding stream (preParsing) has taken, when the body is coded. */
  const coded = () => (payload as Readable & { receivedEncodedLength?: number }).receivedEncodedLength ?? 0;
  let failure: { failure: unknown } | undefined;
  return new Promise((resolve, reject) => {
    const stop = () => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onEnd);
    };
    function onData(chunk: Buffer | string) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += bytes.length;
      // The decoded length counts, so that a small coded body inflating past the limit is refused at once.
      if (received > limit || coded() > limit) {
        stop();
        reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
        return;
      }
      hash?.update(bytes);
      if (failure) return;
      try {
        reader.write(bytes);
      } catch (err) {
        failure = { failure: err };
      }
    }
    function onEnd(err?: Error & { statusCode?: number }) {
      stop();
      if (err) {
        if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400;
        reject(err);
        return;
      }
      if (!Number.isNaN(contentLength) && (coded() || received) !== contentLength) {
        reject(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
        return;
      }
      let outcome: ImportBody['outcome'] | undefined = failure;
      if (!outcome) {
        try {
          outcome = { read: reader.end() };
        } catch (e) {
          outcome = { failure: e };
        }
      }
      resolve({ outcome, ...(hash ? { sha256: hash.digest('hex') } : {}) });
    }
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onEnd);
    payload.resume();
  });
}
