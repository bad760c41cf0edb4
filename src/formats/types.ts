// The shapes every format shares: what a reader gives back, what a writer takes, and where a row came from.
import type { PackedBoxes } from '../detections/packed-boxes.js';
import type { RunBoxes } from '../detections/run-types.js';

/** Where a row, box or element came from in the file, in the form a rejection carries it. */
export type Position = { line: number } | { element: string } | { index: number } | { entry: string };

/** A row the reader could not turn into a box; the route reports it as `row_malformed`. */
export interface MalformedRow {
  position: Position;
  /** What was wrong, in a sentence a producer can act on. */
  detail: string;
  trackId: string | null;
  frame: number | null;
}

/** One track as the body of `POST /detections` carries it; boxes are packed unless a box has its own class. */
export interface RawTrack {
  id: string;
  label?: string;
  classId?: number | string;
  boxes: PackedBoxes | Record<string, unknown>[];
}

/** The run as `POST /detections` takes it, without the target (mediaKey / analysisId): validateRun's input. */
export interface RawRun {
  schemaVersion: string;
  coordinateSpace: 'pixel' | 'normalized';
  media?: Record<string, unknown>;
  categories?: unknown[];
  source?: Record<string, unknown>;
  name?: string;
  tracks: RawTrack[];
  [key: string]: unknown;
}

/** Rows that were read but are not objects, counted for the warnings. */
export interface SkipCounts {
  /** MOT ground truth with consider flag 0, CVAT boxes with outside="1", KITTI DontCare. */
  notObjects: number;
  /** CVAT shapes other than boxes (points, polylines, polygons, skeletons, masks, …). */
  nonBoxShapes: number;
  /** Rows without a track id (untracked detections), each stored as a one-box track of its own. */
  untracked: number;
}

export interface ReadResult {
  run: RawRun;
  /** Position of every box: `positionOf(t, b)` is box b of run.tracks[t]. */
  positionOf(track: number, box: number): Position;
  malformed: MalformedRow[];
  skipped: SkipCounts;
}

export interface FrameSize {
  width: number;
  height: number;
}

export interface ReadOptions {
  /** MOT only: `gt` (consider flag, class, visibility) or `results` (confidence, x, y, z); default `results`. */
  flavor?: 'gt' | 'results';
  /** The frame size given with the request (`width`/`height`). */
  frameSize?: Partial<FrameSize>;
  /** The recording's frame size, used when neither the file nor the request gives one. */
  recordingSize?: Partial<FrameSize>;
}

/** Push-style reader: bytes in as they arrive, the result at the end. Throws FormatError. */
export interface FormatReader {
  write(chunk: Uint8Array): void;
  end(): ReadResult;
}

/** A stored (normalised, columnar) run as a writer takes it. */
export interface ExportRun {
  boxes: RunBoxes;
  /** 1 for a box that interpolation filled (see interpolate.ts); absent when none was. */
  interpolated?: Uint8Array;
  runId?: string;
  name?: string;
  source?: Record<string, unknown>;
  media?: Record<string, unknown>;
  categories?: unknown[];
}

export interface WriteOptions {
  flavor?: 'gt' | 'results';
  /** Frame size for pixel formats when the run's media has none. */
  frameSize?: Partial<FrameSize>;
  /** File stem for names inside the file (YOLO entries, COCO file names); default: the run's name or `video`. */
  stem?: string;
}

/** A writer yields the file in pieces so that a large export streams. Text formats yield strings, YOLO bytes. */
export type FormatWriter = (run: ExportRun, options?: WriteOptions) => Generator<string | Uint8Array>;
