// The normalised run, in the columnar form it is validated into, stored as and read back from.

export interface BoxExtras {
  label?: unknown;
  classId?: unknown;
  /** The box was filled between keyframes (by an editor or an import's interpolation), not seen by a model. */
  interpolated?: true;
}

export interface TrackHeader {
  id: string;
  label?: string;
  classId?: string | number;
  confidence?: number;
  color?: string;
  /** Number of boxes of this track; the boxes follow the previous tracks' in the columns. */
  n: number;
  /**
   * Per-box label/classId/interpolated, sparse, keyed by the box's index within the track. Stored in the track
   * headers' JSON beside the packed box columns, so runs stored before a member existed decode unchanged.
   */
  extras?: Record<number, BoxExtras>;
}

/** Every stored box as 7 doubles: frame, x, y, w, h, confidence, timestampMs (NaN = absent). */
export const BOX_STRIDE = 7;

export interface RunBoxes {
  headers: TrackHeader[];
  /** BOX_STRIDE doubles per box, tracks in order, boxes of a track sorted by frame. */
  columns: Float64Array;
  count: number;
}

export interface Rejection {
  trackId: string;
  frame: number | null;
  reason: string;
}
export interface Warning {
  code: string;
  count: number;
  message: string;
}

export interface RunMetadata {
  runId: string;
  runIdGenerated: boolean;
  mediaKey?: string;
  analysisId?: string;
  name?: string;
  task: string;
  schemaVersion: string;
  source: Record<string, unknown>;
  originalCoordinateSpace: 'pixel' | 'normalized';
  originalBoxForm: 'xywh' | 'xyxy' | 'mixed';
  media?: Record<string, unknown>;
  categories?: unknown[];
}
