// The evaluator's pure file parsers: what they read, and the `file:line: reason` they refuse bad input with.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cocoEvaluationInput, parseJsonText } from '../../src/evaluation/inputs/coco-files.js';
import { motEvaluationInput } from '../../src/evaluation/inputs/mot-sequences.js';
import { parseMotText } from '../../src/evaluation/inputs/mot-text.js';
import { parseSeqInfo } from '../../src/evaluation/inputs/seqinfo.js';

describe('parseMotText', () => {
  it('reads 6 to 10 columns, blank lines and CRLF included; absent columns are NaN', () => {
    const rows = parseMotText('1,1,10,20,30,40\r\n\n2, 7, 1.5, 2, 3, 4, 0, 3, 0.5, -1\n', 'gt.txt');
    expect(rows.lines).toEqual([1, 3]);
    expect(rows.frames).toEqual([1, 2]);
    expect(rows.ids).toEqual([1, 7]);
    expect(rows.boxes).toEqual([10, 20, 30, 40, 1.5, 2, 3, 4]);
    expect(rows.conf).toEqual([Number.NaN, 0]);
    expect(rows.classes).toEqual([Number.NaN, 3]);
    expect(rows.visibility).toEqual([Number.NaN, 0.5]);
  });

  it.each([
    ['1,1,1,1,1,1\n1,2,3', 'gt.txt:2: expected at least 6 comma-separated numbers'],
    ['1,1,1,x,1,1', 'gt.txt:1: column 4 is not a number: "x"'],
    ['0,1,1,1,1,1', 'gt.txt:1: frame must be an integer from 1, got 0'],
    ['1.5,1,1,1,1,1', 'gt.txt:1: frame must be an integer from 1, got 1.5'],
    ['1,1.5,1,1,1,1', 'gt.txt:1: id must be an integer, got 1.5'],
    ['1,4,1,1,1,1\n\n1,4,2,2,2,2', 'gt.txt:3: id 4 appears twice in frame 1 (also line 1)'],
  ])('%j → %s', (text, message) => {
    expect(() => parseMotText(text, 'gt.txt')).toThrow(message);
  });
});

/** The plain reading of the format, line by line with split and trim, as the parser's oracle. */
function plainParse(text: string, file: string) {
  const rows = { file, lines: [] as number[], frames: [] as number[], ids: [] as number[], boxes: [] as number[] };
  const seen = new Map<string, number>();
  const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!.trim();
    if (line === '') continue;
    const at = n + 1;
    const cells = line.split(',').map((c) => c.trim());
    if (cells.length < 6) throw new Error(`${file}:${at}: expected at least 6 comma-separated numbers`);
    const values = cells.slice(0, 9).map((c, i) => {
      if (!NUMBER.test(c)) throw new Error(`${file}:${at}: column ${i + 1} is not a number: "${c}"`);
      return Number(c);
    });
    const [frame, id] = values as [number, number];
    if (!Number.isInteger(frame) || frame < 1)
      throw new Error(`${file}:${at}: frame must be an integer from 1, got ${cells[0]}`);
    if (!Number.isSafeInteger(id)) throw new Error(`${file}:${at}: id must be an integer, got ${cells[1]}`);
    const first = seen.get(`${frame},${id}`);
    if (first !== undefined)
      throw new Error(`${file}:${at}: id ${id} appears twice in frame ${frame} (also line ${first})`);
    seen.set(`${frame},${id}`, at);
    rows.lines.push(at);
    rows.frames.push(frame);
    rows.ids.push(id);
    rows.boxes.push(...values.slice(2, 6));
  }
  return rows;
}

describe('parseMotText against the plain reading', () => {
  const cell = fc.oneof(
    fc.constantFrom('1', '2', '3', '-1', ' 2 ', '1.5', '1e1', '+3', '.5', '', 'x', '\t4', '1\r', '0', '\u00a01'),
    fc.integer({ min: -3, max: 5 }).map(String),
  );
  const anyLine = fc.array(cell, { minLength: 0, maxLength: 11 }).map((cells) => cells.join(','));
  // Mostly well-formed rows on few frames and ids, so that repeated (frame, id) pairs are common.
  const row = fc
    .tuple(
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: 1, max: 3 }),
      fc.array(cell, { minLength: 4, maxLength: 7 }),
    )
    .map(([f, id, rest]) => [f, id, ...rest.map((c) => (c === 'x' ? '1' : c))].join(','));
  const line = fc.oneof({ arbitrary: row, weight: 4 }, { arbitrary: anyLine, weight: 1 });
  it('property: the same rows, or the same first error', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 16 }), (lines) => {
        const text = lines.join('\n');
        let want: unknown;
        try {
          want = plainParse(text, 'gt.txt');
        } catch (err) {
          want = (err as Error).message;
        }
        let got: unknown;
        try {
          const r = parseMotText(text, 'gt.txt');
          got = { file: r.file, lines: r.lines, frames: r.frames, ids: r.ids, boxes: r.boxes };
        } catch (err) {
          got = (err as Error).message;
        }
        expect(got).toEqual(want);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('parseSeqInfo', () => {
  it('reads seqLength from [Sequence]', () => {
    const info = parseSeqInfo('[Sequence]\nname=MOT17-02\nseqLength=600\nimWidth=1920\n', 'seqinfo.ini');
    expect(info.seqLength).toBe(600);
    expect(info.values.imWidth).toBe('1920');
    expect(parseSeqInfo('[Sequence]\nname=x\n', 'seqinfo.ini').seqLength).toBeUndefined();
  });
  it('refuses a seqLength that is not a positive integer, and a line that is not key=value', () => {
    expect(() => parseSeqInfo('[Sequence]\nseqLength=ten\n', 's.ini')).toThrow('s.ini:2: seqLength must be');
    expect(() => parseSeqInfo('[Sequence]\nname\n', 's.ini')).toThrow('s.ini:2: expected key=value');
  });
});

describe('motEvaluationInput', () => {
  const gt = (text: string) => parseMotText(text, 'gt.txt');
  it('a single ground-truth class names the results file’s boxes; zero-marked rows are dropped', () => {
    const input = motEvaluationInput([
      { name: 's', gt: gt('1,1,0,0,10,10,1,1,1\n2,2,0,0,10,10,0,3,1'), pred: gt('3,5,0,0,10,10,0.9,-1,-1,-1') },
    ]);
    expect(input.classNames).toEqual(['pedestrian']);
    expect(input.classAgnostic).toBe(false);
    expect(input.sequences[0]!.numFrames).toBe(3);
    expect(Array.from(input.sequences[0]!.gt.ids)).toEqual([1]);
    expect(Array.from(input.sequences[0]!.pred.classes)).toEqual([0]);
  });
  it('several ground-truth classes: scored class-agnostically as "all"', () => {
    const input = motEvaluationInput([{ name: 's', gt: gt('1,1,0,0,10,10,1,1,1\n1,2,0,0,10,10,1,3,1') }]);
    expect(input.classNames).toEqual(['all']);
    expect(input.classAgnostic).toBe(true);
    expect(input.sequences[0]!.pred.ids.length).toBe(0);
  });
  it('seqLength sets the frame count; a row past it is refused with its line', () => {
    expect(motEvaluationInput([{ name: 's', gt: gt('1,1,0,0,1,1'), seqLength: 9 }]).sequences[0]!.numFrames).toBe(9);
    expect(() => motEvaluationInput([{ name: 's', gt: gt('1,1,0,0,1,1\n5,1,0,0,1,1'), seqLength: 4 }])).toThrow(
      'gt.txt:2: frame 5 is past seqLength 4',
    );
  });
  it('--benchmark needs the class column', () => {
    expect(() => motEvaluationInput([{ name: 's', gt: gt('1,1,0,0,1,1') }], 'mot17')).toThrow(
      'gt.txt:1: --benchmark needs the consider flag and class',
    );
  });
});

describe('COCO files', () => {
  const instances = JSON.stringify({
    images: [{ id: 2 }, { id: 1 }],
    categories: [{ id: 3, name: 'dog' }, { id: 4 }],
    annotations: [{ id: 1, image_id: 1, category_id: 3, bbox: [0, 0, 10, 10], area: 90, iscrowd: 1 }],
  });
  it('reads the files as pycocotools does: the file’s area and iscrowd, category names', () => {
    const { input, categoryNames } = cocoEvaluationInput(
      instances,
      'i.json',
      '[{"image_id":2,"category_id":4,"bbox":[1,2,3,4],"score":0.5}]',
      'r.json',
    );
    expect(categoryNames).toEqual(['dog', '4']);
    expect(Array.from(input.gt.areas)).toEqual([90]);
    expect(Array.from(input.gt.isCrowd)).toEqual([1]);
    expect(Array.from(input.dt.boxes)).toEqual([1, 2, 3, 4]);
  });
  it('refuses results on an image the instances file lacks, bad boxes and broken JSON (with its line)', () => {
    expect(() =>
      cocoEvaluationInput(instances, 'i.json', '[{"image_id":9,"category_id":3,"bbox":[0,0,1,1],"score":1}]', 'r.json'),
    ).toThrow('r.json: [0]: image_id 9 is not an image of i.json');
    expect(() =>
      cocoEvaluationInput(instances, 'i.json', '[{"image_id":1,"category_id":3,"bbox":[0,0,1],"score":1}]', 'r.json'),
    ).toThrow('r.json: [0]: bbox must be [x, y, width, height]');
    expect(() => parseJsonText('[\n{"a": 1},\n{"b" 2}\n]', 'r.json')).toThrow(/^r\.json:3: not valid JSON/);
  });
});
