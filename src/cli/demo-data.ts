// The demo recording's detection runs: a few objects moving across a 640×360, 25 fps, 10 s clip.

/**
 * The demo recording's key: fixed, so that the request examples of the API document (/docs) name a recording the
 * demo has, and Swagger UI's "Try it out" works there as it stands.
 */
export const DEMO_MEDIA_KEY = 'demo/cam1.mp4';

export const DEMO_MEDIA = { width: 640, height: 360, fps: 25, frameCount: 250 } as const;

interface Mover {
  id: string;
  label: string;
  from: [number, number];
  to: [number, number];
  size: [number, number];
  frames: [number, number];
}

const DETECTOR: Mover[] = [
  { id: 'p1', label: 'person', from: [40, 150], to: [520, 170], size: [60, 150], frames: [0, 249] },
  { id: 'c1', label: 'car', from: [560, 220], to: [20, 200], size: [110, 70], frames: [30, 200] },
  { id: 'd1', label: 'dog', from: [300, 280], to: [420, 270], size: [50, 40], frames: [100, 249] },
];

const TRACKER: Mover[] = [
  { id: 't-person', label: 'person', from: [44, 156], to: [524, 176], size: [56, 142], frames: [0, 249] },
  { id: 't-car', label: 'car', from: [556, 224], to: [24, 204], size: [104, 64], frames: [30, 200] },
];

function tracks(movers: Mover[], seed: number) {
  return movers.map((m) => {
    const boxes = [];
    for (let f = m.frames[0]; f <= m.frames[1]; f++) {
      const t = (f - m.frames[0]) / Math.max(1, m.frames[1] - m.frames[0]);
      const x1 = Math.round(m.from[0] + (m.to[0] - m.from[0]) * t);
      const y1 = Math.round(m.from[1] + (m.to[1] - m.from[1]) * t);
      // Confidence wanders between 0.35 and 0.98 so the editor's threshold slider has something to hide.
      const confidence = Math.round((0.665 + 0.315 * Math.sin((f + seed) / 9)) * 1000) / 1000;
      boxes.push({ frame: f, x1, y1, x2: x1 + m.size[0], y2: y1 + m.size[1], confidence, timestampMs: f * 40 });
    }
    return { id: m.id, label: m.label, boxes };
  });
}

export function demoRuns(mediaKey: string) {
  const common = { mediaKey, schemaVersion: '1.0', coordinateSpace: 'pixel', media: DEMO_MEDIA };
  return [
    {
      ...common,
      source: { kind: 'model', name: 'yolov8-demo', version: '8.1.0', runId: 'demo-detector-1' },
      tracks: tracks(DETECTOR, 0),
    },
    {
      ...common,
      source: { kind: 'model', name: 'bytetrack-demo', version: '2.0.0', runId: 'demo-tracker-1' },
      tracks: tracks(TRACKER, 17),
    },
  ];
}
