// The import's rejections, kept compact as POST /detections keeps its own (see detections/rejection-list.ts): a bad
// 32 MiB file can hold millions of rows that cannot be read, and as objects (position, detail, track id, frame) and
// then one JSON string they took gigabytes. Here a rejection is a few numbers in typed arrays; track ids, details
// and zip entry names are kept once each; a long list is written as JSON piece by piece, in file order.
import type { JsonChunks } from '../http/json-chunks.js';
import type { Position } from './types.js';

const REASONS = [
  'row_malformed',
  'box_invalid_frame',
  'box_missing_geometry',
  'box_non_positive_dimensions',
  'box_out_of_frame',
] as const;
const REASON_CODE = new Map<string, number>(REASONS.map((reason, i) => [reason, i]));

/** Lists this long are written as a stream, as RejectionList does. */
const STREAM_FROM = 10_000;
const ELEMENT = /^track\[(\d+)\]\/box\[(\d+)\]$/;
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' });

/** A rejection as the import answers it: the detections fields, where it came from, and for an unread row why. */
export type PositionedRejection = {
  trackId: string | null;
  frame: number | null;
  reason: string;
  detail?: string;
} & Position;

type Kind = 'line' | 'index' | 'element' | 'entry';

export class PositionedRejectionList implements JsonChunks {
  length = 0;
  private kind: Kind | undefined;
  /** Interned texts: track ids (index 0 is null), details (0 is none), zip entry names. */
  private readonly texts = new Interned();
  private trackOf = new Uint32Array(0);
  private frames = new Float64Array(0);
  private reasons = new Uint8Array(0);
  private details = new Uint32Array(0);
  /** Line, index, track ordinal (element) or line in the entry (entry). */
  private at = new Float64Array(0);
  /** Box ordinal (element) or the entry name's text (entry). */
  private sub = new Uint32Array(0);
  private lastTrack: string | null | undefined;
  private lastTrackCode = 0;

  push(trackId: string | null, frame: number | null, reason: string, position: Position, detail?: string): void {
    if (this.length === this.frames.length) this.grow();
    const i = this.length++;
    if (trackId !== this.lastTrack) {
      this.lastTrack = trackId;
      this.lastTrackCode = trackId === null ? 0 : this.texts.code(trackId);
    }
    this.trackOf[i] = this.lastTrackCode;
    this.frames[i] = frame ?? NaN;
    const code = REASON_CODE.get(reason);
    if (code === undefined) throw new Error(`unknown rejection reason ${reason}`);
    this.reasons[i] = code;
    this.details[i] = detail === undefined ? 0 : this.texts.code(detail);
    this.place(i, position);
  }

  get(i: number): PositionedRejection {
    const frame = this.frames[i]!;
    const trackCode = this.trackOf[i]!;
    const detail = this.details[i]!;
    return {
      trackId: trackCode === 0 ? null : this.texts.text(trackCode),
      frame: Number.isNaN(frame) ? null : frame,
      reason: REASONS[this.reasons[i]!]!,
      ...(detail !== 0 ? { detail: this.texts.text(detail) } : {}),
      ...this.position(i),
    } as PositionedRejection;
  }

  /** Rejections in the order of the file: readers and the validator each list theirs in their own order. */
  sortByPosition(): void {
    const n = this.length;
    const order = Uint32Array.from({ length: n }, (_, i) => i);
    let rank: Map<number, number> | undefined;
    if (this.kind === 'entry') {
      const names = [...new Set(this.sub.subarray(0, n))];
      names.sort((a, b) => collator.compare(this.texts.text(a), this.texts.text(b)));
      rank = new Map(names.map((name, r) => [name, r]));
    }
    const major = (i: number) => (rank ? rank.get(this.sub[i]!)! : this.at[i]!);
    const minor = (i: number) => (rank ? this.at[i]! : this.kind === 'element' ? this.sub[i]! : 0);
    // Array.prototype.sort is stable: rows at one position keep the order they were pushed in.
    order.sort((a, b) => major(a) - major(b) || minor(a) - minor(b) || a - b);
    const permute = <T extends Float64Array | Uint32Array | Uint8Array>(column: T): T => {
      const copy = column.slice(0, n) as T;
      for (let k = 0; k < n; k++) column[k] = copy[order[k]!]!;
      return column;
    };
    permute(this.trackOf);
    permute(this.frames);
    permute(this.reasons);
    permute(this.details);
    permute(this.at);
    permute(this.sub);
  }

  toJSON(): PositionedRejection[] {
    return Array.from({ length: this.length }, (_, i) => this.get(i));
  }

  *[Symbol.iterator](): Generator<PositionedRejection> {
    for (let i = 0; i < this.length; i++) yield this.get(i);
  }

  get streams(): boolean {
    return this.length >= STREAM_FROM;
  }

  /** The same text as JSON.stringify(this), in pieces of about 64 KiB. */
  *jsonChunks(): Generator<string> {
    let piece = '[';
    for (let i = 0; i < this.length; i++) {
      piece += `${i === 0 ? '' : ','}${JSON.stringify(this.get(i))}`;
      if (piece.length >= 65_536) {
        yield piece;
        piece = '';
      }
    }
    yield `${piece}]`;
  }

  private place(i: number, position: Position): void {
    let kind: Kind;
    if ('line' in position) {
      kind = 'line';
      this.at[i] = position.line;
    } else if ('index' in position) {
      kind = 'index';
      this.at[i] = position.index;
    } else if ('element' in position) {
      kind = 'element';
      const m = ELEMENT.exec(position.element);
      if (!m) throw new Error(`unexpected element position ${position.element}`);
      this.at[i] = Number(m[1]);
      this.sub[i] = Number(m[2]);
    } else {
      kind = 'entry';
      const colon = position.entry.lastIndexOf(':');
      this.sub[i] = this.texts.code(position.entry.slice(0, colon));
      this.at[i] = Number(position.entry.slice(colon + 1));
    }
    if (this.kind !== undefined && this.kind !== kind) throw new Error(`positions of two kinds: ${this.kind}, ${kind}`);
    this.kind = kind;
  }

  private position(i: number): Position {
    switch (this.kind) {
      case 'element':
        return { element: `track[${this.at[i]}]/box[${this.sub[i]}]` };
      case 'entry':
        return { entry: `${this.texts.text(this.sub[i]!)}:${this.at[i]}` };
      case 'index':
        return { index: this.at[i]! };
      default:
        return { line: this.at[i]! };
    }
  }

  private grow(): void {
    const size = Math.max(16, this.frames.length * 2);
    const widen = <T extends Float64Array | Uint32Array | Uint8Array>(column: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(column);
      return next;
    };
    this.trackOf = widen(this.trackOf, (n) => new Uint32Array(n));
    this.frames = widen(this.frames, (n) => new Float64Array(n));
    this.reasons = widen(this.reasons, (n) => new Uint8Array(n));
    this.details = widen(this.details, (n) => new Uint32Array(n));
    this.at = widen(this.at, (n) => new Float64Array(n));
    this.sub = widen(this.sub, (n) => new Uint32Array(n));
  }
}

/** Texts by number, each kept once; 0 is reserved for "none". */
class Interned {
  private readonly codes = new Map<string, number>();
  private readonly list: string[] = [''];

  code(text: string): number {
    let code = this.codes.get(text);
    if (code === undefined) {
      code = this.list.push(text) - 1;
      this.codes.set(text, code);
    }
    return code;
  }

  text(code: number): string {
    return this.list[code]!;
  }
}
