// How a route that takes a run's body reads it: the 32 MiB limit, the content codings, the large-body turns and the
// minimum upload rate. POST /detections and the import route spread one shared set into their own options, so that
// both wait for the same two large-body turns.
import { Transform, pipeline, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bodyCoding, decodeBody } from '../http/content-coding.js';
import { watchRate, type MinimumRate, type RateWatched } from '../http/minimum-rate.js';
import { Semaphore } from '../util/semaphore.js';
import { MAX_BODY_BYTES } from './limits.js';

/**
 * Bodies over this size (or of unknown size) are read, parsed and handled at most LARGE_BODY_SLOTS at a time. A valid
 * 30 MiB run parses into packed numbers, but a body may be 32 MiB of anything its unknown members hold: eleven
 * million `{}` parse into ~1 GB of objects, and ten such requests at once exhausted the heap and killed the server.
 * The others wait before their bodies are read, so TCP holds their bytes, not this process.
 */
const LARGE_BODY_BYTES = 8 * 1024 * 1024;
const LARGE_BODY_SLOTS = 2;

/** The body as it arrives, except that on passing `threshold` bytes it waits for `takeSlot` before going on. */
function slotAfter(payload: Readable, threshold: number, takeSlot: () => Promise<void>): Readable {
  let seen = 0;
  let slotted = false;
  const gated = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (slotted || seen <= threshold) return callback(null, chunk);
      slotted = true;
      takeSlot().then(() => callback(null, chunk), callback);
    },
  });
  // pipeline, not pipe: a client that goes away mid-body ends the gated stream too, instead of leaving it open.
  pipeline(payload, gated, () => {});
  return gated;
}

export interface RunUploadOptions {
  bodyLimit: number;
  config: { decodesBody: true };
  preParsing: (request: FastifyRequest, reply: FastifyReply, payload: Readable) => Promise<Readable>;
  onResponse: (request: FastifyRequest) => Promise<void>;
  onRequestAbort: (request: FastifyRequest) => Promise<void>;
}

/** Made once per app (the detections plugin) and given to every route that takes a run's body. */
export function runUploadOptions(minimumRate: MinimumRate): RunUploadOptions {
  const largeBodies = new Semaphore(LARGE_BODY_SLOTS);
  // A body holding one of those turns must keep coming, or it gives the turn up with a 408.
  const holding = new WeakSet<FastifyRequest>();
  const watches = new WeakMap<FastifyRequest, RateWatched>();
  const releaseLargeBody = async (request: FastifyRequest) => {
    watches.get(request)?.stop();
    if (holding.delete(request)) largeBodies.release();
  };
  return {
    bodyLimit: MAX_BODY_BYTES,
    config: { decodesBody: true },
    onResponse: releaseLargeBody,
    onRequestAbort: releaseLargeBody,
    preParsing: async (request, reply, payload) => {
      const length = Number(request.headers['content-length']);
      // onRequest has refused every other coding with 415.
      const coding = bodyCoding(request.headers['content-encoding']);
      // Over the limit: Fastify answers 413 from the header, at once, without a turn. A coded body's Content-Length
      // counts coded bytes: over the limit it is refused all the same, under it says nothing of the decoded size.
      if (length > MAX_BODY_BYTES || (coding === 'identity' && length <= LARGE_BODY_BYTES)) return payload;
      /** False when the request was over (the client gone) by the time its turn came: the turn went back. */
      const takeSlot = async () => {
        await largeBodies.acquire();
        // A client that gave up while waiting has already passed onRequestAbort: its slot goes back now.
        if (request.raw.destroyed || reply.raw.destroyed || reply.raw.writableFinished) {
          largeBodies.release();
          return false;
        }
        holding.add(request);
        // The answer's end in every case: onResponse does not run for a streamed answer the client drops half-way.
        reply.raw.once('close', () => void releaseLargeBody(request));
        return true;
      };
      if (coding === 'identity' && Number.isFinite(length)) {
        if (!(await takeSlot())) return payload;
        const watched = watchRate(payload, minimumRate);
        watches.set(request, watched);
        watched.start();
        return watched.stream;
      }
      // A chunked or coded body, of unknown decoded length, is read freely until it turns out large: small chunked
      // runs never wait for the slots (two stalled chunked uploads held both, and every other chunked post waited
      // behind them). The turns and the rate count decoded bytes, which are what is held and parsed.
      const decoded =
        coding === 'identity' || coding === 'other' ? undefined : decodeBody(payload, coding, MAX_BODY_BYTES);
      const watched = watchRate(
        slotAfter(decoded?.stream ?? payload, LARGE_BODY_BYTES, async () => {
          if (await takeSlot()) watched.start();
        }),
        minimumRate,
      );
      watches.set(request, watched);
      if (decoded) Object.defineProperty(watched.stream, 'receivedEncodedLength', { get: decoded.encodedBytes });
      return watched.stream;
    },
  };
}
