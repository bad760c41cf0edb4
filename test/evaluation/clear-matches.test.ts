// The box-by-box CLEAR matching the editor draws from: its per-frame tallies are CLEAR's own per-frame counts, on
// every fixture sequence and class (ties, id switches, empty frames and a sequence without predictions included).
import { describe, expect, it } from 'vitest';
import { clearMatches } from '../../src/evaluation/clear-matches.js';
import { clearSequence, type FrameCounts } from '../../src/evaluation/clear.js';
import { classTrackingData } from '../../src/evaluation/tracking-data.js';
import { trackingSequences } from './fixtures.js';

const counts = (n: number): FrameCounts => ({
  tp: new Int32Array(n),
  fp: new Int32Array(n),
  fn: new Int32Array(n),
  idsw: new Int32Array(n),
});

describe('clearMatches', () => {
  const { meta, sequences } = trackingSequences();
  const cases = sequences.flatMap((seq) =>
    [0.5, 0.75].flatMap((threshold) => meta.classes.map((_, cls) => ({ seq, cls, threshold }))),
  );
  it.each(cases.map((c) => [`${c.seq.name} class ${c.cls} at ${c.threshold}`, c] as const))('%s', (_, c) => {
    const data = classTrackingData(c.seq.gt, c.seq.pred, c.cls);
    const want = counts(data.numTimesteps);
    clearSequence(data, c.threshold, want);
    const m = clearMatches(data, c.threshold);
    const got = counts(data.numTimesteps);
    for (let t = 0; t < data.numTimesteps; t++) {
      for (let k = data.gtStart[t]!; k < data.gtStart[t + 1]!; k++) {
        if (m.gtMatch[k] === -1) got.fn[t]!++;
        else {
          got.tp[t]!++;
          expect(m.predMatch[m.gtMatch[k]!]).toBe(k);
        }
        got.idsw[t]! += m.idsw[k]!;
      }
      for (let k = data.trStart[t]!; k < data.trStart[t + 1]!; k++) if (m.predMatch[k] === -1) got.fp[t]!++;
    }
    expect(got).toEqual(want);
  });
});
