// The evaluator's pure file parsers: what they read, and the `file:line: reason` they refuse bad input with.
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
