// For any run, each format gives it back within its precision, and writing what was read gives the same bytes.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { integerIds } from '../../src/formats/id-numbering.js';
import { MOT_CLASSES } from '../../src/formats/mot.js';
import type { FormatName } from '../../src/formats/registry.js';
import type { ReadOptions, WriteOptions } from '../../src/formats/types.js';
import { exportRunOf, expectSameTracks, read, toExport, tracksOf, write, type SimpleTrack } from './helpers.js';

interface Traits {
  /** Ids must be integers in the file: others are numbered. */
  integerIds: boolean;
  /** Rows are written frame by frame, so tracks come back in order of their first frame. */
  byFrame: boolean;
  /** The label/classId pairs the format can carry. */
  classes: { label?: string; classId?: number | string }[];
  /** Whether classId survives (CVAT and KITTI have names only). */
  keepsClassId: boolean;
  confidence: boolean;
  write?: WriteOptions;
  read?: ReadOptions;
}

const NUMBERED = [
  { label: 'car', classId: 2 },
  { label: 'person', classId: 0 },
  { label: 'traffic "light", red', classId: 9 },
];
const TRAITS: Record<FormatName, Traits> = {
  mot: { integerIds: true, byFrame: true, classes: [{}], keepsClassId: false, confidence: true },
  'cvat-video': {
    integerIds: true,
    byFrame: false,
    classes: [{ label: 'car' }, { label: 'a <b> & "c"' }],
    keepsClassId: false,
    confidence: false,
  },
  coco: {
    integerIds: false,
    byFrame: false,
    classes: [
      { label: 'car', classId: 3 },
      { label: 'person', classId: 1 },
    ],
    keepsClassId: true,
    confidence: true,
  },
  yolo: { integerIds: true, byFrame: true, classes: NUMBERED, keepsClassId: true, confidence: true },
  'supervision-csv': { integerIds: false, byFrame: true, classes: NUMBERED, keepsClassId: true, confidence: true },
  kitti: {
    integerIds: true,
    byFrame: true,
    classes: [{ label: 'Car' }, { label: 'Pedestrian' }],
    keepsClassId: false,
    confidence: true,
  },
  sightline: {
    integerIds: false,
    byFrame: false,
    classes: [{}, { label: 'car', classId: 'c7' }, { label: 'x', classId: 4 }],
    keepsClassId: true,
    confidence: true,
  },
};
const MOT_GT: Traits = {
  integerIds: true,
  byFrame: true,
  classes: MOT_CLASSES.slice(1).map((label, i) => ({ label, classId: i + 1 })),
  keepsClassId: true,
  confidence: false,
  write: { flavor: 'gt' },
  read: { flavor: 'gt' },
};

const ID_POOL = ['1', '2', '17', '-3', 'car-1', 'x y', 'ünï'];

/** A run for a format: `grid` keeps every value a multiple of 1e-4, as model output printed with 4 decimals is. */
function runFor(traits: Traits, grid: boolean) {
  const unit = grid
    ? (min: number, max: number) =>
        fc.integer({ min: Math.ceil(min * 1e4), max: Math.floor(max * 1e4) }).map((n) => n / 1e4)
    : (min: number, max: number) => fc.double({ min, max, noNaN: true });
  const box = fc
    .record({ x: unit(0, 0.9), y: unit(0, 0.9), fw: unit(0.01, 1), fh: unit(0.01, 1), confidence: unit(0, 1) })
    .map(({ x, y, fw, fh, confidence }) => {
      // w within what is left of the frame, at least 0.001 so that it is a box in any format.
      const w = Math.max(0.001, grid ? Math.round((1 - x) * fw * 1e4) / 1e4 : (1 - x) * fw);
      const h = Math.max(0.001, grid ? Math.round((1 - y) * fh * 1e4) / 1e4 : (1 - y) * fh);
      return { x, y, w, h, ...(traits.confidence ? { confidence } : {}) };
    });
  const track = fc.record({
    cls: fc.constantFrom(...traits.classes),
    boxes: fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: 40 }), box), {
      minLength: 1,
      maxLength: 5,
      selector: ([frame]) => frame,
    }),
  });
  return fc
    .record({
      ids: fc.uniqueArray(fc.constantFrom(...ID_POOL), { minLength: 1, maxLength: 4 }),
      tracks: fc.array(track, { minLength: 4, maxLength: 4 }),
      width: fc.integer({ min: 1, max: 4096 }),
      height: fc.integer({ min: 1, max: 4096 }),
    })
    .map(({ ids, tracks, width, height }) => {
      const simple: SimpleTrack[] = ids.map((id, t) => {
        const { cls, boxes } = tracks[t]!;
        const sorted = [...boxes].sort((a, b) => a[0] - b[0]).map(([frame, b]) => ({ frame, ...b }));
        return { id, ...cls, boxes: sorted };
      });
      return { tracks: simple, media: { width, height } };
    });
}

/** What the format gives back for `tracks`. */
function expected(traits: Traits, tracks: SimpleTrack[]): SimpleTrack[] {
  const written = integerIds(tracks.map((t) => t.id));
  const out = tracks.map((t, i) => {
    const e: SimpleTrack = { id: traits.integerIds ? String(written[i]) : t.id, boxes: t.boxes };
    if (t.label !== undefined) e.label = t.label;
    if (traits.keepsClassId && t.classId !== undefined) e.classId = t.classId;
    return { e, first: t.boxes[0]!.frame, i };
  });
  if (traits.byFrame) out.sort((a, b) => a.first - b.first || a.i - b.i);
  return out.map(({ e }) => e);
}

const cases: [string, FormatName, Traits][] = [
  ...(Object.entries(TRAITS) as [FormatName, Traits][]).map(
    ([name, t]) => [name, name, t] as [string, FormatName, Traits],
  ),
  ['mot (gt)', 'mot', MOT_GT],
];

describe.each(cases)('%s', (_title, format, traits) => {
  it('read(write(run)) equals the run within 1e-9', () => {
    fc.assert(
      fc.property(runFor(traits, false), ({ tracks, media }) => {
        const bytes = write(format, exportRunOf(tracks, media), traits.write);
        const back = toExport(read(format, bytes, { ...traits.read, frameSize: media }));
        expectSameTracks(tracksOf(back), expected(traits, tracks), 1e-9);
      }),
      { numRuns: 60 },
    );
  });

  it('write(read(write(run))) gives the same bytes', () => {
    fc.assert(
      fc.property(runFor(traits, true), ({ tracks, media }) => {
        const bytes = write(format, exportRunOf(tracks, media), traits.write);
        const back = toExport(read(format, bytes, { ...traits.read, frameSize: media }));
        const again = write(format, back, { ...traits.write, frameSize: media });
        if (!again.equals(bytes)) throw new Error(`bytes differ:\n${bytes.toString()}\n---\n${again.toString()}`);
      }),
      { numRuns: 60 },
    );
  });
});
