// Request bodies in a content coding (RFC 9110 §8.4): which codings a route may take, and the decoding itself, with
// the route's limit counted on the decoded bytes so that a small body that inflates to gigabytes is refused at the
// limit instead of being held.
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { ApiError } from './problem.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route decodes gzip, deflate and br bodies (through decodeBody); every other route refuses them with 415. */
    decodesBody?: boolean;
  }
}

export const DECODED_CODINGS = ['gzip', 'deflate', 'br'] as const;
export type BodyCoding = (typeof DECODED_CODINGS)[number];

/** What a Content-Encoding header asks for: no decoding, one of the codings decodeBody knows, or something else. */
export function bodyCoding(header: string | undefined): BodyCoding | 'identity' | 'other' {
  const coding = header?.trim().toLowerCase();
  if (!coding || coding === 'identity') return 'identity';
  return (DECODED_CODINGS as readonly string[]).includes(coding) ? (coding as BodyCoding) : 'other';
}

export interface DecodedBody {
  stream: Readable;
  /** The coded bytes read so far: Fastify compares them, not the decoded ones, with Content-Length. */
  encodedBytes(): number;
}

/**
 * Decoded bytes per chunk. zlib's default (16 KiB) made a 30 MiB body some 1900 round trips to the thread pool and
 * as many chunks through the streams after it; on a busy machine each round trip waits for the event loop, and the
 * decoding took several times inflate's own CPU time. A chunk this size is at most this much past the limit.
 */
const DECODED_CHUNK_BYTES = 256 * 1024;

/**
 * The decoded body of `source`. It fails with 413 `payload_too_large` as soon as more than `limit` decoded bytes come
 * (the decoder stops there), and with 400 `malformed_body` when the bytes are not in `coding`. The source is paused,
 * never destroyed, on a failure: destroying a request destroys its socket, and the answer could not be written.
 */
export function decodeBody(source: Readable, coding: BodyCoding, limit: number): DecodedBody {
  const options = { chunkSize: DECODED_CHUNK_BYTES };
  const decoder =
    coding === 'gzip'
      ? createGunzip(options)
      : coding === 'deflate'
        ? createInflate(options)
        : createBrotliDecompress(options);
  let encoded = 0;
  let decoded = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      decoded += chunk.length;
      if (decoded > limit) {
        callback(new ApiError(413, 'payload_too_large', `The decoded body is larger than ${limit} bytes`));
        return;
      }
      callback(null, chunk);
    },
  });
  const onData = (chunk: Buffer) => {
    encoded += chunk.length;
    if (!decoder.write(chunk)) source.pause();
  };
  const onEnd = () => decoder.end();
  const onError = (err: Error) => counted.destroy(err);
  const onClose = () => {
    if (!source.readableEnded) counted.destroy(new Error('aborted'));
  };
  source.on('data', onData);
  source.on('end', onEnd);
  source.on('error', onError);
  source.on('close', onClose);
  decoder.on('drain', () => source.resume());
  decoder.pipe(counted);
  decoder.on('error', (err) => {
    counted.destroy(
      new ApiError(
        400,
        'malformed_body',
        `The body is not valid ${coding} (as its Content-Encoding says): ${err.message}`,
      ),
    );
  });
  counted.on('close', () => {
    source.removeListener('data', onData);
    source.removeListener('end', onEnd);
    source.removeListener('error', onError);
    source.removeListener('close', onClose);
    if (!source.readableEnded) source.pause();
    decoder.destroy();
  });
  return { stream: counted, encodedBytes: () => encoded };
}
