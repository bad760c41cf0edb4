// Detection runs for benchmarks. Deterministic (seeded), values rounded the way real producers print them.

function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
}
const r6 = (v: number) => Math.round(v * 1e6) / 1e6;

export function largeRun(mediaKey: string, runId: string, space: 'normalized' | 'pixel', tracks = 5000, boxes = 50) {
  const rand = rng(42);
  const W = 1920,
    H = 1080,
    fps = 30;
  const out = [];
  for (let t = 0; t < tracks; t++) {
    const list = [];
    let x = rand() * 0.8,
      y = rand() * 0.8;
    const w = 0.02 + rand() * 0.15,
      h = 0.02 + rand() * 0.15;
    for (let b = 0; b < boxes; b++) {
      const frame = b * 3 + (t % 3);
      x = Math.min(0.8, Math.max(0, x + (rand() - 0.5) * 0.01));
      y = Math.min(0.8, Math.max(0, y + (rand() - 0.5) * 0.01));
      const confidence = r6(0.3 + rand() * 0.7);
      const timestampMs = Math.round((frame * 1000) / fps);
      list.push(
        space === 'normalized'
          ? { frame, x: r6(x), y: r6(y), w: r6(w), h: r6(h), confidence, timestampMs }
          : {
              frame,
              x1: Math.round(x * W * 10) / 10,
              y1: Math.round(y * H * 10) / 10,
              x2: Math.round((x + w) * W * 10) / 10,
              y2: Math.round((y + h) * H * 10) / 10,
              confidence,
              timestampMs,
            },
      );
    }
    out.push({ id: `t${t}`, label: ['person', 'car', 'bicycle', 'dog'][t % 4], boxes: list });
  }
  return {
    mediaKey,
    schemaVersion: '1.0',
    source: { kind: 'model', name: 'bench-detector', version: '1.0', runId },
    coordinateSpace: space,
    media: { width: W, height: H, fps, frameCount: 200_000 },
    tracks: out,
  };
}

export const smallRun = (mediaKey: string, runId: string) => largeRun(mediaKey, runId, 'normalized', 10, 30);
