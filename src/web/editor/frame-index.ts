// A run's boxes re-laid by frame (compressed rows: the boxes of frame f are start[f]..start[f+1]), so
// drawing one frame touches only that frame's boxes, never the whole run.
import type { Track } from '../types.js';

export interface FrameIndex {
  /** One past the last frame with a box. */
  frames: number;
  /** Offsets into the box arrays, length frames + 1 (the arrays may be longer: room an update reuses). */
  start: Uint32Array;
  x: Float32Array;
  y: Float32Array;
  w: Float32Array;
  h: Float32Array;
  /** Box confidence, else the track's, else NaN (always shown). */
  conf: Float32Array;
  /** Track index and position of the box within its track's (frame-sorted) boxes. */
  track: Uint32Array;
  slot: Uint32Array;
  /** The track ids in the order `track` counts them: what an update maps the untouched tracks' positions by. */
  ids: string[];
  /**
   * The columns of the index this one was updated from, which the next update writes into: allocating seven
   * arrays of the run's size on every edit costs more (in garbage collection) than the edit itself.
   */
  spare?: Columns;
  /** Tells this state of the index from any other (an update in place changes it too). */
  version: number;
  /** What the last update changed: the version it started from and the frames whose boxes it wrote. */
  changed?: { from: number; frames: number[] };
}

let versions = 0;

type Columns = Pick<FrameIndex, 'x' | 'y' | 'w' | 'h' | 'conf' | 'track' | 'slot'>;

export function boxConfidence(track: Track, boxIndex: number): number {
  const c = track.boxes[boxIndex]?.confidence ?? track.confidence;
  return typeof c === 'number' && Number.isFinite(c) ? c : Number.NaN;
}

export function buildFrameIndex(tracks: readonly Track[]): FrameIndex {
  let total = 0;
  let frames = 0;
  for (const t of tracks) {
    total += t.boxes.length;
    for (const b of t.boxes) if (b.frame + 1 > frames) frames = b.frame + 1;
  }
  const start = new Uint32Array(frames + 1);
  for (const t of tracks) for (const b of t.boxes) start[b.frame + 1]! += 1;
  for (let f = 0; f < frames; f++) start[f + 1]! += start[f]!;
  const fill = start.slice(0, frames);
  const index: FrameIndex = {
    frames,
    start,
    ...emptyColumns(total),
    ids: tracks.map((t) => t.id),
    version: ++versions,
  };
  tracks.forEach((t, ti) => {
    t.boxes.forEach((b, bi) => {
      writeBox(index, fill[b.frame]!++, ti, bi, b.x, b.y, b.w, b.h, boxConfidence(t, bi));
    });
  });
  return index;
}

/** The columns of an index of `total` boxes (no frames yet). */
function emptyColumns(total: number): Columns {
  return {
    x: new Float32Array(total),
    y: new Float32Array(total),
    w: new Float32Array(total),
    h: new Float32Array(total),
    conf: new Float32Array(total),
    track: new Uint32Array(total),
    slot: new Uint32Array(total),
  };
}

const COLUMNS = ['x', 'y', 'w', 'h', 'conf', 'track', 'slot'] as const;

/**
 * The index after an edit of the tracks `ids` (changed, added or removed; `before` holds those that existed, as
 * they were), equal to buildFrameIndex(tracks) without walking the other tracks: only the frames the edited tracks
 * had or have are re-laid, the other frames' boxes are copied over as blocks, and their track positions renumbered
 * when the edit inserted or removed tracks. An edit of a 5000-track layer then costs the edited track, not the run.
 */
export function updateFrameIndex(
  index: FrameIndex,
  tracks: readonly Track[],
  ids: Iterable<string>,
  before: readonly Track[],
): FrameIndex {
  const touched = new Set(ids);
  const from = index.version;
  const written = updateInPlace(index, tracks, touched, before);
  if (written) {
    index.version = ++versions;
    index.changed = { from, frames: written };
    return index;
  }
  const position = new Map<string, number>();
  for (let ti = 0; ti < tracks.length; ti++) position.set(tracks[ti]!.id, ti);
  // Where each track of the index is now; -1 for an edited one (its boxes are read again from the track).
  const moved = new Int32Array(index.ids.length);
  let renumber = false;
  for (let old = 0; old < index.ids.length; old++) {
    const id = index.ids[old]!;
    const now = touched.has(id) ? -1 : (position.get(id) ?? -1);
    moved[old] = now;
    if (now !== old && now >= 0) renumber = true;
  }

  // The edited tracks' boxes now, by frame, then track, then position in the track (buildFrameIndex's order).
  const added: Array<{ frame: number; ti: number; bi: number }> = [];
  for (const id of touched) {
    const ti = position.get(id);
    if (ti === undefined) continue;
    const boxes = tracks[ti]!.boxes;
    for (let bi = 0; bi < boxes.length; bi++) added.push({ frame: boxes[bi]!.frame, ti, bi });
  }
  added.sort((a, b) => a.frame - b.frame || a.ti - b.ti || a.bi - b.bi);
  // The frames to re-lay: those the edited tracks had boxes on, and those they have now.
  const relaid = new Set<number>();
  for (const t of before) for (const b of t.boxes) relaid.add(b.frame);
  for (const a of added) relaid.add(a.frame);
  const frames = [...relaid].sort((a, b) => a - b);

  // Boxes per re-laid frame: the others' boxes kept, the edited tracks' added.
  const oldCount = (f: number) => (f < index.frames ? index.start[f + 1]! - index.start[f]! : 0);
  const kept = new Map<number, number>();
  let total = index.start[index.frames]!;
  for (const f of frames) {
    let n = 0;
    if (f < index.frames)
      for (let i = index.start[f]!; i < index.start[f + 1]!; i++) if (moved[index.track[i]!]! >= 0) n++;
    kept.set(f, n);
    total -= oldCount(f) - n;
  }
  total += added.length;
  const countAt = (f: number) => (kept.has(f) ? kept.get(f)! : oldCount(f));
  let addedAt = 0;
  const addedCount = new Map<number, number>();
  for (const a of added) addedCount.set(a.frame, (addedCount.get(a.frame) ?? 0) + 1);
  // One past the last frame with a box: the edit may have added later frames or emptied the last ones.
  let frameCount = Math.max(index.frames, frames.length > 0 ? frames[frames.length - 1]! + 1 : 0);
  while (frameCount > 0 && countAt(frameCount - 1) + (addedCount.get(frameCount - 1) ?? 0) === 0) frameCount--;

  // Written into the spare columns when they have room (the old index's become the next spare), else into new
  // ones with room to grow.
  const columns = index.spare && index.spare.x.length >= total ? index.spare : emptyColumns(total + (total >> 3) + 64);
  const { x, y, w, h, conf, track, slot } = index;
  const out: FrameIndex = {
    frames: frameCount,
    start: new Uint32Array(frameCount + 1),
    ...columns,
    ids: tracks.map((t) => t.id),
    spare: { x, y, w, h, conf, track, slot },
    version: ++versions,
    changed: { from: index.version, frames },
  };
  let at = 0;
  /** Copies the untouched frames [from, to) as one block. */
  const copyFrames = (from: number, to: number) => {
    const a = Math.min(from, index.frames);
    const b = Math.min(to, index.frames);
    for (let f = from; f < to; f++)
      out.start[f] = at + (f < index.frames ? index.start[f]! : index.start[index.frames]!) - index.start[a]!;
    if (b <= a) return;
    const lo = index.start[a]!;
    const hi = index.start[b]!;
    for (const c of COLUMNS) out[c].set(index[c].subarray(lo, hi), at);
    if (renumber) for (let i = at; i < at + hi - lo; i++) out.track[i] = moved[out.track[i]!]!;
    at += hi - lo;
  };
  const put = (ti: number, bi: number, x: number, y: number, w: number, h: number, conf: number) => {
    writeBox(out, at++, ti, bi, x, y, w, h, conf);
  };
  let next = 0;
  for (const f of frames) {
    if (f >= frameCount) break;
    copyFrames(next, f);
    out.start[f] = at;
    // The frame's kept boxes (in track order, which an edit keeps) merged with the edited tracks' by track.
    let i = f < index.frames ? index.start[f]! : 0;
    const end = f < index.frames ? index.start[f + 1]! : 0;
    for (;;) {
      while (i < end && moved[index.track[i]!]! < 0) i++;
      const hasOld = i < end;
      const hasNew = addedAt < added.length && added[addedAt]!.frame === f;
      if (!hasOld && !hasNew) break;
      const oldTrack = hasOld ? moved[index.track[i]!]! : 0;
      if (hasOld && (!hasNew || oldTrack < added[addedAt]!.ti)) {
        put(oldTrack, index.slot[i]!, index.x[i]!, index.y[i]!, index.w[i]!, index.h[i]!, index.conf[i]!);
        i++;
      } else {
        const { ti, bi } = added[addedAt++]!;
        const t = tracks[ti]!;
        const b = t.boxes[bi]!;
        put(ti, bi, b.x, b.y, b.w, b.h, boxConfidence(t, bi));
      }
    }
    next = f + 1;
  }
  if (next < frameCount) copyFrames(next, frameCount);
  out.start[frameCount] = at;
  return out;
}

/** An edited track's entries while the index is re-laid in place: they are written over. */
const EDITED = 0xffffffff;

/**
 * The common edits (a box moved or resized, its track interpolated again, a keyframe toggled, a track split, and
 * their undo) keep every frame's number of boxes. Then the index is updated where it is: only the edited tracks'
 * frames are rewritten, and when tracks came or went the others' track numbers are shifted in one pass over the
 * track column. Returns the frames written, or undefined (nothing written) when some frame's count changed.
 */
function updateInPlace(
  index: FrameIndex,
  tracks: readonly Track[],
  touched: ReadonlySet<string>,
  before: readonly Track[],
): number[] | undefined {
  const edited: number[] = [];
  // Where each track of the index stands now (EDITED for an edited or removed one); undefined: none moved.
  let moved: Uint32Array | undefined;
  for (const id of touched) {
    const ti = tracks.length === index.ids.length ? index.ids.indexOf(id) : -1;
    if (ti < 0 || tracks[ti]!.id !== id) {
      moved = new Uint32Array(index.ids.length);
      break;
    }
    edited.push(ti);
  }
  if (moved) {
    // The untouched tracks keep their order: walk the index's ids and the tracks together.
    edited.length = 0;
    moved.fill(EDITED);
    let old = 0;
    for (let ti = 0; ti < tracks.length; ti++) {
      const id = tracks[ti]!.id;
      if (touched.has(id)) {
        edited.push(ti);
        continue;
      }
      while (old < index.ids.length && index.ids[old] !== id) old++;
      if (old === index.ids.length) return undefined;
      moved[old++] = ti;
    }
  }
  // Boxes per frame, before (+1 each) and now (-1 each): every frame must come out even.
  const balance = new Map<number, number>();
  for (const t of before) for (const b of t.boxes) balance.set(b.frame, (balance.get(b.frame) ?? 0) + 1);
  for (const ti of edited) for (const b of tracks[ti]!.boxes) balance.set(b.frame, (balance.get(b.frame) ?? 0) - 1);
  for (const n of balance.values()) if (n !== 0) return undefined;
  if (!moved && sameFrames(tracks, edited, before)) return rewriteBoxes(index, tracks, edited, before);
  if (moved) {
    const total = index.start[index.frames]!;
    for (let i = 0; i < total; i++) index.track[i] = moved[index.track[i]!]!;
    index.ids = tracks.map((t) => t.id);
  }
  // Without a move, the edited tracks' entries still carry their (unchanged) numbers.
  const isEdited = new Set(moved ? [EDITED] : edited);
  // The edited tracks' boxes by frame, in buildFrameIndex's order within a frame (track, then slot).
  const added = new Map<number, Array<[number, number]>>();
  for (const ti of edited) {
    const boxes = tracks[ti]!.boxes;
    for (let bi = 0; bi < boxes.length; bi++) {
      const f = boxes[bi]!.frame;
      const list = added.get(f);
      if (list) list.push([ti, bi]);
      else added.set(f, [[ti, bi]]);
    }
  }
  for (const [f, list] of added) {
    list.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const from = index.start[f]!;
    const to = index.start[f + 1]!;
    // The untouched tracks' boxes of the frame moved to its front, in their order; then merged with the edited
    // tracks' from the back, so that no box is written over before it is moved.
    let end = from;
    for (let i = from; i < to; i++) if (!isEdited.has(index.track[i]!)) copyBox(index, i, end++);
    let k = end - 1;
    let a = list.length - 1;
    for (let at = to - 1; at >= from; at--) {
      if (k >= from && (a < 0 || index.track[k]! > list[a]![0])) copyBox(index, k--, at);
      else {
        const [ti, bi] = list[a--]!;
        const t = tracks[ti]!;
        const b = t.boxes[bi]!;
        writeBox(index, at, ti, bi, b.x, b.y, b.w, b.h, boxConfidence(t, bi));
      }
    }
  }
  return [...added.keys()];
}

/** Whether each edited track has its boxes on the same frames, in the same slots, as before the edit. */
function sameFrames(tracks: readonly Track[], edited: readonly number[], before: readonly Track[]): boolean {
  for (let k = 0; k < edited.length; k++) {
    const now = tracks[edited[k]!]!;
    const was = before.find((t) => t.id === now.id);
    if (!was || was.boxes.length !== now.boxes.length) return false;
    for (let bi = 0; bi < now.boxes.length; bi++) if (was.boxes[bi]!.frame !== now.boxes[bi]!.frame) return false;
  }
  return true;
}

/**
 * Every box keeps its place in the index (same frame, same slot), so a box that changed is written over where
 * it stands; a nudge writes one box, and re-reads only the frames whose boxes changed.
 */
function rewriteBoxes(
  index: FrameIndex,
  tracks: readonly Track[],
  edited: readonly number[],
  before: readonly Track[],
): number[] {
  const frames: number[] = [];
  for (const ti of edited) {
    const now = tracks[ti]!;
    const was = before.find((t) => t.id === now.id)!;
    for (let bi = 0; bi < now.boxes.length; bi++) {
      const b = now.boxes[bi]!;
      const a = was.boxes[bi]!;
      const conf = boxConfidence(now, bi);
      if (a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h && Object.is(boxConfidence(was, bi), conf)) continue;
      for (let i = index.start[b.frame]!; i < index.start[b.frame + 1]!; i++) {
        if (index.track[i] !== ti || index.slot[i] !== bi) continue;
        writeBox(index, i, ti, bi, b.x, b.y, b.w, b.h, conf);
        frames.push(b.frame);
        break;
      }
    }
  }
  return frames;
}

function copyBox(index: FrameIndex, from: number, to: number): void {
  if (from === to) return;
  index.x[to] = index.x[from]!;
  index.y[to] = index.y[from]!;
  index.w[to] = index.w[from]!;
  index.h[to] = index.h[from]!;
  index.conf[to] = index.conf[from]!;
  index.track[to] = index.track[from]!;
  index.slot[to] = index.slot[from]!;
}

function writeBox(
  index: FrameIndex,
  i: number,
  ti: number,
  bi: number,
  x: number,
  y: number,
  w: number,
  h: number,
  conf: number,
): void {
  index.x[i] = x;
  index.y[i] = y;
  index.w[i] = w;
  index.h[i] = h;
  index.conf[i] = conf;
  index.track[i] = ti;
  index.slot[i] = bi;
}

/** Where box (track ti, slot bi) sits in the index, or -1. */
export function findInIndex(index: FrameIndex, frame: number, ti: number, bi: number): number {
  if (frame < 0 || frame >= index.frames) return -1;
  for (let i = index.start[frame]!; i < index.start[frame + 1]!; i++) {
    if (index.track[i] === ti && index.slot[i] === bi) return i;
  }
  return -1;
}

/** Boxes of frame f shown at a confidence threshold (a box without confidence is always shown). */
export function countFrame(index: FrameIndex, f: number, threshold: number): number {
  if (f >= index.frames) return 0;
  let c = 0;
  for (let i = index.start[f]!; i < index.start[f + 1]!; i++) if (!(index.conf[i]! < threshold)) c++;
  return c;
}

/** Boxes shown per frame at a confidence threshold (a box without confidence is always shown). */
export function countsPerFrame(index: FrameIndex, threshold: number, into: Uint32Array): void {
  const n = Math.min(index.frames, into.length);
  for (let f = 0; f < n; f++) into[f]! += countFrame(index, f, threshold);
}

/** The runs of frames a track is present in, as [first, last] pairs (a gap of more than one frame splits). */
export function presence(track: Track): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const b of track.boxes) {
    const last = spans[spans.length - 1];
    if (last && b.frame <= last[1] + 1) last[1] = Math.max(last[1], b.frame);
    else spans.push([b.frame, b.frame]);
  }
  return spans;
}
