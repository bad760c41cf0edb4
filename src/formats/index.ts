// The formats domain's public surface.
export { FormatError, type FormatErrorCode } from './format-error.js';
export { exportFrameSize, resolveFrameSize, toNormalised, toPixels } from './frame-size.js';
export { importWarnings } from './import-warnings.js';
export { interpolate, type Interpolated } from './interpolate.js';
export { collect, readBytes, readChunks } from './read-all.js';
export {
  fileNameFor,
  formatNames,
  formats,
  isFormatName,
  readerFor,
  writerFor,
  type FormatInfo,
  type FormatName,
} from './registry.js';
export { rejectionPositions } from './rejection-positions.js';
export type * from './types.js';
export { filledTrackLength, importRun, rejectionText, type ImportOptions, type ImportOutcome } from './import-run.js';
export { PositionedRejectionList, type PositionedRejection } from './positioned-rejections.js';
