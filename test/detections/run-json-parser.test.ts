import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newBoxView, PACKED_FIELDS, PackedBoxes } from '../../src/detections/packed-boxes.js';
import { MAX_BODY_DEPTH, parseRunJson } from '../../src/detections/run-json-parser.js';
import { RUN_MEMBERS } from '../../src/detections/run-members.js';
import { validateRun } from '../../src/detections/validate-run.js';

const parse = (text: string) => parseRunJson(Buffer.from(text, 'utf8'));

/** The boxes as JSON.parse would have given them: the fields a box had, read through the validator's view. */
const boxObjects = (boxes: PackedBoxes) =>
  Array.from(
    { length: boxes.length },
    (_, i) =>
      Object.fromEntries(Object.entries(boxes.load(i, newBoxView())).filter(([, v]) => v !== undefined)) as Record<
        string,
        number
      >,
  );

/** The parsed value with every PackedBoxes turned back into the objects JSON.parse makes. */
function unpacked(value: unknown): unknown {
  if (value instanceof PackedBoxes) return boxObjects(value);
  if (Array.isArray(value)) return value.map(unpacked);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unpacked(v)]));
  return value;
}

/**
 * A text form that tells -0 from 0, NaN from absent and typed arrays by their elements. Objects' keys are
 * sorted: a packed box has no text order (what the validator reads of a box does not depend on it);
 * `keyOrder` checks the order everywhere else.
 */
function canonical(value: unknown): string {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (value === undefined) return 'undefined';
  if (ArrayBuffer.isView(value)) return `typed[${Array.from(value as Float64Array, canonical).join(',')}]`;
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Keys in their order, boxes left out. */
function keyOrder(value: unknown): string {
  if (value instanceof PackedBoxes) return 'boxes';
  if (Array.isArray(value)) return `[${value.map((v) => (isBoxList(v) ? 'boxes' : keyOrder(v))).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${k}:${k === 'boxes' ? 'boxes' : keyOrder(v)}`)
      .join(',')}}`;
  return '';
}
const isBoxList = (v: unknown) => v instanceof PackedBoxes;

/** JSON.parse's value less the top-level members no run has: the parser checks those as JSON but does not build them. */
function withoutIgnoredMembers(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) if (RUN_MEMBERS.has(key)) out[key] = member;
  return out;
}

function expectSameAsJsonParse(text: string): unknown {
  const fast = parse(text);
  const reference = withoutIgnoredMembers(JSON.parse(text));
  if (fast !== undefined) {
    expect(canonical(unpacked(fast))).toBe(canonical(reference));
    expect(keyOrder(fast)).toBe(keyOrder(reference));
  }
  return fast;
}

const countPacked = (value: unknown): number => {
  if (value instanceof PackedBoxes) return 1;
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + countPacked(v), 0);
  if (value !== null && typeof value === 'object')
    return Object.values(value).reduce((n: number, v) => n + countPacked(v), 0);
  return 0;
};

// Numbers as producers print them, and as JSON allows them to be printed.
const anyDouble = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -1e6, max: 1e6 }).map((n) => n / 1000),
  fc.integer({ min: 0, max: 4000 }),
  fc.constantFrom(
    0,
    -0,
    0.1,
    0.2,
    0.3,
    1e-7,
    123456789012345,
    1234567890123456,
    2 ** 53 + 2,
    5e-324,
    1.7976931348623157e308,
  ),
);
const numberText = (d: number) =>
  fc.constantFrom(
    JSON.stringify(d),
    d.toExponential(),
    d.toExponential(3),
    d.toPrecision(17),
    d.toPrecision(3).replace('e', 'E'),
    Math.abs(d) < 1e21 ? d.toFixed(20) : JSON.stringify(d),
  );

const space = fc.constantFrom('', '', '', ' ', '\n', '\t ', '\r\n  ');
const boxText = fc
  .array(fc.tuple(fc.constantFrom(...PACKED_FIELDS), anyDouble.chain(numberText), space, space), { maxLength: 8 })
  .map((members) => `{${members.map(([k, v, s1, s2]) => `${s1}"${k}"${s2}:${s1}${v}${s2}`).join(',')}}`);
const boxesText = fc
  .tuple(fc.array(fc.tuple(boxText, space), { maxLength: 6 }), space)
  .map(([boxes, s]) => `[${s}${boxes.map(([b, s2]) => `${s2}${b}${s2}`).join(',')}${s}]`);
const generic = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v));
const member = (key: string, value: string, s = '') => `${s}${JSON.stringify(key)}${s}:${s}${value}`;
/** Members in random order and random repeats around the ones a run has (repeats: the last value wins). */
const objectText = (required: fc.Arbitrary<string[]>, keys: string[], values: fc.Arbitrary<string>) =>
  fc
    .tuple(required, fc.array(fc.tuple(fc.constantFrom(...keys), values), { maxLength: 4 }), space, fc.nat())
    .map(([must, extra, s, at]) => {
      const members = extra.map(([k, v]) => member(k, v, s));
      members.splice(at % (members.length + 1), 0, ...must);
      return `{${members.join(',')}}`;
    });
const trackText = objectText(
  boxesText.map((b) => [member('boxes', b)]),
  ['id', 'label', 'boxes', 'meta', 'confidence', 'é"\\'],
  fc.oneof(boxesText, generic),
);
const tracksText = fc
  .array(fc.oneof(trackText, trackText, trackText, generic), { minLength: 1, maxLength: 4 })
  .map((ts) => `[${ts.join(',')}]`);
const bodyText = objectText(
  tracksText.map((t) => [member('tracks', t)]),
  ['tracks', 'mediaKey', 'source', 'media', 'x', 'boxes'],
  fc.oneof(tracksText, generic),
);

describe('parseRunJson gives what JSON.parse gives', () => {
  it('for run-shaped bodies: packed boxes unpack to the same objects, everything else is identical', () => {
    let packed = 0,
      taken = 0;
    fc.assert(
      fc.property(bodyText, (text) => {
        const fast = expectSameAsJsonParse(text);
        // It declines only a "boxes" array with an element that is not a box (a generic value in that place), or
        // a "__proto__" key.
        if (fast === undefined) expect(text).toMatch(/"boxes"\s*:\s*\[|"__proto__"/);
        else taken++;
        packed += countPacked(fast);
      }),
      { numRuns: 3000 },
    );
    // The property exercised both paths, the packed one above all.
    expect(taken).toBeGreaterThan(1500);
    expect(packed).toBeGreaterThan(1000);
  });

  it('for any JSON value (generic path)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expectSameAsJsonParse(JSON.stringify(value, null, 1));
      }),
      { numRuns: 2000 },
    );
  });

  it('for strings with escapes, UTF-8 and invalid UTF-8', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.uint8Array({ maxLength: 8 }), (s, raw) => {
        expectSameAsJsonParse(JSON.stringify({ tracks: [{ id: s, boxes: [{ frame: 1 }] }], [s]: s }));
        const bytes = Buffer.concat([
          Buffer.from('{"k":"'),
          Buffer.from(raw.filter((b) => b !== 0x22 && b !== 0x5c && b >= 0x20)),
          Buffer.from('"}'),
        ]);
        const fast = parseRunJson(bytes);
        expect(fast).toEqual(withoutIgnoredMembers(JSON.parse(bytes.toString('utf8'))));
        const named = Buffer.concat([Buffer.from('{"name":"'), bytes.subarray(6)]);
        expect(parseRunJson(named)).toEqual(JSON.parse(named.toString('utf8')));
      }),
      { numRuns: 2000 },
    );
  });

  it('every number a box can hold is the double JSON.parse reads', () => {
    fc.assert(
      fc.property(
        anyDouble.chain((d) => numberText(d)),
        (text) => {
          const fast = parse(`{"tracks":[{"boxes":[{"x":${text}}]}]}`) as { tracks: Array<{ boxes: PackedBoxes }> };
          const x = boxObjects(fast.tracks[0]!.boxes)[0]!.x;
          expect(Object.is(x, JSON.parse(text))).toBe(true);
        },
      ),
      { numRuns: 20000 },
    );
  });

  it('numbers past the fast path (17+ digits, big exponents) still come out exact', () => {
    for (const text of [
      '0.1000000000000000055511151231257827',
      '1e400',
      '-1e400',
      '1e-400',
      '2.2250738585072011e-308',
      '9007199254740993',
      '0.0000000000000000000000001',
      '123456789012345678901234567890',
      '1e23',
      '8.589973e9',
      '0e999999999999',
      '-0.0',
    ]) {
      const fast = parse(`{"tracks":[{"boxes":[{"frame":${text}}]}]}`) as { tracks: Array<{ boxes: PackedBoxes }> };
      expect(Object.is(boxObjects(fast.tracks[0]!.boxes)[0]!.frame, JSON.parse(text)), text).toBe(true);
    }
  });
});

describe('parseRunJson passes over members no run has', () => {
  it('checks them as JSON without building them: any JSON value there is accepted, and left out', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = `{"pad":${JSON.stringify(value, null, 1)},"name":"n","extra":${JSON.stringify(value)}}`;
        expect(parse(text)).toEqual({ name: 'n' });
      }),
      { numRuns: 2000 },
    );
  });

  it('declines what JSON.parse refuses inside them, so that JSON.parse reports it', () => {
    for (const bad of [
      '[1,]',
      '{"a" 1}',
      '{"a":1,}',
      '[01]',
      '"\\x"',
      '"\\u12G4"',
      '"a\tb"',
      '[1 2]',
      '{1:2}',
      'tru',
      '[[]',
      '{"a":[}]}',
    ]) {
      const text = `{"pad":${bad.replace('\\t', '\t')},"name":"n"}`;
      expect(() => JSON.parse(text), text).toThrow();
      expect(parse(text), text).toBeUndefined();
    }
  });

  it('skips nesting of any depth in an ignored member without the stack', () => {
    const depth = 50_000;
    expect(parse(`{"pad":${'['.repeat(depth)}${']'.repeat(depth)},"name":"n"}`)).toEqual({ name: 'n' });
  });
});

describe('parseRunJson declines, and JSON.parse decides', () => {
  it.each([
    ['a leading zero', '{"tracks":[{"boxes":[{"x":01}]}]}'],
    ['a trailing comma in a box', '{"tracks":[{"boxes":[{"x":1,}]}]}'],
    ['a trailing comma in boxes', '{"tracks":[{"boxes":[{"x":1},]}]}'],
    ['a bare dot', '{"tracks":[{"boxes":[{"x":.5}]}]}'],
    ['a dot without digits', '{"tracks":[{"boxes":[{"x":1.}]}]}'],
    ['an exponent without digits', '{"tracks":[{"boxes":[{"x":1e}]}]}'],
    ['a lone minus', '{"tracks":[{"boxes":[{"x":-}]}]}'],
    ['a plus sign', '{"tracks":[{"boxes":[{"x":+1}]}]}'],
    ['NaN', '{"tracks":[{"boxes":[{"x":NaN}]}]}'],
    ['a missing colon', '{"tracks":[{"boxes":[{"x" 1}]}]}'],
    ['trailing bytes', '{"tracks":[]} x'],
    ['two values', '{} {}'],
    ['a control character in a string', '{"a":"x\u0001y"}'],
    ['an unterminated string', '{"a":"xy'],
    ['a bad escape', '{"a":"\\q"}'],
    ['single quotes', "{'a':1}"],
    ['a byte order mark', '\ufeff{}'],
    ['an empty body', ''],
    ['a truncated literal', '{"a":tru}'],
    ['a missing value', '{"a":}'],
  ])('invalid JSON: %s', (_name, text) => {
    expect(parse(text)).toBeUndefined();
    expect(() => JSON.parse(text)).toThrow();
  });

  it.each([
    ['a box with a label', '{"tracks":[{"boxes":[{"frame":1,"label":"car"}]}]}'],
    ['a box with a null', '{"tracks":[{"boxes":[{"frame":1,"x":null}]}]}'],
    ['a box with meta', '{"tracks":[{"boxes":[{"frame":1,"meta":{}}]}]}'],
    ['a box key written with an escape', '{"tracks":[{"boxes":[{"fr\\u0061me":1}]}]}'],
    ['a box that is not an object', '{"tracks":[{"boxes":[1]}]}'],
    ['a "__proto__" key', '{"__proto__":{"polluted":1},"tracks":[]}'],
    ['a "__proto__" key written with an escape', '{"\\u005f_proto__":1}'],
    ['more than a million boxes (88 bytes each packed)', `{"tracks":[{"boxes":[${'{},'.repeat(1_000_000)}{}]}]}`],
    ['nesting deeper than the stack', `${'['.repeat(50_000)}${']'.repeat(50_000)}`],
  ])('valid JSON it leaves to JSON.parse: %s', (_name, text) => {
    expect(parse(text)).toBeUndefined();
  });

  it('refuses nesting deeper than MAX_BODY_DEPTH instead of leaving it to JSON.parse, which took seconds', () => {
    const deep = (n: number, member = 'categories') => `{"${member}":${'['.repeat(n)}${']'.repeat(n)},"tracks":[]}`;
    expect(() => parse(deep(MAX_BODY_DEPTH))).toThrow(/more than 100000 levels deep/);
    expect(parse(deep(MAX_BODY_DEPTH - 1))).toBeUndefined();
    // In a member no run has, the nesting is only checked, never built: no limit is needed there.
    expect(parse(deep(MAX_BODY_DEPTH + 5, 'x'))).toEqual({ tracks: [] });
    // Brackets inside strings are text, not nesting.
    expect(parse(`{"name":"${'['.repeat(MAX_BODY_DEPTH + 5)}","tracks":[]}`)).toEqual({
      name: '['.repeat(MAX_BODY_DEPTH + 5),
      tracks: [],
    });
  });

  it('a "__proto__" member stays an own property on the JSON.parse path', () => {
    const value = JSON.parse('{"__proto__":{"polluted":1}}') as Record<string, unknown>;
    expect(Object.getOwnPropertyNames(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('validateRun reads packed boxes as it reads parsed ones', () => {
  const box = fc.record(
    {
      frame: fc.oneof(fc.integer({ min: -2, max: 40 }), fc.constant(1.5)),
      x: fc.double({ min: -0.05, max: 1.05, noNaN: true }),
      y: fc.double({ min: -0.05, max: 1.05, noNaN: true }),
      w: fc.double({ min: -0.1, max: 0.6, noNaN: true }),
      h: fc.double({ min: -0.1, max: 0.6, noNaN: true }),
      x1: fc.integer({ min: -30, max: 1950 }),
      y1: fc.integer({ min: -30, max: 1100 }),
      x2: fc.integer({ min: -30, max: 1950 }),
      y2: fc.integer({ min: -30, max: 1100 }),
      confidence: fc.double({ min: 0, max: 1, noNaN: true }),
      timestampMs: fc.integer({ min: 0, max: 100_000 }),
    },
    { requiredKeys: [] },
  );
  const run = fc
    .record({
      space: fc.constantFrom('normalized', 'pixel'),
      tracks: fc.array(
        fc.record({
          id: fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constantFrom('a', 'b', 'c')),
          boxes: fc.array(box, { maxLength: 12 }),
        }),
        { minLength: 1, maxLength: 4 },
      ),
    })
    .map(({ space, tracks }) => ({
      mediaKey: 'cam/1.mp4',
      schemaVersion: '1.0',
      source: { kind: 'model', runId: 'r' },
      coordinateSpace: space,
      media: { width: 1920, height: 1080 },
      tracks,
    }));

  it('the same result, counts, rejections and warnings included', () => {
    fc.assert(
      fc.property(run, (body) => {
        const text = JSON.stringify(body);
        const fast = parse(text);
        expect(countPacked(fast)).toBe(body.tracks.length);
        expect(canonical(validateRun(fast))).toBe(canonical(validateRun(JSON.parse(text))));
      }),
      { numRuns: 3000 },
    );
  });

  it('an empty packed boxes array is a track without boxes', () => {
    const result = validateRun(
      parse(
        '{"mediaKey":"k","schemaVersion":"1.0","source":{},"coordinateSpace":"normalized","tracks":[{"id":1,"boxes":[]}]}',
      ),
    );
    expect(result).toMatchObject({ ok: false, code: 'track_without_boxes' });
  });
});
