// The JSON body parser: plain JSON.parse, with the API's own 400 for an empty, too deeply nested or malformed body
// (saying where).
// The stock parser scans every body for prototype keys; nothing here merges parsed input into objects, so
// plain JSON.parse is safe and saves a full pass over 30 MiB runs.
import type { FastifyInstance } from 'fastify';
import { ApiError } from './problem.js';
import { MAX_JSON_DEPTH, tooDeepAt } from './json-depth.js';
import { jsonErrorOffset, positionAt } from './json-position.js';

const EMPTY = () => new ApiError(400, 'malformed_json', 'The body is empty');

/**
 * How deep a scope's bodies may nest, and the code of the 400 beyond (a route's own contract may name another); null
 * for a scope whose `fast` parser bounds nesting itself before it declines.
 */
export interface NestingLimit {
  maxDepth: number;
  code: string;
}

const DEFAULT_NESTING: NestingLimit = { maxDepth: MAX_JSON_DEPTH, code: 'malformed_json' };

/** JSON.parse with the API's error; `fast`, when given, is tried first and answers undefined to decline. */
export function parseJsonBody(
  body: Buffer | string,
  fast?: (body: Buffer) => unknown,
  nesting: NestingLimit | null = DEFAULT_NESTING,
): unknown {
  if (body.length === 0) throw EMPTY();
  if (fast && typeof body !== 'string') {
    const value = fast(body);
    if (value !== undefined) return value;
  }
  // Before JSON.parse builds a million nested arrays.
  const deep = nesting ? tooDeepAt(body, nesting.maxDepth) : -1;
  if (nesting && deep >= 0) {
    const before = typeof body === 'string' ? body.slice(0, deep) : body.subarray(0, deep).toString('utf8');
    const at = positionAt(before, before.length);
    throw new ApiError(
      400,
      nesting.code,
      `The body nests deeper than ${nesting.maxDepth} levels of arrays and objects (line ${at.line}, column ${at.column})`,
      { reason: 'too_deep', maxDepth: nesting.maxDepth, ...at },
    );
  }
  const text = typeof body === 'string' ? body : body.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw malformedAt(text);
  }
}

/** The 400 for a text JSON.parse refused, naming where it stops being JSON. */
export function malformedAt(text: string): ApiError {
  const offset = jsonErrorOffset(text);
  const at = positionAt(text, offset);
  const what = offset >= text.length ? 'ends early' : 'is not valid JSON';
  return new ApiError(400, 'malformed_json', `The body ${what} at line ${at.line}, column ${at.column}`, {
    ...at,
  });
}

/** Replaces the scope's application/json parser; with `fast`, the body arrives as bytes (see parseJsonBody). */
export function useJsonBodyParser(
  app: FastifyInstance,
  fast?: (body: Buffer) => unknown,
  nesting: NestingLimit | null = DEFAULT_NESTING,
): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: fast ? 'buffer' : 'string' }, (request, body, done) => {
    // Many clients label every request JSON: an empty body is no body, not malformed JSON, on a DELETE and on any
    // route that takes none (POST /logout, an account's rotate).
    if ((body as Buffer | string).length === 0 && (request.method === 'DELETE' || !request.routeOptions.schema?.body))
      return done(null, undefined);
    let value: unknown;
    try {
      value = parseJsonBody(body as Buffer | string, fast, nesting);
    } catch (error) {
      return done(error as Error, undefined);
    }
    done(null, value);
  });
}

/**
 * Fastify parses text/plain by default, so a JSON-shaped body labelled text/plain would reach a route's schema check
 * as a string (400). Nothing here takes text: it is 415 like any other type, except that no body at all is fine.
 * The 415 comes as soon as there is a body, without reading it: a 20 MiB text body is not uploaded to be refused.
 */
export function refuseTextBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('text/plain', (request, payload, done) => {
    const refuse = () =>
      done(new ApiError(415, 'unsupported_media_type', 'Send the body as application/json'), undefined);
    const length = request.headers['content-length'];
    if (length !== undefined && Number(length) > 0) return refuse();
    let settled = false;
    const settle = (empty: boolean) => {
      if (settled) return;
      settled = true;
      payload.removeListener('data', onData);
      if (empty && !request.routeOptions.schema?.body) done(null, undefined);
      else refuse();
    };
    const onData = (chunk: Buffer) => {
      if (chunk.length > 0) settle(false);
    };
    payload.on('data', onData);
    payload.once('end', () => settle(true));
    payload.once('error', (err) => {
      if (!settled) {
        settled = true;
        done(err, undefined);
      }
    });
  });
}
