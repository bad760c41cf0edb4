// How deep a JSON text nests, found without parsing it: a body of a million nested arrays costs JSON.parse a million
// arrays (190 ms of event loop and tens of MiB for 1 MiB), while this scan costs one pass over the bytes and builds
// nothing. Brackets inside strings do not count; the text need not be valid JSON (the parser judges that after).

/** The deepest nesting any route takes, with room to spare: a run is six levels deep (run, tracks, track, boxes…). */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * The offset (a byte's for a Buffer, a UTF-16 unit's for a string) of the bracket that opens level `max + 1`, or -1
 * when the text nests no deeper than `max`. A Buffer is read as UTF-8: no byte of a multi-byte sequence is ASCII.
 */
export function tooDeepAt(text: Buffer | string, max = MAX_JSON_DEPTH): number {
  const bytes = typeof text !== 'string';
  const length = text.length;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < length; i++) {
    const c = bytes ? (text as Buffer)[i]! : (text as string).charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return i;
    } else if ((c === CLOSE_ARRAY || c === CLOSE_OBJECT) && depth > 0) depth--;
  }
  return -1;
}
