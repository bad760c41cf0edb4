// The rejected boxes of a run, kept compact. The spec lists every one, and a 32 MiB body can hold 2.6 million boxes
// that are all rejected: as objects, and then as one JSON string and its bytes, that answer took about 1 GiB of
// memory. Here each rejection is 13 bytes, and a long list is written as JSON piece by piece (json-chunks.ts).
import type { GeometryRejection } from './box-geometry.js';
import type { Rejection } from './run-types.js';
import type { JsonChunks } from '../http/json-chunks.js';

export type RejectionReason = 'box_invalid_frame' | GeometryRejection;
const REASONS: RejectionReason[] = [
  'box_invalid_frame',
  'box_missing_geometry',
  'box_non_positive_dimensions',
  'box_out_of_frame',
];
const REASON_CODE = new Map(REASONS.map((reason, i) => [reason, i]));

/** Lists this long are written as a stream: below it, one JSON.stringify is quicker and small. */
const STREAM_FROM = 10_000;

export class RejectionList implements JsonChunks {
  length = 0;
  /** Track ids in order of their first rejection; consecutive rejections of one track share an entry. */
  private readonly trackIds: string[] = [];
  private trackOf = new Uint32Array(0);
  /** NaN for a frame that is not an integer (null in the answer). */
  private frames = new Float64Array(0);
  private reasons = new Uint8Array(0);

  push(trackId: string, frame: number | null, reason: RejectionReason): void {
    if (this.length === this.frames.length) this.grow();
    const last = this.trackIds.length - 1;
    if (last < 0 || this.trackIds[last] !== trackId) this.trackIds.push(trackId);
    const i = this.length++;
    this.trackOf[i] = this.trackIds.length - 1;
    this.frames[i] = frame ?? NaN;
    this.reasons[i] = REASON_CODE.get(reason)!;
  }

  at(i: number): Rejection {
    const frame = this.frames[i]!;
    return {
      trackId: this.trackIds[this.trackOf[i]!]!,
      frame: Number.isNaN(frame) ? null : frame,
      reason: REASONS[this.reasons[i]!]!,
    };
  }

  toJSON(): Rejection[] {
    return Array.from({ length: this.length }, (_, i) => this.at(i));
  }

  get streams(): boolean {
    return this.length >= STREAM_FROM;
  }

  /** The same text as JSON.stringify(this), in pieces of about 64 KiB. */
  *jsonChunks(): Generator<string> {
    let piece = '[';
    let track = -1;
    let head = '';
    for (let i = 0; i < this.length; i++) {
      if (this.trackOf[i] !== track) {
        track = this.trackOf[i]!;
        head = `{"trackId":${JSON.stringify(this.trackIds[track])},"frame":`;
      }
      const frame = this.frames[i]!;
      piece += `${i === 0 ? '' : ','}${head}${Number.isNaN(frame) ? 'null' : JSON.stringify(frame)},"reason":"${REASONS[this.reasons[i]!]}"}`;
      if (piece.length >= 65_536) {
        yield piece;
        piece = '';
      }
    }
    yield `${piece}]`;
  }

  private grow(): void {
    const size = Math.max(16, this.frames.length * 2);
    const trackOf = new Uint32Array(size);
    trackOf.set(this.trackOf);
    this.trackOf = trackOf;
    const frames = new Float64Array(size);
    frames.set(this.frames);
    this.frames = frames;
    const reasons = new Uint8Array(size);
    reasons.set(this.reasons);
    this.reasons = reasons;
  }
}
