// Boxes shown per frame, per layer, kept between timeline rebuilds: an edit recounts only the frames it wrote
// (FrameIndex.changed), so that an edit on a long layer does not count every box of the run again.
import { countFrame, countsPerFrame, type FrameIndex } from './frame-index.js';

interface Kept {
  version: number;
  threshold: number;
  counts: Uint32Array;
}

export class FrameCounts<K extends object> {
  private kept = new WeakMap<K, Kept>();

  /**
   * The boxes of `index` shown per frame at `threshold`, over `frames` frames. The array is kept (and updated by
   * later calls): read it, do not hold on to it.
   */
  of(key: K, index: FrameIndex, threshold: number, frames: number): Uint32Array {
    const k = this.kept.get(key);
    if (k && k.threshold === threshold && k.counts.length === frames) {
      if (k.version === index.version) return k.counts;
      if (index.changed?.from === k.version) {
        for (const f of index.changed.frames) if (f < frames) k.counts[f] = countFrame(index, f, threshold);
        k.version = index.version;
        return k.counts;
      }
    }
    const counts = new Uint32Array(frames);
    countsPerFrame(index, threshold, counts);
    this.kept.set(key, { version: index.version, threshold, counts });
    return counts;
  }
}
