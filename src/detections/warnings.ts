// Spec §4.5: soft problems that keep the run, one aggregated entry per kind, in a fixed order.
import { IMPLEMENTED_SCHEMA_VERSION } from './schema-version.js';
import { BOX_STRIDE, type RunBoxes, type Warning } from './run-types.js';

export function computeWarnings(
  run: RunBoxes,
  media: Record<string, unknown> | undefined,
  overwritten: number,
  minorVersion?: string,
  keypoints?: { boxes: number; points: number },
): Warning[] {
  const fps = typeof media?.fps === 'number' ? media.fps : undefined;
  const frameCount = typeof media?.frameCount === 'number' ? media.frameCount : undefined;
  let mismatched = 0;
  let outOfRange = 0;
  const c = run.columns;
  for (let i = 0; i < run.count; i++) {
    const frame = c[i * BOX_STRIDE]!;
    const ts = c[i * BOX_STRIDE + 6]!;
    if (fps !== undefined && !Number.isNaN(ts) && Math.abs(ts - (frame * 1000) / fps) > 1000 / fps) mismatched++;
    if (frameCount !== undefined && frame >= frameCount) outOfRange++;
  }
  const warnings: Warning[] = [];
  if (mismatched > 0) {
    warnings.push({
      code: 'TIMESTAMP_FRAME_MISMATCH',
      count: mismatched,
      message: `${mismatched} box(es) have timestampMs more than one frame away from frame * 1000 / fps (fps ${fps})`,
    });
  }
  if (outOfRange > 0) {
    warnings.push({
      code: 'FRAME_OUT_OF_RANGE',
      count: outOfRange,
      message: `${outOfRange} box(es) have a frame at or beyond media.frameCount (${frameCount})`,
    });
  }
  if (overwritten > 0) {
    warnings.push({
      code: 'DUPLICATE_FRAME',
      count: overwritten,
      message: `${overwritten} box(es) were overwritten by a later box of the same track and frame; the last one is kept`,
    });
  }
  if (minorVersion !== undefined) {
    warnings.push({
      code: 'SCHEMA_VERSION_MINOR_MISMATCH',
      count: 1,
      message: `schemaVersion ${minorVersion} was received; this server implements ${IMPLEMENTED_SCHEMA_VERSION} and ignores what it does not know`,
    });
  }
  // After the spec's four: a run is boxes, so the keypoints of a pose run are dropped, and the answer says so.
  if (keypoints && keypoints.boxes > 0) {
    warnings.push({
      code: 'KEYPOINTS_DROPPED',
      count: keypoints.boxes,
      message: `${keypoints.boxes} box(es) carried keypoints (${keypoints.points} in all), which are not stored; their boxes are`,
    });
  }
  return warnings;
}
