// How a route that takes a run's body reads it: the 32 MiB limit, the content codings, the memory budget for bodies
// in flight, the large-body turns and the minimum upload rate. POST /detections and the import route spread one
// shared set into their own options, so that both draw on the same budget and wait for the same two turns.
import { Transform, pipeline, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bodyCoding, decodeBody } from '../http/content-coding.js';
import { watchRate, type MinimumRate, type RateWatched } from '../http/minimum-rate.js';
import { principalOf } from '../auth/authenticate.js';
import type { BodyBudgetConfig } from '../config.js';
import { ApiError } from '../http/problem.js';
import { bodyBytesInFlight, largeBodyTurnsInUse } from '../http/metrics.js';
import { ByteBudget } from '../util/byte-budget.js';
import { FairTurns } from '../util/fair-turns.js';
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

/**
 * Made once per app (the detections plugin) and given to every route that takes a run's body. Bodies up to 8 MiB
 * reserve their length from one byte budget before they are read (a body parses into many times its size: sixteen
 * 7.7 MiB bodies of `{}` at once took a server past 1 GiB); chunked and coded ones, of unknown decoded size, reserve
 * the 8 MiB they may grow to before needing a turn. Past BODY_BUDGET_WAIT_MS without room: 503 with Retry-After.
 * Larger bodies wait for a large-body turn instead, and no organisation holds every turn.
 */
export function runUploadOptions(minimumRate: MinimumRate, budgetConfig: BodyBudgetConfig): RunUploadOptions {
  const largeBodies = new FairTurns(LARGE_BODY_SLOTS);
  const budget = new ByteBudget(budgetConfig.bytes);
  // A body holding one of those turns must keep coming, or it gives the turn up with a 408.
  const holding = new WeakMap<FastifyRequest, string>();
  const reserved = new WeakMap<FastifyRequest, number>();
  const watches = new WeakMap<FastifyRequest, RateWatched>();
  const releaseLargeBody = async (request: FastifyRequest) => {
    watches.get(request)?.stop();
    const org = holding.get(request);
    if (org !== undefined) {
      holding.delete(request);
      largeBodies.release(org);
      largeBodyTurnsInUse.dec();
    }
    const bytes = reserved.get(request);
    if (bytes !== undefined) {
      reserved.delete(request);
      budget.release(bytes);
      bodyBytesInFlight.dec(bytes);
    }
  };
  /** Waits for room in the budget; 503 when none comes in time. The reservation goes back with the answer. */
  const reserve = async (request: FastifyRequest, reply: FastifyReply, bytes: number) => {
    if (!(await budget.reserve(bytes, budgetConfig.waitMs))) {
      throw new ApiError(
        503,
        'service_unavailable',
        'Too many request bodies are being read at once; send this one again shortly',
        {},
        // The body was not read: closing spares the client sending it to no purpose.
        { 'Retry-After': String(Math.max(1, Math.ceil(budgetConfig.waitMs / 1000))), Connection: 'close' },
      );
    }
    if (request.raw.destroyed || reply.raw.destroyed || reply.raw.writableFinished) {
      budget.release(bytes);
      return;
    }
    reserved.set(request, bytes);
    bodyBytesInFlight.inc(bytes);
    reply.raw.once('close', () => void releaseLargeBody(request));
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
      if (length > MAX_BODY_BYTES) return payload;
      if (coding === 'identity' && length <= LARGE_BODY_BYTES) {
        if (length > 0) await reserve(request, reply, length);
        return payload;
      }
      const org = principalOf(request).orgId;
      /** False when the request was over (the client gone) by the time its turn came: the turn went back. */
      const takeSlot = async () => {
        await largeBodies.acquire(org);
        // A client that gave up while waiting has already passed onRequestAbort: its slot goes back now.
        if (request.raw.destroyed || reply.raw.destroyed || reply.raw.writableFinished) {
          largeBodies.release(org);
          return false;
        }
        holding.set(request, org);
        largeBodyTurnsInUse.inc();
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
      await reserve(request, reply, LARGE_BODY_BYTES);
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
