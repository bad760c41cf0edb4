// An answer object whose members may be too large to serialise at once: such a member (a JsonChunks) writes its own
// JSON piece by piece, and the object is sent as a stream of the same text JSON.stringify would give.
import { Readable } from 'node:stream';

export interface JsonChunks {
  /** Whether this value is large enough to be written as a stream. */
  readonly streams: boolean;
  /** The same text as JSON.stringify(this), in pieces. */
  jsonChunks(): Iterable<string>;
  toJSON(): unknown;
}

function isJsonChunks(value: unknown): value is JsonChunks {
  return typeof value === 'object' && value !== null && typeof (value as JsonChunks).jsonChunks === 'function';
}

/** Whether any member of the object is large enough to be streamed. */
export function streamsAnyMember(value: Record<string, unknown>): boolean {
  for (const key in value) {
    const member = value[key];
    if (isJsonChunks(member) && member.streams) return true;
  }
  return false;
}

function* objectChunks(value: Record<string, unknown>): Generator<string> {
  let text = '{';
  let first = true;
  for (const key in value) {
    const member = value[key];
    if (member === undefined || typeof member === 'function') continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (isJsonChunks(member)) {
      yield text;
      yield* member.jsonChunks();
      text = '';
    } else {
      text += JSON.stringify(member);
    }
  }
  yield `${text}}`;
}

/** The object's JSON as a byte stream, its large members written piece by piece. */
export function jsonStream(value: Record<string, unknown>): Readable {
  return Readable.from(objectChunks(value), { objectMode: false });
}
