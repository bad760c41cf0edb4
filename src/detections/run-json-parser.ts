// A JSON parser for POST /detections bodies that gives what JSON.parse gives, except that each
// `tracks[i].boxes` array of plain numeric boxes comes back as PackedBoxes (numbers in one Float64Array)
// instead of one object per box.
//
// Why: JSON.parse of a 25 MiB run builds 250 000 box objects and a million heap numbers, and the collector
// then walks them; that was about two thirds of a large POST. This parser writes the box numbers straight
// into a typed array and reads the bytes without decoding the body to a string first.
//
// It gives up (returns undefined) on anything it does not handle exactly as JSON.parse would — invalid
// JSON, a box with a key other than PACKED_FIELDS or a value that is not a number, a box key written with an
// escape, a "__proto__" key, nesting deep enough to exhaust the stack, more than MAX_PACKED_BOXES boxes —
// and the caller then runs JSON.parse on the text, so errors and rare shapes take the old path unchanged.
import { PACKED_STRIDE, PackedBoxes, type PackedValues } from './packed-boxes.js';
import { ApiError } from '../http/problem.js';
import { textNestedDeeperThan } from '../util/json-shape.js';
import { RUN_MEMBERS } from './run-members.js';

class GiveUp {}
const GIVE_UP = new GiveUp();

const QUOTE = 0x22,
  BACKSLASH = 0x5c,
  COMMA = 0x2c,
  COLON = 0x3a,
  MINUS = 0x2d,
  PLUS = 0x2b,
  DOT = 0x2e;
const ZERO = 0x30,
  NINE = 0x39,
  OPEN_OBJECT = 0x7b,
  CLOSE_OBJECT = 0x7d,
  OPEN_ARRAY = 0x5b,
  CLOSE_ARRAY = 0x5d;
const LOWER_E = 0x65,
  UPPER_E = 0x45;

/**
 * 88 bytes a box: a body of 32 MiB of `{}` boxes would otherwise take a GiB. A million boxes of real output is about
 * 40 MiB of JSON, more than a body may be; past this the body is left to JSON.parse (and the validator's limits).
 */
const MAX_PACKED_BOXES = 1_000_000;

/** 10^0 … 10^22: every one of them is exact as a double. */
const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

const isDigit = (c: number) => c >= ZERO && c <= NINE;
const isHex = (c: number | undefined) =>
  c !== undefined && ((c >= ZERO && c <= NINE) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66));
// `"`, `\`, `/`, b, f, n, r, t: the one-character escapes JSON has.
const SIMPLE_ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);
// Callers test c <= 0x20 first: one comparison for the usual byte that is not a space.
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

// Box keys, matched byte by byte: a Buffer.indexOf call per key cost more than the rest of the box.
const [X, Y, W, H, ONE, TWO] = [...'xywh12'].map((c) => c.charCodeAt(0));

class Parser {
  i = 0;
  private readonly packed: PackedValues = { values: new Float64Array(0) };
  private boxCount = 0;

  constructor(private readonly b: Buffer) {}

  parse(): unknown {
    const value = this.value(0);
    this.skipSpace();
    if (this.i !== this.b.length) throw GIVE_UP;
    return value;
  }

  private skipSpace(): void {
    const b = this.b;
    let c = b[this.i];
    while (c! <= 0x20 && isSpace(c!)) c = b[++this.i];
  }

  /** `at` says where the value is: 0 the body, 1 a top-level member "tracks", 2 a track, 3 a track's "boxes". */
  private value(at: number): unknown {
    this.skipSpace();
    const c = this.b[this.i];
    if (c === OPEN_OBJECT) return this.object(at);
    if (c === OPEN_ARRAY) return at === 3 ? this.packedBoxes() : this.array(at === 1 ? 2 : -1);
    if (c === QUOTE) return this.string();
    if (c === MINUS || isDigit(c!)) return this.number();
    if (this.literal('true')) return true;
    if (this.literal('false')) return false;
    if (this.literal('null')) return null;
    throw GIVE_UP;
  }

  /** Past one value of JSON's grammar, building nothing; GIVE_UP where JSON.parse would fail. Iterative: any depth. */
  private skipValue(): void {
    const b = this.b;
    const open: number[] = [];
    for (;;) {
      // One value.
      this.skipSpace();
      const c = b[this.i];
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        this.i++;
        this.skipSpace();
        if (b[this.i] === (c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY)) this.i++;
        else {
          open.push(c);
          if (c === OPEN_OBJECT) this.skipKey();
          continue;
        }
      } else if (c === QUOTE) this.skipString();
      else if (c === MINUS || isDigit(c!)) {
        readNumber(b, this.i);
        this.i = numberEnd;
      } else if (!this.literal('true') && !this.literal('false') && !this.literal('null')) throw GIVE_UP;
      // What follows it: a comma (and, in an object, the next key) or the end of one or more containers.
      for (;;) {
        const top = open[open.length - 1];
        if (top === undefined) return;
        this.skipSpace();
        const next = b[this.i++];
        if (next === COMMA) {
          if (top === OPEN_OBJECT) this.skipKey();
          break;
        }
        if (next !== (top === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY)) throw GIVE_UP;
        open.pop();
      }
    }
  }

  /** A member's key and its colon, in an object being skipped. */
  private skipKey(): void {
    this.skipSpace();
    if (this.b[this.i] !== QUOTE) throw GIVE_UP;
    this.skipString();
    this.skipSpace();
    if (this.b[this.i++] !== COLON) throw GIVE_UP;
  }

  /** Past a string, checking its escapes and that it holds no control character, as JSON.parse does. */
  private skipString(): void {
    const b = this.b;
    let i = this.i + 1;
    for (;;) {
      const c = b[i];
      if (c === undefined || c < 0x20) throw GIVE_UP;
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        const e = b[i + 1];
        if (e === 0x75) {
          for (let k = 2; k < 6; k++) if (!isHex(b[i + k])) throw GIVE_UP;
          i += 6;
          continue;
        }
        if (e === undefined || !SIMPLE_ESCAPES.has(e)) throw GIVE_UP;
        i += 2;
        continue;
      }
      i++;
    }
    this.i = i + 1;
  }

  private literal(word: string): boolean {
    for (let k = 0; k < word.length; k++) if (this.b[this.i + k] !== word.charCodeAt(k)) return false;
    this.i += word.length;
    return true;
  }

  /** Members in text order; a repeated key keeps its first place and its last value, as JSON.parse does. */
  private object(at: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.i++;
    this.skipSpace();
    if (this.b[this.i] === CLOSE_OBJECT) {
      this.i++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      if (this.b[this.i] !== QUOTE) throw GIVE_UP;
      const key = this.string();
      if (key === '__proto__') throw GIVE_UP; // an assignment would set the prototype; JSON.parse makes a property
      this.skipSpace();
      if (this.b[this.i++] !== COLON) throw GIVE_UP;
      // A member no run has is ignored (spec: unknown members), so it is checked as JSON and passed over, not built:
      // 8 MiB of `{}` there was 2.7 million objects, ~200 MB of heap for one request.
      if (at === 0 && !RUN_MEMBERS.has(key)) this.skipValue();
      else {
        const inner = at === 0 && key === 'tracks' ? 1 : at === 2 && key === 'boxes' ? 3 : -1;
        out[key] = this.value(inner);
      }
      this.skipSpace();
      const c = this.b[this.i++];
      if (c === CLOSE_OBJECT) return out;
      if (c !== COMMA) throw GIVE_UP;
    }
  }

  private array(elementAt: number): unknown[] {
    const out: unknown[] = [];
    this.i++;
    this.skipSpace();
    if (this.b[this.i] === CLOSE_ARRAY) {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value(elementAt));
      this.skipSpace();
      const c = this.b[this.i++];
      if (c === CLOSE_ARRAY) return out;
      if (c !== COMMA) throw GIVE_UP;
    }
  }

  private string(): string {
    const b = this.b;
    const start = ++this.i;
    let plain = true;
    for (;;) {
      const c = b[this.i];
      if (c === undefined) throw GIVE_UP;
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        plain = false;
        this.i += 2;
        continue;
      }
      if (c < 0x20) throw GIVE_UP;
      if (c >= 0x80) plain = false;
      this.i++;
    }
    const end = this.i++;
    if (plain) return b.toString('latin1', start, end);
    // Escapes and UTF-8: JSON.parse of the quoted slice. The slice starts and ends at ASCII quotes, so decoding
    // it gives what decoding the whole body and cutting would.
    try {
      return JSON.parse(b.toString('utf8', start - 1, end + 1)) as string;
    } catch {
      throw GIVE_UP;
    }
  }

  private number(): number {
    const value = readNumber(this.b, this.i);
    this.i = numberEnd;
    return value;
  }

  /**
   * A boxes array whose every element is an object of PACKED_FIELDS keys with number values. One loop with
   * the position in a local: this is where a large run's bytes are, and calls per key or value showed.
   */
  private packedBoxes(): PackedBoxes {
    const b = this.b;
    const first = this.boxCount;
    let i = this.i + 1;
    let c = b[i];
    while (c! <= 0x20 && isSpace(c!)) c = b[++i];
    if (c === CLOSE_ARRAY) {
      this.i = i + 1;
      return new PackedBoxes(this.packed, first, 0);
    }
    for (;;) {
      if (c !== OPEN_OBJECT) throw GIVE_UP;
      const o = this.newSlot();
      const values = this.packed.values;
      c = b[++i];
      while (c! <= 0x20 && isSpace(c!)) c = b[++i];
      if (c === CLOSE_OBJECT) c = b[++i];
      else {
        for (;;) {
          if (c !== QUOTE) throw GIVE_UP;
          // The key: one of PACKED_FIELDS, without escapes.
          const k0 = b[i + 1];
          let slot = -1;
          if (b[i + 2] === QUOTE) {
            slot = k0 === X ? 1 : k0 === Y ? 2 : k0 === W ? 3 : k0 === H ? 4 : -1;
            i += 3;
          } else if (b[i + 3] === QUOTE) {
            const k1 = b[i + 2];
            if (k1 === ONE) slot = k0 === X ? 5 : k0 === Y ? 6 : -1;
            else if (k1 === TWO) slot = k0 === X ? 7 : k0 === Y ? 8 : -1;
            i += 4;
          } else {
            slot = longKeySlot(b, i);
            i += slot === 0 ? 7 : slot === 9 ? 12 : 13; // past "frame", "confidence", "timestampMs"
          }
          if (slot < 0) throw GIVE_UP;
          c = b[i];
          while (c! <= 0x20 && isSpace(c!)) c = b[++i];
          if (c !== COLON) throw GIVE_UP;
          c = b[++i];
          while (c! <= 0x20 && isSpace(c!)) c = b[++i];
          values[o + slot] = readNumber(b, i);
          i = numberEnd;
          c = b[i];
          while (c! <= 0x20 && isSpace(c!)) c = b[++i];
          if (c === CLOSE_OBJECT) {
            c = b[++i];
            break;
          }
          if (c !== COMMA) throw GIVE_UP;
          c = b[++i];
          while (c! <= 0x20 && isSpace(c!)) c = b[++i];
        }
      }
      while (c! <= 0x20 && isSpace(c!)) c = b[++i];
      if (c === CLOSE_ARRAY) {
        this.i = i + 1;
        return new PackedBoxes(this.packed, first, this.boxCount - first);
      }
      if (c !== COMMA) throw GIVE_UP;
      c = b[++i];
      while (c! <= 0x20 && isSpace(c!)) c = b[++i];
    }
  }

  /** A slot of PACKED_STRIDE NaNs (fields not seen) for the next box. */
  private newSlot(): number {
    if (this.boxCount === MAX_PACKED_BOXES) throw GIVE_UP;
    let values = this.packed.values;
    const o = this.boxCount++ * PACKED_STRIDE;
    if (o + PACKED_STRIDE > values.length) {
      // First a guess from the body's size (a box is some 40 to 100 bytes of JSON), then doubling.
      const grown = new Float64Array(
        values.length > 0 ? values.length * 2 : Math.ceil(this.b.length / 64) * PACKED_STRIDE,
      );
      grown.set(values);
      this.packed.values = values = grown;
    }
    for (let k = o; k < o + PACKED_STRIDE; k++) values[k] = NaN;
    return o;
  }
}

/**
 * The slot of the key "frame", "confidence" or "timestampMs" quoted at b[i], or -1. Unrolled: a loop over the
 * key's bytes was a tenth of the parse of a small run.
 */
function longKeySlot(b: Buffer, i: number): number {
  switch (b[i + 1]) {
    case 102: // frame
      return b[i + 2] === 114 /* r */ &&
        b[i + 3] === 97 /* a */ &&
        b[i + 4] === 109 /* m */ &&
        b[i + 5] === 101 /* e */ &&
        b[i + 6] === QUOTE
        ? 0
        : -1;
    case 99: // confidence
      return b[i + 2] === 111 /* o */ &&
        b[i + 3] === 110 /* n */ &&
        b[i + 4] === 102 /* f */ &&
        b[i + 5] === 105 /* i */ &&
        b[i + 6] === 100 /* d */ &&
        b[i + 7] === 101 /* e */ &&
        b[i + 8] === 110 /* n */ &&
        b[i + 9] === 99 /* c */ &&
        b[i + 10] === 101 /* e */ &&
        b[i + 11] === QUOTE
        ? 9
        : -1;
    case 116: // timestampMs
      return b[i + 2] === 105 /* i */ &&
        b[i + 3] === 109 /* m */ &&
        b[i + 4] === 101 /* e */ &&
        b[i + 5] === 115 /* s */ &&
        b[i + 6] === 116 /* t */ &&
        b[i + 7] === 97 /* a */ &&
        b[i + 8] === 109 /* m */ &&
        b[i + 9] === 112 /* p */ &&
        b[i + 10] === 77 /* M */ &&
        b[i + 11] === 115 /* s */ &&
        b[i + 12] === QUOTE
        ? 10
        : -1;
    default:
      return -1;
  }
}

/** Where the last readNumber stopped: one parse at a time runs on a thread, and a second return value would allocate. */
let numberEnd = 0;

/**
 * JSON's number grammar at b[start]. Up to 15 significant digits and a power of ten within ±22, the value is
 * one correctly rounded multiplication or division of two exact doubles (Clinger's fast path), so it is the
 * double JSON.parse gives; anything else goes to Number() on the text.
 */
function readNumber(b: Buffer, start: number): number {
  let i = start;
  let c = b[i];
  const negative = c === MINUS;
  if (negative) c = b[++i];
  let mantissa = 0,
    digits = 0,
    exponent = 0;
  if (c === ZERO) {
    c = b[++i]; // a digit after a leading zero is left for the caller to refuse, as it refuses any stray byte
  } else if (isDigit(c!)) {
    do {
      mantissa = mantissa * 10 + (c! - ZERO);
      digits++;
      c = b[++i];
    } while (isDigit(c!));
  } else {
    throw GIVE_UP;
  }
  if (c === DOT) {
    c = b[++i];
    if (!isDigit(c!)) throw GIVE_UP;
    do {
      mantissa = mantissa * 10 + (c! - ZERO);
      digits++;
      exponent--;
      c = b[++i];
    } while (isDigit(c!));
  }
  if (c === LOWER_E || c === UPPER_E) {
    c = b[++i];
    const negativeExponent = c === MINUS;
    if (c === MINUS || c === PLUS) c = b[++i];
    if (!isDigit(c!)) throw GIVE_UP;
    let e = 0;
    do {
      if (e < 1e6) e = e * 10 + (c! - ZERO);
      c = b[++i];
    } while (isDigit(c!));
    exponent += negativeExponent ? -e : e;
  }
  numberEnd = i;
  if (digits <= 15) {
    if (mantissa === 0) return negative ? -0 : 0;
    if (exponent >= 0 && exponent <= 22) return negative ? -(mantissa * POW10[exponent]!) : mantissa * POW10[exponent]!;
    if (exponent < 0 && exponent >= -22)
      return negative ? -(mantissa / POW10[-exponent]!) : mantissa / POW10[-exponent]!;
  }
  return Number(b.toString('latin1', start, i));
}

/** The body's value with packed boxes, or undefined when the caller must use JSON.parse (see the header). */
/**
 * Far more than any run needs (categories nest at most 64 levels; meta is at most 4096 bytes), and cheap for
 * JSON.parse; deeper nesting can only be in an ignored member or an over-deep meta. JSON.parse of 16 million nested
 * arrays there held the event loop for 5–16 s and took gigabytes.
 */
export const MAX_BODY_DEPTH = 100_000;

export function parseRunJson(body: Buffer): unknown {
  try {
    return new Parser(body).parse();
  } catch {
    // GIVE_UP, or a RangeError from nesting deeper than the stack: JSON.parse decides, unless the nesting is absurd.
    if (textNestedDeeperThan(body, MAX_BODY_DEPTH)) {
      throw new ApiError(
        400,
        'invalid_body',
        `The body nests arrays or objects more than ${MAX_BODY_DEPTH} levels deep; no run does`,
      );
    }
    return undefined;
  }
}
