import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateRun, type ValidatedRun } from '../../src/detections/validate-run.js';
import { BOX_STRIDE } from '../../src/detections/run-types.js';

const base = (over: Record<string, unknown> = {}) => ({
  mediaKey: 'cam/1700000000_a.mp4',
  schemaVersion: '1.0',
  source: { kind: 'model', name: 'yolo', version: '8', runId: 'r1' },
  coordinateSpace: 'normalized',
  tracks: [{ id: 't1', boxes: [{ frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.3 }] }],
  ...over,
});

function ok(body: unknown): ValidatedRun {
  const r = validateRun(body);
  if (!r.ok) throw new Error(`expected ok, got ${r.code}: ${r.detail}`);
  return r;
}
/** An array nested `depth` levels deep around a number. */
const nested = (depth: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};
const code = (body: unknown) => {
  const r = validateRun(body);
  return r.ok ? 'ok' : r.code;
};
const boxesOf = (r: ValidatedRun) =>
  Array.from({ length: r.boxes.count }, (_, i) =>
    Array.from(r.boxes.columns.subarray(i * BOX_STRIDE, i * BOX_STRIDE + 5)),
  );

describe('whole-request checks (spec §4.3)', () => {
  it.each([
    ['not an object', [], 'invalid_body'],
    ['null', null, 'invalid_body'],
    ['no target', base({ mediaKey: undefined }), 'target_missing'],
    ['empty target', base({ mediaKey: '' }), 'target_missing'],
    ['schemaVersion missing', base({ schemaVersion: undefined }), 'schema_version_missing'],
    ['schemaVersion major 2', base({ schemaVersion: '2.0' }), 'unsupported_schema_version'],
    ['schemaVersion malformed', base({ schemaVersion: 'v1' }), 'unsupported_schema_version'],
    ['schemaVersion a number', base({ schemaVersion: 1 }), 'unsupported_schema_version'],
    ['task unknown', base({ task: 'segmentation' }), 'unsupported_task'],
    ['name too long', base({ name: 'x'.repeat(129) }), 'invalid_field'],
    ['source missing', base({ source: undefined }), 'invalid_source'],
    ['source an array', base({ source: [] }), 'invalid_source'],
    ['runId with slash', base({ source: { runId: 'a/b' } }), 'invalid_run_id'],
    ['runId with control char', base({ source: { runId: 'a\nb' } }), 'invalid_run_id'],
    ['runId with DEL', base({ source: { runId: 'a\u007fb' } }), 'invalid_run_id'],
    ['runId with a C1 control char', base({ source: { runId: 'a\u0085b' } }), 'invalid_run_id'],
    ['runId with the last C1 control char', base({ source: { runId: 'a\u009fb' } }), 'invalid_run_id'],
    ['runId with NBSP (not a control char)', base({ source: { runId: 'a\u00a0b' } }), 'ok'],
    ['name null (absent)', base({ name: null }), 'ok'],
    ['categories null (absent)', base({ categories: null }), 'ok'],
    ['source.name null (absent)', base({ source: { name: null, runId: 'r' } }), 'ok'],
    ['runId too long', base({ source: { runId: 'r'.repeat(129) } }), 'invalid_run_id'],
    ['runId empty', base({ source: { runId: '' } }), 'invalid_run_id'],
    ['runId a number', base({ source: { runId: 5 } }), 'invalid_run_id'],
    ['source.name too long', base({ source: { name: 'n'.repeat(65) } }), 'invalid_source'],
    ['source.version too long', base({ source: { version: 'v'.repeat(33) } }), 'invalid_source'],
    ['source.kind not a string', base({ source: { kind: 3 } }), 'invalid_source'],
    [
      'a source extra past a double (1e400 parses as Infinity)',
      base({ source: { scoreThreshold: Infinity } }),
      'invalid_source',
    ],
    ['a media extra past a double', base({ media: { bitrate: -Infinity } }), 'invalid_media'],
    ['coordinateSpace unknown', base({ coordinateSpace: 'polar' }), 'invalid_coordinate_space'],
    ['pixel without media', base({ coordinateSpace: 'pixel' }), 'media_required'],
    ['pixel with zero width', base({ coordinateSpace: 'pixel', media: { width: 0, height: 10 } }), 'invalid_media'],
    ['pixel without height', base({ coordinateSpace: 'pixel', media: { width: 10 } }), 'invalid_media'],
    ['negative fps', base({ media: { fps: -1 } }), 'invalid_media'],
    ['fractional frameCount', base({ media: { frameCount: 1.5 } }), 'invalid_media'],
    ['categories not an array', base({ categories: {} }), 'invalid_field'],
    ['too many categories', base({ categories: new Array(1001).fill({}) }), 'invalid_field'],
    ['tracks missing', base({ tracks: undefined }), 'tracks_missing'],
    ['tracks empty', base({ tracks: [] }), 'tracks_missing'],
    [
      'too many tracks',
      base({
        tracks: Array.from({ length: 5001 }, (_, i) => ({ id: i, boxes: [{ frame: 0, x: 0, y: 0, w: 0.1, h: 0.1 }] })),
      }),
      'too_many_tracks',
    ],
    ['track not an object', base({ tracks: [5] }), 'invalid_track'],
    ['track id missing', base({ tracks: [{ boxes: [{ frame: 0, x: 0, y: 0, w: 0.1, h: 0.1 }] }] }), 'invalid_track'],
    [
      'track id too long',
      base({ tracks: [{ id: 'i'.repeat(65), boxes: [{ frame: 0, x: 0, y: 0, w: 0.1, h: 0.1 }] }] }),
      'invalid_track',
    ],
    [
      'duplicate track id (7 and "7")',
      base({
        tracks: [
          { id: 7, boxes: [{ frame: 0, x: 0, y: 0, w: 0.1, h: 0.1 }] },
          { id: '7', boxes: [{ frame: 0, x: 0, y: 0, w: 0.1, h: 0.1 }] },
        ],
      }),
      'duplicate_track_id',
    ],
    ['categories holding a number past a double', base({ categories: [{ id: Infinity, name: 'x' }] }), 'invalid_field'],
    // Counted without a spread: one of 300 000 members overflowed the call stack (a 500).
    [
      'categories holding a long array, one past a double at its end',
      base({ categories: [{ id: 1, embedding: [...new Array(300_000).fill(0), -Infinity] }] }),
      'invalid_field',
    ],
    [
      'categories holding a long array of plain numbers',
      base({ categories: [{ id: 1, embedding: new Array(300_000).fill(0) }] }),
      'ok',
    ],
    ['track without boxes', base({ tracks: [{ id: 'a', boxes: [] }] }), 'track_without_boxes'],
    ['track with boxes missing', base({ tracks: [{ id: 'a' }] }), 'track_without_boxes'],
    ['track with boxes an object', base({ tracks: [{ id: 'a', boxes: {} }] }), 'track_without_boxes'],
    ['track with boxes a string', base({ tracks: [{ id: 'a', boxes: 'x' }] }), 'track_without_boxes'],
    [
      'too many boxes',
      base({ tracks: [{ id: 'a', boxes: new Array(100_001).fill({ frame: 0, x: 0, y: 0, w: 0.1, h: 0.1 }) }] }),
      'too_many_boxes',
    ],
    [
      'track meta too large',
      base({ tracks: [{ id: 'a', meta: { s: 'x'.repeat(5000) }, boxes: [{ frame: 0, x: 0, y: 0, w: 0.1, h: 0.1 }] }] }),
      'invalid_field',
    ],
    [
      'box meta too large',
      base({ tracks: [{ id: 'a', boxes: [{ frame: 0, x: 0, y: 0, w: 0.1, h: 0.1, meta: { s: 'x'.repeat(5000) } }] }] }),
      'invalid_field',
    ],
    // Whole-request checks hold for boxes that are rejected too.
    [
      'box meta too large on a box with a bad frame',
      base({
        tracks: [
          {
            id: 'a',
            boxes: [
              { frame: 0, x: 0, y: 0, w: 0.1, h: 0.1 },
              { frame: -1, x: 0, y: 0, w: 0.1, h: 0.1, meta: { s: 'x'.repeat(5000) } },
            ],
          },
        ],
      }),
      'invalid_field',
    ],
    [
      'box meta too large on an out-of-frame box',
      base({
        tracks: [
          {
            id: 'a',
            boxes: [
              { frame: 0, x: 0, y: 0, w: 0.1, h: 0.1 },
              { frame: 1, x: 2, y: 0, w: 0.1, h: 0.1, meta: { s: 'x'.repeat(5000) } },
            ],
          },
        ],
      }),
      'invalid_field',
    ],
    [
      'track meta null (absent)',
      base({ tracks: [{ id: 'a', meta: null, boxes: [{ frame: 0, x: 0, y: 0, w: 0.1, h: 0.1, meta: null }] }] }),
      'ok',
    ],
    ['categories nested 1000 deep', base({ categories: [nested(999)] }), 'ok'],
    ['categories nested 1001 deep', base({ categories: [nested(1000)] }), 'invalid_field'],
    // A lone surrogate cannot be written as UTF-8: stored, it would become U+FFFD and answer to another name.
    ['runId with a lone surrogate', base({ source: { runId: 'sur\ud800-1' } }), 'invalid_run_id'],
    ['runId with a surrogate pair', base({ source: { runId: 'emoji\ud83d\ude00' } }), 'ok'],
    ['name with a lone surrogate', base({ name: 'n\udc00' }), 'invalid_field'],
    ['source.name with a lone surrogate', base({ source: { name: '\ud800', runId: 'r' } }), 'invalid_source'],
    [
      'track id with a lone surrogate',
      base({ tracks: [{ id: '\ud800', boxes: [{ frame: 0, x: 0, y: 0, w: 0.1, h: 0.1 }] }] }),
      'invalid_track',
    ],
    [
      'numeric track id longer than 64 bytes as text (5e-324)',
      base({ tracks: [{ id: 5e-324, boxes: [{ frame: 0, x: 0, y: 0, w: 0.1, h: 0.1 }] }] }),
      'invalid_track',
    ],
    [
      'numeric track id longer than 64 bytes as text (1e70)',
      base({ tracks: [{ id: 1e70, boxes: [{ frame: 0, x: 0, y: 0, w: 0.1, h: 0.1 }] }] }),
      'invalid_track',
    ],
    ['name with U+0000', base({ name: 'a\u0000b' }), 'invalid_field'],
    ['source.version with U+0000', base({ source: { version: '\u0000', runId: 'r' } }), 'invalid_source'],
    [
      'track id with U+0000',
      base({ tracks: [{ id: 'a\u0000', boxes: [{ frame: 0, x: 0, y: 0, w: 0.1, h: 0.1 }] }] }),
      'invalid_track',
    ],
    [
      'track label with U+0000',
      base({ tracks: [{ id: 'a', label: 'car\u0000', boxes: [{ frame: 0, x: 0, y: 0, w: 0.1, h: 0.1 }] }] }),
      'invalid_track',
    ],
    [
      'numeric track id of 64 digits',
      base({ tracks: [{ id: 1e63, boxes: [{ frame: 0, x: 0, y: 0, w: 0.1, h: 0.1 }] }] }),
      'ok',
    ],
    ['media.fps and frameCount null (absent)', base({ media: { fps: null, frameCount: null } }), 'ok'],
    ['normalized media with width null (absent)', base({ media: { width: null, height: null } }), 'ok'],
    ['pixel with width null', base({ coordinateSpace: 'pixel', media: { width: null, height: 10 } }), 'invalid_media'],
  ])('%s → %s', (_name, body, expected) => {
    expect(code(body)).toBe(expected);
  });

  // Outside the table: the test runner's own formatting of a 20 000-deep value overflows the stack.
  it('answers invalid_field for meta and categories nested 20 000 deep, where JSON.stringify overflows the stack', () => {
    let deepObject: unknown = 1;
    for (let i = 0; i < 20_000; i++) deepObject = { a: deepObject };
    const box = { frame: 0, x: 0, y: 0, w: 0.1, h: 0.1 };
    expect(code(base({ tracks: [{ id: 'a', meta: deepObject, boxes: [box] }] }))).toBe('invalid_field');
    expect(code(base({ tracks: [{ id: 'a', boxes: [{ ...box, meta: deepObject }] }] }))).toBe('invalid_field');
    expect(code(base({ categories: [nested(20_000)] }))).toBe('invalid_field');
  });

  it('accepts analysisId alone, and prefers mediaKey when both are sent', () => {
    expect(ok(base({ mediaKey: undefined, analysisId: 'an-1' })).meta).toMatchObject({ analysisId: 'an-1' });
    const both = ok(base({ analysisId: 'an-1' })).meta;
    expect(both.mediaKey).toBe('cam/1700000000_a.mp4');
  });

  it('generates a sortable runId when none is sent', () => {
    const a = ok(base({ source: { name: 'x' } })).meta;
    expect(a.runIdGenerated).toBe(true);
    expect(a.runId).toMatch(/^[0-9a-z]{26}$/);
    expect(a.source.runId).toBe(a.runId);
  });

  it('keeps scalar extra members of source and drops nested ones', () => {
    const meta = ok(base({ source: { runId: 'r', inputWidth: 640, scoreThreshold: 0.25, nested: { a: 1 } } })).meta;
    expect(meta.source).toEqual({ runId: 'r', inputWidth: 640, scoreThreshold: 0.25 });
  });

  it('reads a numeric track id of 2^53 - 1 exactly, and takes a class id past a double as absent, as a confidence', () => {
    const r = ok(
      base({
        tracks: [
          {
            id: 9007199254740991,
            classId: Infinity,
            confidence: Infinity,
            boxes: [{ frame: 0, x: 0, y: 0, w: 0.1, h: 0.1, classId: -Infinity }],
          },
        ],
      }),
    );
    expect(r.boxes.headers).toEqual([{ id: '9007199254740991', n: 1 }]);
  });

  it('warns once for a minor schema version above 0 and ignores the patch', () => {
    expect(ok(base({ schemaVersion: '1.3' })).warnings).toEqual([
      expect.objectContaining({
        code: 'SCHEMA_VERSION_MINOR_MISMATCH',
        count: 1,
        message: expect.stringContaining('1.3'),
      }),
    ]);
    expect(ok(base({ schemaVersion: '1.0.7' })).warnings).toEqual([]);
    expect(ok(base({ schemaVersion: '1' })).warnings).toEqual([]);
  });
});

describe('box rules (spec §4.4)', () => {
  const run = (boxes: unknown[], over: Record<string, unknown> = {}) =>
    validateRun(base({ tracks: [{ id: 'A', boxes }], ...over }));

  it('rejects bad frames with the frame value or null', () => {
    const r = run([
      { frame: -1, x: 0, y: 0, w: 0.1, h: 0.1 },
      { frame: 1.5, x: 0, y: 0, w: 0.1, h: 0.1 },
      'box',
      { x: 0 },
      { frame: 2, x: 0, y: 0, w: 0.1, h: 0.1 },
    ]);
    expect(r.ok && r.rejected.toJSON()).toEqual([
      { trackId: 'A', frame: -1, reason: 'box_invalid_frame' },
      { trackId: 'A', frame: null, reason: 'box_invalid_frame' },
      { trackId: 'A', frame: null, reason: 'box_invalid_frame' },
      { trackId: 'A', frame: null, reason: 'box_invalid_frame' },
    ]);
  });

  it('accepts any integer frame, beyond 2^53 too (JSON has no integer limit), and rejects a negative one with its value', () => {
    const r = run([
      { frame: 2 ** 53, x: 0, y: 0, w: 0.1, h: 0.1 },
      { frame: 1e20, x: 0, y: 0, w: 0.1, h: 0.1 },
      { frame: -1e20, x: 0, y: 0, w: 0.1, h: 0.1 },
    ]);
    expect(r.ok && r.rejected.toJSON()).toEqual([{ trackId: 'A', frame: -1e20, reason: 'box_invalid_frame' }]);
    expect(r.ok && Array.from({ length: r.boxes.count }, (_, i) => r.boxes.columns[i * BOX_STRIDE])).toEqual([
      2 ** 53,
      1e20,
    ]);
  });

  it('turns numeric track ids into decimal text, never an exponent', () => {
    const r = ok(
      base({
        tracks: [
          { id: 1e21, boxes: [{ frame: 0, x: 0, y: 0, w: 0.1, h: 0.1 }] },
          { id: 2.5e-7, boxes: [{ frame: 0, x: 0, y: 0, w: 0.1, h: 0.1 }] },
        ],
      }),
    );
    expect(r.boxes.headers.map((h) => h.id)).toEqual(['1000000000000000000000', '0.00000025']);
  });

  it.each([
    ['no geometry', { frame: 0, confidence: 1 }, 'box_missing_geometry'],
    ['partial xywh', { frame: 0, x: 0, y: 0, w: 0.1 }, 'box_missing_geometry'],
    ['string coordinate', { frame: 0, x: '0', y: 0, w: 0.1, h: 0.1 }, 'box_missing_geometry'],
    ['zero width', { frame: 0, x: 0, y: 0, w: 0, h: 0.1 }, 'box_non_positive_dimensions'],
    ['negative height', { frame: 0, x: 0, y: 0, w: 0.1, h: -0.1 }, 'box_non_positive_dimensions'],
    ['x2 <= x1', { frame: 0, x1: 0.5, y1: 0, x2: 0.5, y2: 0.1 }, 'box_non_positive_dimensions'],
    ['left of frame beyond tolerance', { frame: 0, x: -0.0101, y: 0, w: 0.1, h: 0.1 }, 'box_out_of_frame'],
    ['right of frame beyond tolerance', { frame: 0, x1: 0.9, y1: 0, x2: 1.011, y2: 0.1 }, 'box_out_of_frame'],
    ['entirely in the tolerance band', { frame: 0, x1: 1.001, y1: 0, x2: 1.009, y2: 0.1 }, 'box_out_of_frame'],
  ])('%s → %s', (_name, box, reason) => {
    const r = run([box, { frame: 9, x: 0, y: 0, w: 0.1, h: 0.1 }]);
    expect(r.ok && r.rejected.toJSON()).toEqual([{ trackId: 'A', frame: 0, reason }]);
  });

  it('clamps slightly-out boxes into [0,1]', () => {
    const r = ok(base({ tracks: [{ id: 'A', boxes: [{ frame: 0, x: -0.005, y: 0.5, w: 0.2, h: 0.505 }] }] }));
    const [frame, x, y, w, h] = boxesOf(r)[0]!;
    expect([frame, x, y]).toEqual([0, 0, 0.5]);
    expect(w).toBeCloseTo(0.195, 12);
    expect(y! + h!).toBeCloseTo(1, 12);
    expect(r.rejected.toJSON()).toEqual([]);
  });

  it('stores the worked pixel example exactly: {x1:100,y1:50,x2:300,y2:250} on 1000×500', () => {
    const r = ok(
      base({
        coordinateSpace: 'pixel',
        media: { width: 1000, height: 500 },
        tracks: [{ id: 'A', boxes: [{ frame: 0, x1: 100, y1: 50, x2: 300, y2: 250 }] }],
      }),
    );
    expect(boxesOf(r)[0]).toEqual([0, 0.1, 0.1, 0.2, 0.4]);
    expect(r.meta.originalBoxForm).toBe('xyxy');
    expect(r.meta.originalCoordinateSpace).toBe('pixel');
  });

  it('prefers x,y,w,h when both forms are complete, and reports a mixed form', () => {
    const r = ok(
      base({
        tracks: [
          {
            id: 'A',
            boxes: [
              { frame: 0, x: 0.1, y: 0.1, w: 0.1, h: 0.1, x1: 0.5, y1: 0.5, x2: 0.9, y2: 0.9 },
              { frame: 1, x1: 0.2, y1: 0.2, x2: 0.4, y2: 0.4 },
            ],
          },
        ],
      }),
    );
    expect(boxesOf(r)[0]).toEqual([0, 0.1, 0.1, 0.1, 0.1]);
    expect(r.meta.originalBoxForm).toBe('mixed');
  });

  it('computes originalBoxForm over the kept boxes: an overwritten duplicate does not count', () => {
    const r = ok(
      base({
        tracks: [
          {
            id: 'A',
            boxes: [
              { frame: 0, x1: 0.1, y1: 0.1, x2: 0.2, y2: 0.2 },
              { frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.2 },
            ],
          },
        ],
      }),
    );
    expect(r.meta.originalBoxForm).toBe('xywh');
    const rejected = ok(
      base({
        tracks: [
          {
            id: 'A',
            boxes: [
              { frame: 0, x1: 0.1, y1: 0.1, x2: 0.2, y2: 0.2 },
              { frame: 1, x: 2, y: 0.1, w: 0.2, h: 0.2 },
            ],
          },
        ],
      }),
    );
    expect(rejected.meta.originalBoxForm).toBe('xyxy');
  });

  it('rejects corners whose difference overflows as out of frame, and a width that underflows when scaled', () => {
    const huge = ok(
      base({
        tracks: [
          {
            id: 'A',
            boxes: [
              { frame: 0, x: 0.1, y: 0.1, w: 0.2, h: 0.2 },
              { frame: 1, x1: -1e308, y1: 0, x2: 1e308, y2: 0.5 },
            ],
          },
        ],
      }),
    );
    expect(huge.rejected.toJSON()).toEqual([{ trackId: 'A', frame: 1, reason: 'box_out_of_frame' }]);
    const tiny = ok(
      base({
        coordinateSpace: 'pixel',
        media: { width: 1000, height: 500 },
        tracks: [
          {
            id: 'A',
            boxes: [
              { frame: 0, x: 10, y: 10, w: 100, h: 10 },
              { frame: 1, x: 10, y: 10, w: 5e-324, h: 10 },
            ],
          },
        ],
      }),
    );
    expect(tiny.rejected.toJSON()).toEqual([{ trackId: 'A', frame: 1, reason: 'box_out_of_frame' }]);
  });

  it('the normalized worked example: frame 1 out of frame → one rejection, one box stored', () => {
    const r = ok(
      base({
        tracks: [
          {
            id: 'T',
            boxes: [
              { frame: 0, x1: 0.1, y1: 0.1, x2: 0.3, y2: 0.4 },
              { frame: 1, x1: 1.2, y1: 1.2, x2: 1.5, y2: 1.6 },
            ],
          },
        ],
      }),
    );
    expect(r.boxes.count).toBe(1);
    expect(r.rejected.toJSON()).toEqual([{ trackId: 'T', frame: 1, reason: 'box_out_of_frame' }]);
  });

  it('keeps the last of duplicate frames, counts the overwritten, sorts boxes by frame', () => {
    const r = ok(
      base({
        tracks: [
          {
            id: 'A',
            boxes: [
              { frame: 5, x: 0.5, y: 0, w: 0.1, h: 0.1 },
              { frame: 2, x: 0.2, y: 0, w: 0.1, h: 0.1 },
              { frame: 5, x: 0.55, y: 0, w: 0.1, h: 0.1 },
              { frame: 2, x: 'bad', y: 0, w: 0.1, h: 0.1 },
            ],
          },
        ],
      }),
    );
    expect(boxesOf(r).map((b) => [b[0], b[1]])).toEqual([
      [2, 0.2],
      [5, 0.55],
    ]);
    expect(r.warnings).toEqual([expect.objectContaining({ code: 'DUPLICATE_FRAME', count: 1 })]);
    expect(r.rejected.toJSON()).toEqual([{ trackId: 'A', frame: 2, reason: 'box_missing_geometry' }]);
  });

  it('drops a track whose boxes are all rejected but keeps its rejections', () => {
    const r = ok(
      base({
        tracks: [
          { id: 'good', boxes: [{ frame: 0, x: 0, y: 0, w: 0.1, h: 0.1 }] },
          { id: 'bad', boxes: [{ frame: 0 }] },
        ],
      }),
    );
    expect(r.boxes.headers.map((h) => h.id)).toEqual(['good']);
    expect(r.rejected.toJSON()).toEqual([{ trackId: 'bad', frame: 0, reason: 'box_missing_geometry' }]);
  });
});

describe('warnings (spec §4.5)', () => {
  it('counts timestamp mismatches beyond one frame and frames out of range, in the fixed order', () => {
    const r = ok(
      base({
        schemaVersion: '1.1',
        media: { fps: 10, frameCount: 3 },
        tracks: [
          {
            id: 'A',
            boxes: [
              { frame: 0, x: 0, y: 0, w: 0.1, h: 0.1, timestampMs: 0 },
              { frame: 1, x: 0, y: 0, w: 0.1, h: 0.1, timestampMs: 200 }, // exactly one frame off: fine
              { frame: 2, x: 0, y: 0, w: 0.1, h: 0.1, timestampMs: 400.5 }, // more than one frame off
              { frame: 3, x: 0, y: 0, w: 0.1, h: 0.1 }, // out of range, no timestamp
              { frame: 3, x: 0, y: 0, w: 0.2, h: 0.1 }, // duplicate
            ],
          },
        ],
      }),
    );
    expect(r.warnings.map((w) => [w.code, w.count])).toEqual([
      ['TIMESTAMP_FRAME_MISMATCH', 1],
      ['FRAME_OUT_OF_RANGE', 1],
      ['DUPLICATE_FRAME', 1],
      ['SCHEMA_VERSION_MINOR_MISMATCH', 1],
    ]);
    for (const w of r.warnings) expect(w.message.length).toBeGreaterThan(10);
  });

  it('treats timestampMs 0 as a value', () => {
    const r = ok(
      base({
        media: { fps: 25 },
        tracks: [{ id: 'A', boxes: [{ frame: 100, x: 0, y: 0, w: 0.1, h: 0.1, timestampMs: 0 }] }],
      }),
    );
    expect(r.warnings).toEqual([expect.objectContaining({ code: 'TIMESTAMP_FRAME_MISMATCH', count: 1 })]);
  });

  it('needs fps for timestamps and frameCount for ranges', () => {
    const r = ok(
      base({ tracks: [{ id: 'A', boxes: [{ frame: 100000, x: 0, y: 0, w: 0.1, h: 0.1, timestampMs: 1 }] }] }),
    );
    expect(r.warnings).toEqual([]);
  });
});

// Arbitrary boxes, mostly plausible, often broken: both spaces, both forms, junk values.
const coord = fc.oneof(
  fc.double({ min: -0.2, max: 1.2, noNaN: true }),
  fc.constantFrom(0, 1, -0.01, 1.01),
  fc.anything(),
);
const boxArb = fc.oneof(
  fc.record(
    {
      frame: fc.oneof(fc.nat(50), fc.integer({ min: -3, max: -1 }), fc.double(), fc.string()),
      x: coord,
      y: coord,
      w: coord,
      h: coord,
      confidence: fc.option(fc.double(), { nil: undefined }),
      timestampMs: fc.option(fc.double({ noNaN: true }), { nil: undefined }),
    },
    { requiredKeys: [] },
  ),
  fc.record({ frame: fc.nat(50), x1: coord, y1: coord, x2: coord, y2: coord }, { requiredKeys: [] }),
  fc.anything(),
);
const runArb = fc.record({
  mediaKey: fc.constant('k'),
  schemaVersion: fc.constantFrom('1.0', '1.2'),
  source: fc.constant({ runId: 'p' }),
  coordinateSpace: fc.constantFrom('normalized', 'pixel'),
  media: fc.constant({ width: 1, height: 1, fps: 25, frameCount: 40 }),
  tracks: fc.uniqueArray(
    fc.record({
      id: fc.string({ minLength: 1, maxLength: 8 }),
      boxes: fc.array(boxArb, { minLength: 1, maxLength: 30 }),
    }),
    { minLength: 1, maxLength: 6, selector: (t) => t.id },
  ),
});

describe('validator properties', () => {
  it('never throws on any JSON value', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), runArb), (value) => {
        const r = validateRun(value);
        expect(typeof r.ok).toBe('boolean');
      }),
      { numRuns: 500 },
    );
  });

  it('counts every input box exactly once as stored, overwritten or rejected', () => {
    fc.assert(
      fc.property(runArb, (body) => {
        const r = validateRun(body);
        if (!r.ok) return;
        const input = body.tracks.reduce((n, t) => n + t.boxes.length, 0);
        expect(r.boxes.count + r.overwritten + r.rejected.length).toBe(input);
        const dup = r.warnings.find((w) => w.code === 'DUPLICATE_FRAME')?.count ?? 0;
        expect(dup).toBe(r.overwritten);
      }),
      { numRuns: 500 },
    );
  });

  it('stores only boxes inside [0,1] with positive size, sorted by frame within a track', () => {
    fc.assert(
      fc.property(runArb, (body) => {
        const r = validateRun(body);
        if (!r.ok) return;
        let i = 0;
        for (const header of r.boxes.headers) {
          let last = -1;
          for (let j = 0; j < header.n; j++, i++) {
            const [frame, x, y, w, h] = r.boxes.columns.subarray(i * BOX_STRIDE, i * BOX_STRIDE + 5);
            expect(frame!).toBeGreaterThan(last);
            last = frame!;
            expect(x!).toBeGreaterThanOrEqual(0);
            expect(y!).toBeGreaterThanOrEqual(0);
            expect(w!).toBeGreaterThan(0);
            expect(h!).toBeGreaterThan(0);
            expect(x! + w!).toBeLessThanOrEqual(1 + 1e-12);
            expect(y! + h!).toBeLessThanOrEqual(1 + 1e-12);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
