// Pixel ↔ normalised. The frame size comes from the file itself, else the request's width/height, else the
// recording; a pixel format with none of them cannot be mapped (media_required).
import { FormatError } from './format-error.js';
import type { FrameSize } from './types.js';

const positive = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;

function complete(size: Partial<FrameSize> | undefined): FrameSize | undefined {
  return size && positive(size.width) && positive(size.height) ? { width: size.width, height: size.height } : undefined;
}

/** The first complete size of file, request and recording, in that order; media_required when there is none. */
export function resolveFrameSize(
  file: Partial<FrameSize> | undefined,
  given: Partial<FrameSize> | undefined,
  recording: Partial<FrameSize> | undefined,
): FrameSize {
  const size = complete(file) ?? complete(given) ?? complete(recording);
  if (size === undefined) {
    throw new FormatError(
      'media_required',
      'This format has pixel coordinates and no frame size: give width and height (or import to a recording that has them)',
    );
  }
  return size;
}

/** Pixel to normalised, as validateRun does it (one division), so that the two agree to the last bit. */
export const toNormalised = (pixels: number, extent: number): number => pixels / extent;
export const toPixels = (unit: number, extent: number): number => unit * extent;

/** The frame size of a run's media for a writer, else the one given; media_required when neither is complete. */
export function exportFrameSize(media: Record<string, unknown> | undefined, given?: Partial<FrameSize>): FrameSize {
  const fromMedia = media ? { width: media.width as number, height: media.height as number } : undefined;
  return resolveFrameSize(fromMedia, given, undefined);
}
