// A track's `boxes` array as the run parser reads it: numbers in a shared Float64Array instead of one object
// per box. A large run is 250 000 boxes; as objects they were most of JSON.parse's time and of the GC after it.

/** The box fields the parser packs, in slot order. A box with any other key is not packed. */
export const PACKED_FIELDS = [
  'frame',
  'x',
  'y',
  'w',
  'h',
  'x1',
  'y1',
  'x2',
  'y2',
  'confidence',
  'timestampMs',
] as const;
export const PACKED_STRIDE = PACKED_FIELDS.length;

/** The parser's growing buffer; every PackedBoxes of one body reads the final one. */
export interface PackedValues {
  values: Float64Array;
}

/** What a box looks like to the validator: a field a box did not have is undefined, as on a parsed object. */
export type BoxView = { -readonly [K in (typeof PACKED_FIELDS)[number]]: number | undefined };

export function newBoxView(): BoxView {
  return {
    frame: undefined,
    x: undefined,
    y: undefined,
    w: undefined,
    h: undefined,
    x1: undefined,
    y1: undefined,
    x2: undefined,
    y2: undefined,
    confidence: undefined,
    timestampMs: undefined,
  };
}

// JSON has no NaN, so NaN marks a field the box did not have.
const field = (v: number): number | undefined => (Number.isNaN(v) ? undefined : v);

export class PackedBoxes {
  constructor(
    private readonly store: PackedValues,
    private readonly start: number,
    readonly length: number,
  ) {}

  /** Box `index` written into `view` (one object reused for every box), which is returned. */
  load(index: number, view: BoxView): BoxView {
    const v = this.store.values;
    const o = (this.start + index) * PACKED_STRIDE;
    view.frame = field(v[o]!);
    view.x = field(v[o + 1]!);
    view.y = field(v[o + 2]!);
    view.w = field(v[o + 3]!);
    view.h = field(v[o + 4]!);
    view.x1 = field(v[o + 5]!);
    view.y1 = field(v[o + 6]!);
    view.x2 = field(v[o + 7]!);
    view.y2 = field(v[o + 8]!);
    view.confidence = field(v[o + 9]!);
    view.timestampMs = field(v[o + 10]!);
    return view;
  }
}
