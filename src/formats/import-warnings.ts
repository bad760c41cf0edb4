// Warnings for rows a file held that are not objects, in the shape of the detections warnings.
import type { Warning } from '../detections/run-types.js';
import type { SkipCounts } from './types.js';

export function importWarnings(skipped: SkipCounts): Warning[] {
  const warnings: Warning[] = [];
  if (skipped.notObjects > 0) {
    warnings.push({
      code: 'ROWS_NOT_OBJECTS',
      count: skipped.notObjects,
      message: `${skipped.notObjects} row(s) mark no object (MOT consider flag 0, CVAT outside="1", KITTI DontCare) and were not stored`,
    });
  }
  if (skipped.nonBoxShapes > 0) {
    warnings.push({
      code: 'NON_BOX_SHAPES_SKIPPED',
      count: skipped.nonBoxShapes,
      message: `${skipped.nonBoxShapes} shape(s) other than boxes (points, polylines, polygons, skeletons, masks) were skipped`,
    });
  }
  if (skipped.untracked > 0) {
    warnings.push({
      code: 'UNTRACKED_BOXES',
      count: skipped.untracked,
      message: `${skipped.untracked} row(s) had no track id and were each stored as a track of one box (ids untracked-1, untracked-2, … not used by the file)`,
    });
  }
  return warnings;
}
