// A CVAT <box> element read straight from the file's bytes, for the common case only: a start tag of plain ASCII
// attributes with a valid frame and four numbers, empty or closed at once. Decoding every box to text and tokenizing
// it was most of a CVAT import; anything this does not take is left to XmlTokenizer, which gives the same result.
import { decimalEnd, readDecimal } from './numbers.js';

/** The bytes at `at` are not such a box (or not only white space and one): the tokenizer reads them. */
export const NOT_PLAIN = -1;
/** The bytes end before the box does: wait for more. */
export const INCOMPLETE = -2;

/** The fields of the last box read (one box is read at a time, so one object is reused). */
export interface PlainBox {
  frame: number;
  outside: boolean;
  xtl: number;
  ytl: number;
  xbr: number;
  ybr: number;
  /** Line feeds in the bytes read, white space before the box included. */
  lines: number;
}

export const newPlainBox = (): PlainBox => ({ frame: 0, outside: false, xtl: 0, ytl: 0, xbr: 0, ybr: 0, lines: 0 });

const SPACE = new Uint8Array(128);
for (const c of [9, 10, 13, 32]) SPACE[c] = 1;
/** ASCII name characters: 1 may start a name, 2 only continue one. */
const NAME = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[:A-Z_a-z]/.test(ch)) NAME[c] = 1;
  else if (/[-.0-9]/.test(ch)) NAME[c] = 2;
}

/** Attribute names this reads, as bytes; the others are only checked and passed over. */
const FIELDS = ['frame', 'outside', 'xtl', 'ytl', 'xbr', 'ybr'].map((name) => Buffer.from(name));
const FRAME = 0;
const OUTSIDE = 1;
const XTL = 2;
const YTL = 3;
const XBR = 4;
const YBR = 5;
/** A start tag with more attributes than this is left to the tokenizer. */
const MAX_ATTRIBUTES = 16;

/** Start and end of the names of the current tag's other attributes, to find a repeated one. */
const others = new Int32Array(MAX_ATTRIBUTES * 2);

/**
 * Reads white space and one plain box at bytes[at, n): `<box` with attributes (name="value", values of printable
 * ASCII without < or &), then `/>` or `>` and `</box>` with only white space between. Fills `out` and returns the
 * index after the box; NOT_PLAIN when the bytes are anything else (a repeated attribute, a child element, a frame
 * that is not an unsigned integer, a missing or unreadable coordinate …); INCOMPLETE when they end first.
 */
export function readPlainBox(bytes: Buffer, at: number, n: number, out: PlainBox): number {
  let p = at;
  let lines = 0;
  while (p < n && bytes[p]! < 128 && SPACE[bytes[p]!] === 1) {
    if (bytes[p] === 10) lines++;
    p++;
  }
  if (p + 5 > n) return INCOMPLETE;
  if (bytes[p] !== 60 || bytes[p + 1] !== 98 || bytes[p + 2] !== 111 || bytes[p + 3] !== 120) return NOT_PLAIN; // <box
  p += 4;
  let seen = 0; // a bit per field of FIELDS
  let otherCount = 0;
  for (;;) {
    // White space, then the end of the tag or an attribute.
    const before = p;
    while (p < n && bytes[p]! < 128 && SPACE[bytes[p]!] === 1) {
      if (bytes[p] === 10) lines++;
      p++;
    }
    if (p >= n) return INCOMPLETE;
    const c = bytes[p]!;
    if (c === 47 /* / */) {
      if (p + 1 >= n) return INCOMPLETE;
      if (bytes[p + 1] !== 62) return NOT_PLAIN;
      p += 2;
      break;
    }
    if (c === 62 /* > */) {
      p = closingTag(bytes, p + 1, n);
      if (p < 0) return p;
      lines += closingLines;
      break;
    }
    if (p === before || c >= 128 || NAME[c] !== 1) return NOT_PLAIN;
    const nameStart = p;
    while (p < n && bytes[p]! < 128 && NAME[bytes[p]!] !== 0) p++;
    if (p + 1 >= n) return INCOMPLETE;
    const nameEnd = p;
    if (bytes[p] !== 61 /* = */) return NOT_PLAIN;
    const quote = bytes[p + 1]!;
    if (quote !== 34 && quote !== 39) return NOT_PLAIN;
    const valueStart = p + 2;
    p = valueStart;
    while (p < n) {
      const d = bytes[p]!;
      if (d === quote) break;
      if (d < 32 || d > 126 || d === 60 || d === 38) return NOT_PLAIN;
      p++;
    }
    if (p >= n) return INCOMPLETE;
    const valueEnd = p;
    p++;
    const field = fieldOf(bytes, nameStart, nameEnd);
    if (field >= 0) {
      if ((seen & (1 << field)) !== 0) return NOT_PLAIN;
      seen |= 1 << field;
      if (!readField(bytes, field, valueStart, valueEnd, out)) return NOT_PLAIN;
    } else {
      if (otherCount === MAX_ATTRIBUTES) return NOT_PLAIN;
      for (let k = 0; k < otherCount * 2; k += 2) {
        if (sameName(bytes, others[k]!, others[k + 1]!, nameStart, nameEnd)) return NOT_PLAIN;
      }
      others[otherCount * 2] = nameStart;
      others[otherCount * 2 + 1] = nameEnd;
      otherCount++;
    }
  }
  // frame and the four coordinates must all be there; outside may be left out.
  if ((seen | (1 << OUTSIDE)) !== 0b111111) return NOT_PLAIN;
  if ((seen & (1 << OUTSIDE)) === 0) out.outside = false;
  out.lines = lines;
  return p;
}

let closingLines = 0;

/** After the `>` of a start tag: white space, `</box`, white space, `>`; the index after it (lines in closingLines). */
function closingTag(bytes: Buffer, at: number, n: number): number {
  let p = at;
  closingLines = 0;
  while (p < n && bytes[p]! < 128 && SPACE[bytes[p]!] === 1) {
    if (bytes[p] === 10) closingLines++;
    p++;
  }
  if (p + 6 > n) return INCOMPLETE;
  if (bytes[p] !== 60 || bytes[p + 1] !== 47 || bytes[p + 2] !== 98 || bytes[p + 3] !== 111 || bytes[p + 4] !== 120) {
    return NOT_PLAIN; // </box
  }
  p += 5;
  while (p < n && bytes[p]! < 128 && SPACE[bytes[p]!] === 1) {
    if (bytes[p] === 10) closingLines++;
    p++;
  }
  if (p >= n) return INCOMPLETE;
  return bytes[p] === 62 ? p + 1 : NOT_PLAIN;
}

/**
 * Which of FIELDS the name at bytes[start, end) is, or -1. By length and letters rather than a loop over the names:
 * every attribute of every box passes here, and the loop was a fifth of reading a box.
 */
function fieldOf(bytes: Buffer, start: number, end: number): number {
  switch (end - start) {
    case 3: {
      // xtl, ytl, xbr, ybr
      const axis = bytes[start]!;
      const corner = bytes[start + 1]!;
      const side = bytes[start + 2]!;
      const x = axis === 120 ? 0 : axis === 121 ? 1 : -1; // x, y
      if (x < 0) return -1;
      if (corner === 116 && side === 108) return x === 0 ? XTL : YTL; // tl
      if (corner === 98 && side === 114) return x === 0 ? XBR : YBR; // br
      return -1;
    }
    case 5:
      return sameBytes(bytes, start, FIELDS[FRAME]!) ? FRAME : -1;
    case 7:
      return sameBytes(bytes, start, FIELDS[OUTSIDE]!) ? OUTSIDE : -1;
  }
  return -1;
}

/** bytes from `start` begin with `name`. */
function sameBytes(bytes: Buffer, start: number, name: Buffer): boolean {
  for (let k = 0; k < name.length; k++) if (bytes[start + k] !== name[k]) return false;
  return true;
}

/** bytes[aStart, aEnd) and bytes[bStart, bEnd) hold the same name. */
function sameName(bytes: Buffer, aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
  if (aEnd - aStart !== bEnd - bStart) return false;
  for (let k = 0; k < aEnd - aStart; k++) if (bytes[aStart + k] !== bytes[bStart + k]) return false;
  return true;
}

/** The field's value into `out`; false when the tokenizer's path must judge it (it then rejects the box). */
function readField(bytes: Buffer, field: number, start: number, end: number, out: PlainBox): boolean {
  if (field === OUTSIDE) {
    out.outside = end - start === 1 && bytes[start] === 49; // "1", as the slow path compares it
    return true;
  }
  if (field === FRAME) {
    // An unsigned integer of at most 15 digits: exact as it is summed.
    if (end === start || end - start > 15) return false;
    let frame = 0;
    for (let k = start; k < end; k++) {
      const d = bytes[k]! - 48;
      if (d < 0 || d > 9) return false;
      frame = frame * 10 + d;
    }
    out.frame = frame;
    return true;
  }
  const v = readDecimal(bytes, start, end);
  if (decimalEnd !== end || Number.isNaN(v)) return false;
  if (field === XTL) out.xtl = v;
  else if (field === YTL) out.ytl = v;
  else if (field === XBR) out.xbr = v;
  else if (field === YBR) out.ybr = v;
  return true;
}
