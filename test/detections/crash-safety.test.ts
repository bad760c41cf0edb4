// A server killed with SIGKILL in the middle of a large POST leaves the previous run or the new one,
// complete, never a mixture; SIGTERM lets the in-flight request finish.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, createTestStore, type TestStore } from '../support/store.js';
import { exited, spawnServer } from '../support/cli.js';
import { bearer, getJson, postJson, seedOrg, serveLocation, type SeededOrg } from '../support/server.js';

function runBody(mediaKey: string, version: string, tracks: number, boxes: number) {
  return JSON.stringify({
    mediaKey,
    schemaVersion: '1.0',
    source: { runId: 'crash', version },
    coordinateSpace: 'normalized',
    tracks: Array.from({ length: tracks }, (_, t) => ({
      id: `${version}-${t}`,
      label: t % 2 ? 'car' : 'person',
      boxes: Array.from({ length: boxes }, (_, f) => ({
        frame: f,
        x: 0.1 + (t % 50) / 100,
        y: 0.2,
        w: 0.05,
        h: 0.1,
        confidence: 0.5,
        timestampMs: f * 40,
      })),
    })),
  });
}

/** Sends the body and calls `onProgress(fraction)` as it goes; resolves with the status or the error. */
function send(
  url: string,
  token: string,
  body: string,
  onProgress: (fraction: number) => void,
): Promise<number | Error> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const req = http.request({
      host: target.hostname,
      port: target.port,
      path: '/detections',
      method: 'POST',
      headers: {
        ...bearer(token),
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', (err) => resolve(err));
    const buf = Buffer.from(body);
    const step = 256 * 1024;
    let offset = 0;
    const pump = () => {
      while (offset < buf.length) {
        const chunk = buf.subarray(offset, offset + step);
        offset += chunk.length;
        onProgress(offset / buf.length);
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

describe.each(DIALECTS)('crash safety on %s', (dialect) => {
  let ts: TestStore;
  let org: SeededOrg;
  beforeAll(async () => {
    ts = await createTestStore(dialect);
    // A recording of today: a spawned server runs the retention sweeper, which would expire an old one.
    const now = Math.floor(Date.now() / 1000);
    org = await seedOrg(ts.store, { mediaKey: `crash/${now}_cam.mp4`, startTimestamp: now });
  });
  afterAll(async () => {
    await ts.destroy();
  });

  const OLD = { tracks: 40, boxes: 10 };
  const NEW = { tracks: 2500, boxes: 50 };

  async function checkWhole(url: string) {
    const res = await getJson(`${url}/detections/crash`, bearer(org.token));
    expect(res.status).toBe(200);
    const run = res.body.data;
    const shape = run.source.version === 'old' ? OLD : NEW;
    expect(['old', 'new']).toContain(run.source.version);
    expect(run.tracks).toHaveLength(shape.tracks);
    expect(run.tracksStored).toBe(shape.tracks);
    expect(run.boxesStored).toBe(shape.tracks * shape.boxes);
    expect(
      run.tracks.every(
        (t: { id: string; boxes: unknown[] }) =>
          t.id.startsWith(`${run.source.version}-`) && t.boxes.length === shape.boxes,
      ),
    ).toBe(true);
    const centroids = await ts.store.db
      .selectFrom('run_centroids')
      .innerJoin('runs', 'runs.id', 'run_centroids.run_pk')
      .select('run_centroids.count')
      .where('runs.run_id', '=', 'crash')
      .execute();
    expect(centroids.reduce((n, c) => n + c.count, 0)).toBe(shape.tracks * Math.min(10, shape.boxes));
    return run.source.version as string;
  }

  // Kill points: halfway through the upload, right after its last byte, and a little later (while it is written).
  it.each([0.5, 1, 1.05, 1.2])('SIGKILL at %s of the upload leaves one complete run', async (when) => {
    const server = await spawnServer(ts.location);
    const old = await postJson(
      `${server.url}/detections`,
      JSON.parse(runBody(org.recording.mediaKey, 'old', OLD.tracks, OLD.boxes)),
      bearer(org.token),
    );
    expect([200, 201]).toContain(old.status);
    const body = runBody(org.recording.mediaKey, 'new', NEW.tracks, NEW.boxes);
    let killed = false;
    const kill = () => {
      if (!killed) {
        killed = true;
        server.child.kill('SIGKILL');
      }
    };
    const sent = send(server.url, org.token, body, (fraction) => {
      if (when <= 1 && fraction >= when) kill();
      else if (when > 1 && fraction >= 1) setTimeout(kill, Math.round((when - 1) * 1000));
    });
    const outcome = await sent;
    kill();
    await exited(server.child);
    // What the next start finds: a server opening the store anew (recovery is the store's, not the process's).
    const restarted = await serveLocation(ts.location);
    try {
      const version = await checkWhole(restarted.url);
      if (when < 1) expect(version).toBe('old');
      if (typeof outcome === 'number' && outcome < 300) expect(version).toBe('new');
    } finally {
      await restarted.close();
    }
  });

  it('SIGTERM lets an in-flight POST finish, then the process exits 0', async () => {
    const server = await spawnServer(ts.location);
    const body = runBody(org.recording.mediaKey, 'new', NEW.tracks, NEW.boxes);
    let signalled = false;
    const status = await send(server.url, org.token, body, (fraction) => {
      if (fraction >= 1 && !signalled) {
        signalled = true;
        server.child.kill('SIGTERM');
      }
    });
    expect(status, String(status) + server.stderr()).toSatisfy((s: unknown) => s === 200 || s === 201);
    expect(await exited(server.child)).toBe(0);
  });
});
