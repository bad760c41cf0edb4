// A file that a reader has read, turned into a validated run exactly as `POST /detections` validates one, with every
// rejection (rows the reader could not read, boxes the box rules refused) carrying its place in the file. The import
// route and `sightline convert` share it, so that a file converts offline as it would import.
import type { RunBoxes } from '../detections/run-types.js';
import { MAX_BOXES_PER_TRACK } from '../detections/limits.js';
import { validateRun, type RequestFailure, type ValidatedRun } from '../detections/validate-run.js';
import { BOX_STRIDE } from '../detections/run-types.js';
import { importWarnings } from './import-warnings.js';
import { interpolate } from './interpolate.js';
import { PositionedRejectionList, type PositionedRejection } from './positioned-rejections.js';

export type { PositionedRejection };
import { forEachRejectionPosition } from './rejection-positions.js';
import type { ReadResult } from './types.js';

export interface ImportOptions {
  /** The recording, as `POST /detections` names it. */
  target: { mediaKey?: string; analysisId?: string };
  /** The run's id when the caller gives one; else the file's own (a run JSON's source.runId), else `fallbackRunId`. */
  runId?: string;
  /** A function when it costs something (a hash of the file), so that it is made only when no other id is given. */
  fallbackRunId?: string | (() => string);
  /** Source members given with the request; each wins over the file's own. `kind` defaults to `import`. */
  source?: { kind?: string; name?: string; version?: string };
  name?: string;
  /** The frame size given with the request: recorded as the run's media when the file (a normalised one) has none. */
  frameSize?: { width?: number; height?: number };
  /** Fill the frames between consecutive boxes of each track. */
  interpolate?: boolean;
}

export type ImportOutcome =
  | RequestFailure
  | {
      ok: true;
      run: ValidatedRun;
      /** Every rejection, in the order of the file. */
      rejected: PositionedRejectionList;
      /** 1 for each box that interpolation filled, when it was asked for. */
      interpolated?: Uint8Array;
    };

const defined = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== ''));

export function importRun(read: ReadResult, options: ImportOptions): ImportOutcome {
  const file = read.run;
  const fileSource = (file.source ?? {}) as Record<string, unknown>;
  const runId =
    options.runId ?? (typeof fileSource.runId === 'string' && fileSource.runId !== '' ? fileSource.runId : undefined);
  const media = { ...file.media };
  const { width, height } = options.frameSize ?? {};
  if (media.width === undefined && media.height === undefined && width !== undefined && height !== undefined)
    Object.assign(media, { width, height });
  const body: Record<string, unknown> = {
    ...file,
    // The request names the recording: whatever a run JSON file says about it does not count.
    mediaKey: options.target.mediaKey,
    analysisId: options.target.mediaKey === undefined ? options.target.analysisId : undefined,
    source: {
      ...fileSource,
      kind: fileSource.kind ?? 'import',
      ...defined({ ...options.source }),
      runId: runId ?? (typeof options.fallbackRunId === 'function' ? options.fallbackRunId() : options.fallbackRunId),
    },
    ...(Object.keys(media).length > 0 ? { media } : {}),
    ...(options.name !== undefined ? { name: options.name } : {}),
  };
  const result = validateRun(body);
  if (!result.ok) {
    // A file every row of which was unreadable has no tracks: that is every box rejected, not a missing array.
    if (result.code === 'tracks_missing' && read.malformed.length > 0) {
      return {
        ok: false,
        code: 'all_boxes_rejected',
        detail: 'No row of the file could be read; nothing was stored',
        extensions: { rejected: positioned(read, undefined), warnings: importWarnings(read.skipped) },
      };
    }
    if (result.code === 'too_many_tracks' && read.skipped.untracked > 0) {
      const detail = `${result.detail} (${read.skipped.untracked} row(s) without a track id were each a track of their own)`;
      return { ...result, detail };
    }
    return result;
  }
  result.warnings.push(...importWarnings(read.skipped));
  const rejected = positioned(read, result);
  if (!options.interpolate) return { ok: true, run: result, rejected };
  const longest = filledTrackLength(result.boxes);
  if (longest > MAX_BOXES_PER_TRACK) {
    return {
      ok: false,
      code: 'too_many_boxes',
      detail: `Interpolated, a track would have ${longest} boxes; a track holds at most ${MAX_BOXES_PER_TRACK}`,
    };
  }
  const filled = interpolate(result.boxes);
  return { ok: true, run: { ...result, boxes: filled.boxes }, rejected, interpolated: filled.interpolated };
}

/** The most boxes one track would have with its gaps filled: checked before interpolating allocates them. */
export function filledTrackLength(boxes: RunBoxes): number {
  let longest = 0;
  let start = 0;
  for (const h of boxes.headers) {
    if (h.n > 0) {
      const first = boxes.columns[start * BOX_STRIDE]!;
      const last = boxes.columns[(start + h.n - 1) * BOX_STRIDE]!;
      longest = Math.max(longest, last - first + 1);
    }
    start += h.n;
  }
  return longest;
}

/** The reader's unread rows and the validator's rejected boxes, each with its position, merged in file order. */
function positioned(read: ReadResult, result: ValidatedRun | undefined): PositionedRejectionList {
  const out = new PositionedRejectionList();
  for (const m of read.malformed) out.push(m.trackId, m.frame, 'row_malformed', m.position, m.detail);
  if (result && result.rejected.length > 0) {
    let i = 0;
    forEachRejectionPosition(read, (position) => {
      const r = result.rejected.at(i++);
      out.push(r.trackId, r.frame, r.reason, position);
    });
  }
  out.sortByPosition();
  return out;
}

/** Rejections as lines a person reads: `line 17: row_malformed (trackId 7, frame 3): 5 columns; …`. */
export function rejectionText(r: PositionedRejection): string {
  const where =
    'line' in r ? `line ${r.line}` : 'index' in r ? `index ${r.index}` : 'element' in r ? r.element : r.entry;
  const what = [r.trackId !== null ? `track ${r.trackId}` : '', r.frame !== null ? `frame ${r.frame}` : '']
    .filter(Boolean)
    .join(', ');
  return `${where}: ${r.reason}${what ? ` (${what})` : ''}${r.detail ? `: ${r.detail}` : ''}`;
}
