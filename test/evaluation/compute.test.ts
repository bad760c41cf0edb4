// The evaluation worker threads: a finished worker is kept for the next computation, and one that was stopped,
// failed or ended is never handed another.
import { afterEach, describe, expect, it } from 'vitest';
import { encodeBoxes } from '../../src/detections/run-codec.js';
import { BOX_STRIDE, type TrackHeader } from '../../src/detections/run-types.js';
import { EvaluationFailure, EvaluationWorkers } from '../../src/evaluation/compute.js';
import {
  evaluateStoredRuns,
  type StoredEvaluationInput,
  type StoredRunBody,
} from '../../src/evaluation/stored-runs.js';

/** A run of one track: a box a frame, moved by `dx`, over `frames` frames. */
function run(runId: string, frames: number, dx: number): StoredRunBody {
  const columns = new Float64Array(frames * BOX_STRIDE);
  for (let f = 0; f < frames; f++) columns.set([f, 0.1 + dx, 0.1, 0.2, 0.3, 0.9, Number.NaN], f * BOX_STRIDE);
  const headers: TrackHeader[] = [{ id: 't', label: 'person', n: frames }];
  return {
    runId,
    tracks: JSON.stringify(headers),
    boxes: encodeBoxes({ headers, columns, count: frames }, 'doubles'),
    media: null,
  };
}

function input(dx: number): StoredEvaluationInput {
  return {
    predictions: ['pred'],
    sequences: [
      {
        mediaKey: 'a.mp4',
        frameCount: 10,
        width: 640,
        height: 480,
        groundTruth: run('gt', 10, 0),
        predictions: [run('pred', 10, dx)],
      },
    ],
    metrics: ['hota', 'clear', 'identity', 'coco'],
    iouThreshold: 0.5,
    classAgnostic: false,
  };
}

describe('EvaluationWorkers', () => {
  let workers: EvaluationWorkers;
  afterEach(async () => {
    await workers.close();
  });

  it('computes what the engine computes, one computation after another on the same thread', async () => {
    workers = new EvaluationWorkers();
    for (const dx of [0, 0.05, 0.5]) {
      const got = await workers.compute(input(dx)).result;
      expect(got).toEqual(evaluateStoredRuns(input(dx)));
    }
    expect(workers.started).toBe(1);
  });

  it("the engine's own failure rejects as such, and the worker serves the next computation", async () => {
    workers = new EvaluationWorkers();
    const bad = input(0);
    bad.sequences[0]!.groundTruth = { ...bad.sequences[0]!.groundTruth, boxes: new Uint8Array(16) };
    await expect(workers.compute(bad).result).rejects.toBeInstanceOf(EvaluationFailure);
    expect((await workers.compute(input(0)).result).results[0]!.combined.HOTA).toBe(1);
    expect(workers.started).toBe(1);
  });

  it('a stopped computation rejects, and the next one gets a new thread', async () => {
    workers = new EvaluationWorkers();
    const stopped = workers.compute(input(0));
    stopped.stop();
    await expect(stopped.result).rejects.toThrow(/exited/);
    expect((await workers.compute(input(0)).result).results[0]!.combined.MOTA).toBe(1);
    expect(workers.started).toBe(2);
  });

  it('two computations at once run on two threads', async () => {
    workers = new EvaluationWorkers();
    const [a, b] = await Promise.all([workers.compute(input(0)).result, workers.compute(input(0.5)).result]);
    expect(a).toEqual(evaluateStoredRuns(input(0)));
    expect(b).toEqual(evaluateStoredRuns(input(0.5)));
    expect(workers.started).toBe(2);
    // Only one is kept: the next computation takes it.
    await workers.compute(input(0)).result;
    expect(workers.started).toBe(2);
  });
});
