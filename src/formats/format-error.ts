// The one error a reader or writer throws: a whole file it cannot read, or a frame size it does not have.
import type { Position } from './types.js';

export type FormatErrorCode = 'invalid_file' | 'media_required' | 'payload_too_large';

export class FormatError extends Error {
  constructor(
    readonly code: FormatErrorCode,
    message: string,
    /** The first problem's place in the file, when there is one. */
    readonly position?: Position,
  ) {
    super(message);
    this.name = 'FormatError';
  }
}

export const invalidFile = (message: string, position?: Position): FormatError =>
  new FormatError('invalid_file', message, position);
