// Export text written straight into bytes, a piece at a time: the writers' rows are mostly numbers, and building
// each row as a string (a template of number texts), then the piece as a rope of rows, then encoding it to UTF-8,
// cost more than the digits themselves.
import { decimalText } from '../util/decimal-text.js';
import { FIRST_PIECE_CHARS, PIECE_CHARS } from './export-view.js';

/** Bytes of one piece; one buffer holds a piece and the row that passes its end. */
const ROOM = PIECE_CHARS + 4096;
/** 10^0 … 10^9 (every one below 2^31). */
const POW10 = Array.from({ length: 10 }, (_, i) => 10 ** i);

export class TextPieces {
  private bytes = Buffer.allocUnsafe(ROOM);
  private length = 0;
  /** The first piece is small, so that an answer starts after a few rows (see FIRST_PIECE_CHARS). */
  private limit = FIRST_PIECE_CHARS;

  /** A piece is ready to take: at least the limit's bytes are written. */
  get full(): boolean {
    return this.length >= this.limit;
  }

  get empty(): boolean {
    return this.length === 0;
  }

  /** The bytes written so far; writing goes on in a new buffer, as the piece may still be queued for a socket. */
  take(): Buffer {
    const piece = this.bytes.subarray(0, this.length);
    this.bytes = Buffer.allocUnsafe(ROOM);
    this.length = 0;
    this.limit = PIECE_CHARS;
    return piece;
  }

  private room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + n));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }

  /** Any text, as UTF-8; ASCII byte by byte (the short separators and names of most rows). */
  text(s: string): this {
    const n = s.length;
    this.room(n * 3);
    const b = this.bytes;
    let at = this.length;
    for (let k = 0; k < n; k++) {
      const c = s.charCodeAt(k);
      if (c >= 128) {
        this.length += b.write(s, this.length, 'utf8');
        return this;
      }
      b[at++] = c;
    }
    this.length = at;
    return this;
  }

  /** One ASCII character by its code. */
  char(c: number): this {
    this.room(1);
    this.bytes[this.length++] = c;
    return this;
  }

  /** A safe integer in decimal, as String() writes it. */
  integer(n: number): this {
    if (!Number.isSafeInteger(n)) return this.text(String(n));
    this.room(17);
    if (n < 0) {
      this.bytes[this.length++] = 45;
      n = -n;
    }
    this.whole(n);
    return this;
  }

  /** Digits of 0 ≤ n < 2^53, without leading zeros: int32 arithmetic on parts below 10^9. */
  private whole(n: number): void {
    if (n < 1e9) {
      this.digits(n, digitCount(n));
      return;
    }
    const high = Math.floor(n / 1e9);
    this.whole(high);
    this.digits(n - high * 1e9, 9);
  }

  /** The last `width` digits of 0 ≤ n < 10^9, zero-padded. */
  private digits(n: number, width: number): void {
    const b = this.bytes;
    let v = n | 0;
    for (let k = this.length + width - 1; k >= this.length; k--) {
      const q = (v / 10) | 0;
      b[k] = 48 + v - q * 10;
      v = q;
    }
    this.length += width;
  }

  /**
   * decimalText(Math.round(v · 10^places) / 10^places || 0), places ≤ 18: the text numbers.ts's pixelText (9) and
   * unitText (12) give, written from the rounded integer's digits (see roundedText there for why that is exact).
   */
  rounded(v: number, places: number): this {
    const scale = places <= 9 ? POW10[places]! : 10 ** places;
    const r = Math.round(v * scale);
    if (!(Math.abs(r) < 1e15)) return this.text(decimalText(r / scale || 0));
    this.room(20);
    if (r === 0) return this.char(48);
    const a = r < 0 ? -r : r;
    const whole = Math.floor(a / scale);
    const fraction = a - whole * scale;
    if (r < 0) this.bytes[this.length++] = 45;
    this.whole(whole);
    if (fraction === 0) return this;
    this.bytes[this.length++] = 46;
    // Every place's digit, then the trailing zeros dropped (there is a digit other than 0: fraction > 0).
    if (places > 9) {
      const high = Math.floor(fraction / 1e9);
      this.digits(high, places - 9);
      this.digits(fraction - high * 1e9, 9);
    } else {
      this.digits(fraction, places);
    }
    while (this.bytes[this.length - 1] === 48) this.length--;
    return this;
  }

  /**
   * A normalised box (x, y, w, h) as its pixel corners x1, y1, x2, y2, each rounded as pixelText writes it, with the
   * character `separator` between them (KITTI and supervision CSV write boxes so).
   */
  pixelCorners(x: number, y: number, w: number, h: number, width: number, height: number, separator: number): this {
    return this.rounded(x * width, 9)
      .char(separator)
      .rounded(y * height, 9)
      .char(separator)
      .rounded((x + w) * width, 9)
      .char(separator)
      .rounded((y + h) * height, 9);
  }

  /**
   * A number passed through unchanged, as numbers.ts's plainText writes it. A value that is its own rounding to p ≤ 9
   * places is written with those places (the fewest that give it back, so the digits String() would choose), without
   * String()'s shortest-digits search: a confidence such as 0.734512 is the usual case.
   */
  plain(v: number): this {
    if (Math.abs(v) < 1e6 && !Object.is(v, -0)) {
      for (let p = 0; p <= 9; p++) {
        const scale = POW10[p]!;
        if (Math.round(v * scale) / scale === v) return this.rounded(v, p);
      }
    }
    return this.text(decimalText(v));
  }

  /** take() for small pieces (a zip entry): a copy of the bytes, and the same buffer written over. */
  takeCopy(): Buffer {
    const piece = Buffer.from(this.bytes.subarray(0, this.length));
    this.length = 0;
    return piece;
  }
}

function digitCount(n: number): number {
  let count = 1;
  while (count < 9 && n >= POW10[count]!) count++;
  return count;
}
