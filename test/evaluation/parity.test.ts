// Parity with the references on the committed fixtures: every figure equals TrackEval's or pycocotools' to 1e-9.
// The expected numbers and how they were produced are described in fixtures/README.md.
import { describe, expect, it } from 'vitest';
import { cocoEvaluate, cocoSummarize } from '../../src/evaluation/coco.js';
import { evaluate } from '../../src/evaluation/evaluate.js';
import { preprocessMotChallenge } from '../../src/evaluation/mot-challenge.js';
import { cocoInput, expectClose, motSequences, readJson, trackingSequences } from './fixtures.js';

interface Expected {
  sequences: { name: string; combined: object; classes?: object }[];
  combined: object;
  classes?: object;
  classAveraged?: object;
  detAveraged?: object;
}

describe('tracking metrics against TrackEval', () => {
  it.each([
    ['tracking.json', 0.5, false],
    ['tracking-iou75.json', 0.75, false],
    ['tracking-agnostic.json', 0.5, true],
  ] as const)('%s', (file, iouThreshold, agnostic) => {
    const expected = readJson<Expected>(`expected/${file}`);
    // The agnostic case goes through the option, from the class-wise input.
    const { meta, sequences } = trackingSequences();
    const result = evaluate(sequences, { classNames: meta.classes, iouThreshold, classAgnostic: agnostic });
    expect(result.sequences.map((s) => s.name)).toEqual(expected.sequences.map((s) => s.name));
    expectClose(result.sequences, expected.sequences, 'sequences');
    expectClose(result.classes, expected.classes, 'classes');
    expectClose(result.detAveraged, expected.detAveraged, 'detAveraged');
    expectClose(result.classAveraged, expected.classAveraged, 'classAveraged');
    expectClose(result.combined, expected.combined, 'combined');
  });

  it.each(['mot17', 'mot20'] as const)('%s preprocessing and metrics', (bench) => {
    const expected = readJson<Expected>(`expected/${bench}.json`);
    const sequences = motSequences(bench).map((s) => preprocessMotChallenge(s, bench));
    const result = evaluate(sequences, { classNames: ['pedestrian'] });
    expectClose(
      result.sequences.map((s) => ({ name: s.name, combined: s.combined })),
      expected.sequences,
      'sequences',
    );
    expectClose(result.combined, expected.combined, 'combined');
  });
});

describe('COCO against pycocotools', () => {
  it('instances and results files: all categories, and each category alone', () => {
    const expected = readJson<{ all: object; categories: Record<string, object> }>('expected/coco.json');
    const ev = cocoEvaluate(cocoInput('coco/instances.json', 'coco/results.json'));
    expectClose(cocoSummarize(ev), expected.all, 'all');
    for (const [cat, stats] of Object.entries(expected.categories)) {
      expectClose(cocoSummarize(ev, [Number(cat)]), stats, `category ${cat}`);
    }
  });

  it('video: frames as images, classes as categories, per sequence and combined', () => {
    type Stats = Record<string, object>;
    const expected = readJson<{ combined: Stats; sequences: Record<string, Stats> }>('expected/video-coco.json');
    const { meta, sequences } = trackingSequences();
    const result = evaluate(sequences, { classNames: meta.classes, metrics: ['coco'] });
    expectClose(result.combined, expected.combined.all, 'combined');
    expectClose(result.classAveraged, expected.combined.all, 'classAveraged');
    for (const c of meta.classes) expectClose(result.classes[c], expected.combined[c], `classes.${c}`);
    for (const s of result.sequences) {
      const e = expected.sequences[s.name]!;
      expectClose(s.combined, e.all, `${s.name}.combined`);
      for (const c of meta.classes) expectClose(s.classes[c], e[c], `${s.name}.classes.${c}`);
    }
  });
});
