// Strict number parsing and canonical number text shared by the text formats.
import { decimalText } from '../util/decimal-text.js';

// Number('') is 0 and Number('0x1f') is 31: a field must look like a decimal number to be one.
export const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The field's value, or NaN when it is not a finite decimal number. */
export function parseNumber(field: string | undefined): number {
  if (field === undefined) return NaN;
  // Comma-separated files often pad fields with spaces ("1, 2, 3").
  const text = field.trim();
  if (!isDecimal(text)) return NaN;
  const n = Number(text);
  return Number.isFinite(n) ? n : NaN;
}

/**
 * DECIMAL.test(text), by hand: a file's every number goes through here (a million in a large import), and the
 * regular expression was a tenth of a CVAT import's CPU time.
 */
export function isDecimal(text: string): boolean {
  const n = text.length;
  let i = 0;
  let c = text.charCodeAt(0);
  if (c === 43 || c === 45) c = text.charCodeAt(++i); // + -
  let digits = 0;
  while (c >= 48 && c <= 57) {
    digits++;
    c = text.charCodeAt(++i);
  }
  if (c === 46) {
    // "."
    c = text.charCodeAt(++i);
    while (c >= 48 && c <= 57) {
      digits++;
      c = text.charCodeAt(++i);
    }
  }
  if (digits === 0) return false;
  if (c === 101 || c === 69) {
    // e E
    c = text.charCodeAt(++i);
    if (c === 43 || c === 45) c = text.charCodeAt(++i);
    let exponent = 0;
    while (c >= 48 && c <= 57) {
      exponent++;
      c = text.charCodeAt(++i);
    }
    if (exponent === 0) return false;
  }
  return i === n;
}

/** A decimal integer id as text ("7", "-1"), the form that is kept on export to integer-id formats. */
export const INTEGER_ID = /^-?(?:0|[1-9]\d*)$/;
export const isIntegerId = (id: string): boolean => INTEGER_ID.test(id) && Number.isSafeInteger(Number(id));

/**
 * Pixel values are written rounded to 9 decimals: 1e-9 px is far below any tool's precision, and rounding absorbs
 * the last-bit noise of x·width, so that writing what was read gives the same bytes again.
 */
export function pixelText(v: number): string {
  return roundedText(v, 1e9, 9);
}

/** Normalised values are written rounded to 12 decimals, for the same reason as pixelText. */
export function unitText(v: number): string {
  return roundedText(v, 1e12, 12);
}

/**
 * decimalText(Math.round(v · scale) / scale || 0), written from the integer's digits when it has at most 15: such a
 * decimal is the shortest text of the double nearest to it (doubles tell every 15-digit decimal apart), so the
 * text is the same, without the shortest-digits search of String(double), which was most of an export's time.
 */
function roundedText(v: number, scale: number, digits: number): string {
  const r = Math.round(v * scale);
  if (!(Math.abs(r) < 1e15)) return decimalText(r / scale || 0);
  if (r === 0) return '0';
  const a = r < 0 ? -r : r;
  const whole = Math.floor(a / scale);
  let fraction = a - whole * scale;
  const sign = r < 0 ? '-' : '';
  if (fraction === 0) return `${sign}${whole}`;
  // Trailing zeros dropped on the integer (exact: it is below 2^53), not by a regular expression on its text.
  let width = digits;
  while (fraction % 10 === 0) {
    fraction /= 10;
    width--;
  }
  return `${sign}${whole}.${String(fraction).padStart(width, '0')}`;
}

/** A number as text for a confidence or other value passed through unchanged. */
export const plainText = (v: number): string => decimalText(v);

/** A track id as read from a text column: "3.0" (written by float formatting) is the id "3". */
export function idText(field: string): string {
  const n = parseNumber(field);
  return Number.isSafeInteger(n) ? String(n) : field;
}

/** 10^0 … 10^22: every one of them is exact as a double. */
const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

/** Where the last readDecimal stopped: a second return value would allocate, and one read runs at a time. */
export let decimalEnd = 0;

/**
 * The decimal number at bytes[start] (parseNumber's grammar, no spaces), read up to the first byte that cannot
 * continue it (its index is left in decimalEnd); NaN when the bytes there are not a decimal number or it is not
 * finite. Up to 15 significant digits and a power of ten within ±22 the value is one correctly rounded
 * multiplication or division of two exact doubles (Clinger's fast path), the double Number() gives; other numbers
 * go to Number() on their text. A MOT file is four numbers a row, and decoding, splitting and trimming each row's
 * text first was most of its import.
 */
export function readDecimal(bytes: Buffer, start: number, end: number): number {
  let i = start;
  let c = i < end ? bytes[i]! : -1;
  const negative = c === 45;
  if (c === 43 || c === 45) c = ++i < end ? bytes[i]! : -1;
  let mantissa = 0;
  // Every digit (a number needs one) and the significant ones (the fast path takes 15).
  let digits = 0;
  let significant = 0;
  let exponent = 0;
  while (c >= 48 && c <= 57) {
    digits++;
    if (significant > 0 || c !== 48) significant++;
    mantissa = mantissa * 10 + (c - 48);
    c = ++i < end ? bytes[i]! : -1;
  }
  if (c === 46) {
    c = ++i < end ? bytes[i]! : -1;
    while (c >= 48 && c <= 57) {
      digits++;
      if (significant > 0 || c !== 48) significant++;
      mantissa = mantissa * 10 + (c - 48);
      exponent--;
      c = ++i < end ? bytes[i]! : -1;
    }
  }
  decimalEnd = i;
  if (digits === 0) return NaN;
  if (c === 101 || c === 69) {
    c = ++i < end ? bytes[i]! : -1;
    const negativeExponent = c === 45;
    if (c === 43 || c === 45) c = ++i < end ? bytes[i]! : -1;
    decimalEnd = i;
    if (!(c >= 48 && c <= 57)) return NaN;
    let e = 0;
    do {
      if (e < 1e6) e = e * 10 + (c - 48);
      c = ++i < end ? bytes[i]! : -1;
    } while (c >= 48 && c <= 57);
    decimalEnd = i;
    exponent += negativeExponent ? -e : e;
  }
  if (significant <= 15) {
    if (mantissa === 0) return negative ? -0 : 0;
    if (exponent >= 0 && exponent <= 22) return negative ? -(mantissa * POW10[exponent]!) : mantissa * POW10[exponent]!;
    if (exponent < 0 && exponent >= -22)
      return negative ? -(mantissa / POW10[-exponent]!) : mantissa / POW10[-exponent]!;
  }
  const n = Number(bytes.toString('latin1', start, i));
  return Number.isFinite(n) ? n : NaN;
}
