// Shared helpers of the recordings tests: a run body with boxes centred where the test wants them.
import { bearer, postJson } from '../support/server.js';

/** A normalized run whose tracks each have one box centred at (cx, cy) in the 100×100 space. */
export function runAt(mediaKey: string, runId: string, centres: Array<{ cx: number; cy: number; label?: string }>) {
  return {
    mediaKey,
    schemaVersion: '1.0',
    coordinateSpace: 'normalized',
    source: { kind: 'model', name: 'test', runId },
    tracks: centres.map((c, i) => ({
      id: `t${i}`,
      ...(c.label ? { label: c.label } : {}),
      boxes: [{ frame: 0, x: c.cx / 100 - 0.01, y: c.cy / 100 - 0.01, w: 0.02, h: 0.02 }],
    })),
  };
}

export async function postRun(url: string, token: string, body: unknown) {
  const res = await postJson(`${url}/detections`, body, bearer(token));
  if (res.status >= 300) throw new Error(`run not stored: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

export async function search(url: string, token: string, body: unknown) {
  return postJson(`${url}/recordings/search`, body, bearer(token));
}
