// A run's tracks as JSON bytes, written straight from the stored columns: the same bytes as
// JSON.stringify(tracksForApi(headers, columns)) without its brackets, in Buffers of about CHUNK_BYTES.
//
// Why: a large run is 250 000 boxes. Building an object per box and handing them to JSON.stringify cost about
// 40% more than JSON.stringify alone (the GET target's floor), most of it turning 1.75 million doubles into
// their shortest decimal text. Model output is mostly short decimals (0.123456, frame and millisecond
// integers); those are written from their digits here, and only the other doubles go through String().
import { BOX_STRIDE, type TrackHeader } from './run-types.js';

const CHUNK_BYTES = 64 * 1024;
/** Room a box needs without its extras: seven numbers of at most 24 characters and the keys. */
const BOX_ROOM = 7 * 24 + 96;

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const BOX_OPEN = ascii('{"frame":');
const KEY_X = ascii(',"x":'),
  KEY_Y = ascii(',"y":'),
  KEY_W = ascii(',"w":'),
  KEY_H = ascii(',"h":');
const KEY_CONFIDENCE = ascii(',"confidence":'),
  KEY_TIMESTAMP = ascii(',"timestampMs":');
const KEY_LABEL = ascii(',"label":'),
  KEY_CLASS_ID = ascii(',"classId":'),
  KEY_COLOR = ascii(',"color":'),
  KEY_INTERPOLATED = ascii(',"interpolated":true');
const TRACK_OPEN = ascii('{"id":'),
  KEY_BOXES = ascii(',"boxes":[');
const NULL = ascii('null');

/** 9 decimals: short decimals are tried at this scale (see writeNumber). */
const SCALE = 1e9;

class ChunkWriter {
  buf = Buffer.allocUnsafe(CHUNK_BYTES);
  pos = 0;
  readonly full: Buffer[] = [];

  ensure(room: number): void {
    if (this.pos + room <= this.buf.length) return;
    if (this.pos > 0) this.full.push(this.buf.subarray(0, this.pos));
    this.buf = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, room));
    this.pos = 0;
  }

  bytes(b: Uint8Array): void {
    const buf = this.buf;
    let p = this.pos;
    for (let k = 0; k < b.length; k++) buf[p++] = b[k]!;
    this.pos = p;
  }

  byte(c: number): void {
    this.buf[this.pos++] = c;
  }

  /** A JSON value other than a number, through JSON.stringify (strings: escaping and UTF-8 as it does them). */
  json(value: unknown): void {
    const text = JSON.stringify(value);
    this.ensure(text.length * 3);
    this.pos += this.buf.write(text, this.pos, 'utf8');
  }

  /** The digits of a non-negative integer below 2^31. */
  digits(n: number): void {
    const buf = this.buf;
    let end = this.pos;
    let m = n;
    do {
      end++;
      m = (m / 10) | 0;
    } while (m > 0);
    this.pos = end;
    do {
      buf[--end] = 0x30 + (n % 10);
      n = (n / 10) | 0;
    } while (n > 0);
  }

  /**
   * `v` as JSON.stringify writes it. A finite v that is an integer m over 10^9 with |m| < 10^15 is written from
   * m's digits: m/10^9 rounds to v, and two decimals of at most 15 significant digits never round to the same
   * double, so those digits (without trailing zeros) are v's shortest round-trip text, which is what
   * JSON.stringify prints. Below 10^-6 it prints an exponent, so those go through String() as the rest do.
   */
  number(v: number): void {
    if (v === 0) {
      this.byte(0x30);
      return;
    } // also -0, which JSON.stringify prints as 0
    const magnitude = v < 0 ? -v : v;
    if (magnitude < 0x80000000 && (magnitude | 0) === magnitude) {
      if (v < 0) this.byte(0x2d);
      this.digits(magnitude);
      return;
    }
    if (magnitude < 1e6 && magnitude >= 1e-6) {
      const m = Math.round(magnitude * SCALE);
      if (m / SCALE === magnitude) {
        if (v < 0) this.byte(0x2d);
        const whole = Math.floor(m / SCALE);
        let fraction = m - whole * SCALE;
        this.digits(whole);
        if (fraction !== 0) {
          let width = 9;
          while (fraction % 10 === 0) {
            fraction = (fraction / 10) | 0;
            width--;
          }
          this.byte(0x2e);
          const buf = this.buf;
          const end = this.pos + width;
          for (let p = end - 1; p >= this.pos; p--) {
            buf[p] = 0x30 + (fraction % 10);
            fraction = (fraction / 10) | 0;
          }
          this.pos = end;
        }
        return;
      }
    }
    if (!Number.isFinite(v)) {
      this.bytes(NULL);
      return;
    }
    const text = String(v);
    const buf = this.buf;
    let p = this.pos;
    for (let k = 0; k < text.length; k++) buf[p++] = text.charCodeAt(k);
    this.pos = p;
  }

  /** The buffers not yet taken, the last one included; the writer is done. */
  finish(): Buffer[] {
    if (this.pos > 0) this.full.push(this.buf.subarray(0, this.pos));
    return this.full.splice(0);
  }
}

/** The tracks' JSON (comma-separated track objects), yielded as buffers of about CHUNK_BYTES. */
export function* tracksJsonChunks(headers: TrackHeader[], columns: Float64Array): Generator<Buffer> {
  const w = new ChunkWriter();
  let i = 0;
  for (let t = 0; t < headers.length; t++) {
    const h = headers[t]!;
    if (t > 0) {
      w.ensure(1);
      w.byte(0x2c);
    }
    w.ensure(TRACK_OPEN.length);
    w.bytes(TRACK_OPEN);
    w.json(h.id);
    if (h.label !== undefined) {
      w.ensure(KEY_LABEL.length);
      w.bytes(KEY_LABEL);
      w.json(h.label);
    }
    if (h.classId !== undefined) {
      w.ensure(KEY_CLASS_ID.length);
      w.bytes(KEY_CLASS_ID);
      w.json(h.classId);
    }
    if (h.confidence !== undefined) {
      w.ensure(KEY_CONFIDENCE.length + 24);
      w.bytes(KEY_CONFIDENCE);
      w.number(h.confidence);
    }
    if (h.color !== undefined) {
      w.ensure(KEY_COLOR.length);
      w.bytes(KEY_COLOR);
      w.json(h.color);
    }
    w.ensure(KEY_BOXES.length);
    w.bytes(KEY_BOXES);
    for (let j = 0; j < h.n; j++, i++) {
      const o = i * BOX_STRIDE;
      w.ensure(BOX_ROOM);
      if (j > 0) w.byte(0x2c);
      w.bytes(BOX_OPEN);
      w.number(columns[o]!);
      w.bytes(KEY_X);
      w.number(columns[o + 1]!);
      w.bytes(KEY_Y);
      w.number(columns[o + 2]!);
      w.bytes(KEY_W);
      w.number(columns[o + 3]!);
      w.bytes(KEY_H);
      w.number(columns[o + 4]!);
      const confidence = columns[o + 5]!;
      if (!Number.isNaN(confidence)) {
        w.bytes(KEY_CONFIDENCE);
        w.number(confidence);
      }
      const ts = columns[o + 6]!;
      if (!Number.isNaN(ts)) {
        w.bytes(KEY_TIMESTAMP);
        w.number(ts);
      }
      const extra = h.extras?.[j];
      if (extra) {
        if (extra.label !== undefined) {
          w.ensure(KEY_LABEL.length);
          w.bytes(KEY_LABEL);
          w.json(extra.label);
        }
        if (extra.classId !== undefined) {
          w.ensure(KEY_CLASS_ID.length);
          w.bytes(KEY_CLASS_ID);
          w.json(extra.classId);
        }
        if (extra.interpolated === true) {
          w.ensure(KEY_INTERPOLATED.length);
          w.bytes(KEY_INTERPOLATED);
        }
      }
      w.ensure(1);
      w.byte(0x7d);
    }
    w.ensure(2);
    w.byte(0x5d);
    w.byte(0x7d);
    if (w.full.length > 0) yield* w.full.splice(0);
  }
  yield* w.finish();
}
