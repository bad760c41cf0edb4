// Gathers the rows of a file into tracks (in order of first appearance) as packed boxes, with each box's position.
// One builder per file; the rows themselves become numbers in typed arrays, not objects, because a 32 MiB MOT
// file is over half a million rows.
import { PACKED_FIELDS, PACKED_STRIDE, PackedBoxes } from '../detections/packed-boxes.js';
import { resolveFrameSize } from './frame-size.js';
import type { MalformedRow, Position, RawTrack, ReadOptions, ReadResult, SkipCounts } from './types.js';

const SLOT = Object.fromEntries(PACKED_FIELDS.map((f, i) => [f, i])) as Record<(typeof PACKED_FIELDS)[number], number>;

/** How a reader's two position numbers read: see positionText. */
export type PositionKind = 'line' | 'index' | 'element' | 'entry';

interface TrackRows {
  id: string;
  label?: string;
  classId?: number | string;
  /** The track's place in the file's order of first appearance. */
  ordinal: number;
  /** Its boxes so far. */
  n: number;
  /** Label / class of a box that differs from its track's, by box index. */
  extras?: Map<number, { label?: string; classId?: number | string }>;
  /** A one-box track of a row without a track id: its id is chosen at the end, clear of every id of the file. */
  untracked?: true;
}

/** Ids of one-box tracks are `untracked-1`, `untracked-2`, …, skipping any that the file itself uses. */
export const UNTRACKED_ID_PREFIX = 'untracked-';

export interface RunHeader {
  coordinateSpace: 'pixel' | 'normalized';
  media?: Record<string, unknown>;
  categories?: unknown[];
}

/** Boxes the builder makes room for at first; it doubles as it fills. */
const FIRST_ROOM = 1024;

export class RunBuilder {
  private readonly tracks: TrackRows[] = [];
  /**
   * Every box in the order of the file, whatever its track: one array that doubles, instead of one per track (a
   * 5000-track file made 30 000 small typed arrays, and collecting them was a quarter of a CVAT read). finish()
   * puts them in track order. Absent values are NaN (append writes every slot).
   */
  private values = new Float64Array(FIRST_ROOM * PACKED_STRIDE);
  /**
   * Two position numbers per box: the first (line, index, track ordinal or entry ordinal), then the second (box
   * ordinal in an XML track, line in a zip entry; unused otherwise).
   */
  private positions = new Int32Array(FIRST_ROOM * 2);
  /** The track ordinal of each box. */
  private owners = new Int32Array(FIRST_ROOM);
  private count = 0;
  private readonly byId = new Map<string, TrackRows>();
  private readonly byNumber = new Map<number, TrackRows>();
  /** The track of the last box() call: files list a track's boxes together (CVAT, COCO by track), so most hit. */
  private lastId: string | undefined;
  private lastTrack: TrackRows | undefined;
  readonly malformed: MalformedRow[] = [];
  readonly skipped: SkipCounts = { notObjects: 0, nonBoxShapes: 0, untracked: 0 };
  /** Entry names for `entry` positions, by ordinal. */
  readonly entries: string[] = [];

  constructor(readonly kind: PositionKind) {}

  position(at: number, sub = 0): Position {
    switch (this.kind) {
      case 'line':
        return { line: at };
      case 'index':
        return { index: at };
      case 'element':
        return { element: `track[${at}]/box[${sub}]` };
      case 'entry':
        return { entry: `${this.entries[at] ?? '?'}:${sub}` };
    }
  }

  reject(detail: string, position: Position, trackId: string | null = null, frame: number | null = null): void {
    this.malformed.push({ position, detail, trackId, frame });
  }

  /**
   * One box. `form` says whether a,b,c,d are x,y,w,h or x1,y1,x2,y2; `confidence` is NaN when absent.
   * `label`/`classId` set the track's on its first box and are kept per box when a later box differs.
   */
  box(
    trackId: string,
    frame: number,
    form: 'xywh' | 'xyxy',
    a: number,
    b: number,
    c: number,
    d: number,
    confidence: number,
    label: string | undefined,
    classId: number | string | undefined,
    at: number,
    sub = 0,
  ): void {
    let track = trackId === this.lastId ? this.lastTrack! : this.byId.get(trackId);
    if (track === undefined) track = this.namedTrack(trackId, label, classId);
    this.lastId = trackId;
    this.lastTrack = track;
    this.addBox(track, frame, form, a, b, c, d, confidence, label, classId, at, sub);
  }

  /**
   * box() for a track id that is a safe integer, as most files' ids are: found by its number, so that a reader of
   * bytes makes no id string per row. The track is the one box() gives for `String(id)`.
   */
  numberedBox(
    id: number,
    frame: number,
    form: 'xywh' | 'xyxy',
    a: number,
    b: number,
    c: number,
    d: number,
    confidence: number,
    label: string | undefined,
    classId: number | string | undefined,
    at: number,
  ): void {
    let track = this.byNumber.get(id);
    if (track === undefined) {
      const text = String(id);
      track = this.byId.get(text) ?? this.namedTrack(text, label, classId);
      this.byNumber.set(id, track);
    }
    this.addBox(track, frame, form, a, b, c, d, confidence, label, classId, at, 0);
  }

  private namedTrack(id: string, label: string | undefined, classId: number | string | undefined): TrackRows {
    const track = this.newTrack(id, label, classId);
    this.byId.set(id, track);
    return track;
  }

  private addBox(
    track: TrackRows,
    frame: number,
    form: 'xywh' | 'xyxy',
    a: number,
    b: number,
    c: number,
    d: number,
    confidence: number,
    label: string | undefined,
    classId: number | string | undefined,
    at: number,
    sub: number,
  ): void {
    if (label !== track.label || classId !== track.classId) {
      const extra: { label?: string; classId?: number | string } = {};
      if (label !== undefined) extra.label = label;
      if (classId !== undefined) extra.classId = classId;
      track.extras ??= new Map();
      track.extras.set(track.n, extra);
    }
    this.append(track, frame, form, a, b, c, d, confidence, at, sub);
  }

  /**
   * A box of a row without a track id (a detection that was not tracked): a track of its own, whose id
   * (`untracked-<n>`) is given in finish(), once every id of the file is known, so that it cannot take one of them.
   */
  untrackedBox(
    frame: number,
    form: 'xywh' | 'xyxy',
    a: number,
    b: number,
    c: number,
    d: number,
    confidence: number,
    label: string | undefined,
    classId: number | string | undefined,
    at: number,
    sub = 0,
  ): void {
    const track = this.newTrack('', label, classId);
    track.untracked = true;
    this.skipped.untracked++;
    this.append(track, frame, form, a, b, c, d, confidence, at, sub);
  }

  private newTrack(id: string, label: string | undefined, classId: number | string | undefined): TrackRows {
    const track: TrackRows = { id, ordinal: this.tracks.length, n: 0 };
    if (label !== undefined) track.label = label;
    if (classId !== undefined) track.classId = classId;
    this.tracks.push(track);
    return track;
  }

  private append(
    track: TrackRows,
    frame: number,
    form: 'xywh' | 'xyxy',
    a: number,
    b: number,
    c: number,
    d: number,
    confidence: number,
    at: number,
    sub: number,
  ): void {
    const i = this.count;
    if (i === this.owners.length) this.grow();
    const o = i * PACKED_STRIDE;
    const v = this.values;
    // Every slot is written, the other form's and timestampMs as NaN: the arrays are not filled beforehand, so
    // that room made and never used costs nothing.
    const xywh = form === 'xywh';
    v[o + SLOT.frame] = frame;
    v[o + SLOT.x] = xywh ? a : NaN;
    v[o + SLOT.y] = xywh ? b : NaN;
    v[o + SLOT.w] = xywh ? c : NaN;
    v[o + SLOT.h] = xywh ? d : NaN;
    v[o + SLOT.x1] = xywh ? NaN : a;
    v[o + SLOT.y1] = xywh ? NaN : b;
    v[o + SLOT.x2] = xywh ? NaN : c;
    v[o + SLOT.y2] = xywh ? NaN : d;
    v[o + SLOT.confidence] = confidence;
    v[o + SLOT.timestampMs] = NaN;
    this.positions[i * 2] = at;
    this.positions[i * 2 + 1] = sub;
    this.owners[i] = track.ordinal;
    this.count = i + 1;
    track.n++;
  }

  private grow(): void {
    const room = this.owners.length * 2;
    const values = new Float64Array(room * PACKED_STRIDE);
    values.set(this.values);
    this.values = values;
    const positions = new Int32Array(room * 2);
    positions.set(this.positions);
    this.positions = positions;
    const owners = new Int32Array(room);
    owners.set(this.owners);
    this.owners = owners;
  }

  /**
   * The boxes and their positions in track order, each track's in the order of the file. Files that list a track's
   * boxes together, in the order the tracks first appear (CVAT, COCO by track, a run JSON), are in it already.
   */
  private inTrackOrder(starts: Int32Array): { values: Float64Array; positions: Int32Array } {
    const { count, owners } = this;
    let ordered = true;
    for (let i = 1; i < count && ordered; i++) ordered = owners[i - 1]! <= owners[i]!;
    if (ordered) return { values: this.values.subarray(0, count * PACKED_STRIDE), positions: this.positions };
    const values = new Float64Array(count * PACKED_STRIDE);
    const positions = new Int32Array(count * 2);
    const next = Int32Array.from(starts);
    for (let i = 0; i < count; i++) {
      const to = next[owners[i]!]!++;
      for (let k = 0; k < PACKED_STRIDE; k++) values[to * PACKED_STRIDE + k] = this.values[i * PACKED_STRIDE + k]!;
      positions[to * 2] = this.positions[i * 2]!;
      positions[to * 2 + 1] = this.positions[i * 2 + 1]!;
    }
    return { values, positions };
  }

  /** The result of a pixel file with no frame size of its own: the request's, else the recording's. */
  finishInPixels(options: ReadOptions): ReadResult {
    const size = resolveFrameSize(undefined, options.frameSize, options.recordingSize);
    return this.finish({ coordinateSpace: 'pixel', media: { width: size.width, height: size.height } });
  }

  private nameUntracked(): void {
    if (this.skipped.untracked === 0) return;
    let n = 0;
    for (const t of this.tracks) {
      if (!t.untracked || t.id !== '') continue;
      do n++;
      while (this.byId.has(`${UNTRACKED_ID_PREFIX}${n}`));
      t.id = `${UNTRACKED_ID_PREFIX}${n}`;
    }
  }

  /** The result; `header` holds the run's members other than tracks (coordinate space, media, …). */
  finish(header: RunHeader): ReadResult {
    this.nameUntracked();
    // One store for every track, so that the run holds a single array however many tracks it has.
    const starts = new Int32Array(this.tracks.length);
    for (let t = 1; t < starts.length; t++) starts[t] = starts[t - 1]! + this.tracks[t - 1]!.n;
    const { values, positions } = this.inTrackOrder(starts);
    const store = { values };
    const tracks: RawTrack[] = [];
    let start = 0;
    for (const t of this.tracks) {
      const packed = new PackedBoxes(store, start, t.n);
      const track: RawTrack = { id: t.id, boxes: t.extras ? unpacked(packed, t.extras) : packed };
      if (t.label !== undefined) track.label = t.label;
      if (t.classId !== undefined) track.classId = t.classId;
      tracks.push(track);
      start += t.n;
    }
    const rows = this.tracks;
    return {
      // The route fills in source (kind, name, version, runId) from the request; `import` is the contract's default.
      run: { schemaVersion: '1.0', source: { kind: 'import' }, ...header, tracks },
      positionOf: (track, box) => {
        const t = rows[track];
        return t === undefined || box >= t.n
          ? this.position(0, 0)
          : this.position(positions[(starts[track]! + box) * 2]!, positions[(starts[track]! + box) * 2 + 1]!);
      },
      malformed: this.malformed,
      skipped: this.skipped,
    };
  }
}

/** A track with per-box classes as plain box objects: the packed form holds numbers only. */
function unpacked(
  packed: PackedBoxes,
  extras: Map<number, { label?: string; classId?: number | string }>,
): Record<string, unknown>[] {
  const view = {} as Parameters<PackedBoxes['load']>[1];
  const boxes: Record<string, unknown>[] = [];
  for (let i = 0; i < packed.length; i++) {
    packed.load(i, view);
    const box: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(view)) if (value !== undefined) box[key] = value;
    Object.assign(box, extras.get(i));
    boxes.push(box);
  }
  return boxes;
}
