// A patched run's boxes in segments (detections/run-segments.ts) over real HTTP on both dialects: patches rewrite
// only the segments they touch, every reader sees the same run, and revisions, restores, replaces, the cap and the
// search index follow.
import { describe, expect } from 'vitest';
import { decodePoints } from '../../src/detections/centroids.js';
import { centroidRowsOf } from '../../src/detections/run-rows.js';
import { isSegmentedBoxes } from '../../src/detections/run-codec.js';
import { BOX_STRIDE, type TrackHeader } from '../../src/detections/run-types.js';
import { extendEach, serverTests } from '../support/fixtures.js';
import { bearer, getJson, postJson } from '../support/server.js';
import { DIALECTS } from '../support/store.js';

type Box = { frame: number; x: number; y: number; w: number; h: number; confidence: number };
type Track = { id: string; label: string; boxes: Box[] };

// 1000 boxes a track: four tracks fill a segment (SEGMENT_BOXES = 4096), so ten tracks make three segments.
const BOXES = 1000;
const track = (id: string, label: string, x: number): Track => ({
  id,
  label,
  boxes: Array.from({ length: BOXES }, (_, frame) => ({
    frame,
    x: Math.round((x + (frame % 7) / 1000) * 1e4) / 1e4,
    y: 0.25,
    w: 0.1,
    h: 0.1,
    confidence: 0.5,
  })),
});
const initial = () => Array.from({ length: 10 }, (_, i) => track(`t${i}`, i % 2 ? 'car' : 'person', i / 20));

// Six revisions kept, the current one included: the cap is reached within a test.
const tests = extendEach(serverTests({ env: { RUN_REVISIONS_KEPT: '6' } }), (test) =>
  test.extend('api', ({ server, org }) => {
    const url = (runId: string, rest = '') => `${server.url}/detections/${encodeURIComponent(runId)}${rest}`;
    const db = server.store.db;
    const runPk = async (runId: string) =>
      (await db.selectFrom('runs').select('id').where('run_id', '=', runId).executeTakeFirstOrThrow()).id;
    /** The run's current segments: number → track ids and stored bytes. */
    const segments = async (runId: string, revision = 0) => {
      const rows = await db
        .selectFrom('run_segments')
        .select(['segment', 'tracks', 'boxes'])
        .where('run_pk', '=', await runPk(runId))
        .where('revision', '=', revision)
        .orderBy('segment')
        .execute();
      return rows.map((r) => ({
        segment: r.segment,
        ids: (JSON.parse(r.tracks) as TrackHeader[]).map((h) => h.id),
        boxes: Buffer.from(r.boxes),
      }));
    };
    return {
      post: (runId: string, tracks: Track[]) =>
        postJson(
          `${server.url}/detections`,
          {
            mediaKey: org.recording.mediaKey,
            schemaVersion: '1.0',
            source: { kind: 'model', name: 'yolo', runId },
            coordinateSpace: 'normalized',
            media: { fps: 10, frameCount: 2000 },
            tracks,
          },
          bearer(org.token),
        ),
      patch: (runId: string, baseRevision: number, upsert: Track[], del: string[] = []) =>
        postJson(url(runId), { baseRevision, tracks: { upsert, delete: del } }, bearer(org.token), 'PATCH'),
      restore: (runId: string, n: number) => postJson(url(runId, `/revisions/${n}/restore`), {}, bearer(org.token)),
      exported: async (runId: string, format: string) => {
        const res = await fetch(url(runId, `/export?format=${format}`), { headers: bearer(org.token) });
        expect(res.status).toBe(200);
        return res.text();
      },
      tracks: async (runId: string, query = ''): Promise<Track[]> => {
        const res = await getJson(url(runId, query), bearer(org.token));
        expect(res.status).toBe(200);
        return res.body.data.tracks.map((t: Track) => ({
          id: t.id,
          label: t.label,
          boxes: t.boxes.map(({ frame, x, y, w, h, confidence }) => ({ frame, x, y, w, h, confidence })),
        }));
      },
      segments,
      rowIsSegmented: async (runId: string) =>
        isSegmentedBoxes(
          (await db.selectFrom('runs').select('boxes').where('run_id', '=', runId).executeTakeFirstOrThrow()).boxes,
        ),
      /**
       * The run's centroid rows as the index holds them, a label's rows (one per segment) joined: label → sorted
       * points with their frames, count, cells.
       */
      centroids: async (runId: string) => {
        const rows = await db
          .selectFrom('run_centroids')
          .select(['label', 'points', 'frames', 'count', 'cells_lo', 'cells_hi'])
          .where('run_pk', '=', await runPk(runId))
          .execute();
        return joinedShapes(rows);
      },
      /** The run's track index: track id → current segment. */
      trackIndex: async (runId: string) => {
        const rows = await db
          .selectFrom('run_track_segments')
          .select(['track_id', 'segment'])
          .where('run_pk', '=', await runPk(runId))
          .execute();
        return Object.fromEntries(rows.map((r) => [r.track_id, r.segment]));
      },
      /** The index the run's current segments give. */
      segmentIndex: async (runId: string) =>
        Object.fromEntries((await segments(runId)).flatMap((s) => s.ids.map((id) => [id, s.segment]))),
      /** The run's centroid rows by `label@segment`. */
      segmentCentroids: async (runId: string) => {
        const rows = await db
          .selectFrom('run_centroids')
          .select(['label', 'segment', 'points', 'frames', 'count', 'cells_lo', 'cells_hi'])
          .where('run_pk', '=', await runPk(runId))
          .execute();
        return Object.fromEntries(rows.map((r) => [`${r.label}@${r.segment}`, shapeOf(r)]));
      },
      /** The centroid rows a fresh store of `tracks` makes. */
      freshCentroids: (tracks: Track[]) => joinedShapes(freshRows(tracks)),
      /** The rows of each segment's tracks (`segments`: number → ids), by `label@segment`. */
      freshSegmentCentroids: (tracks: Track[], segments: Array<{ segment: number; ids: string[] }>) =>
        Object.fromEntries(
          segments.flatMap(({ segment, ids }) =>
            freshRows(ids.map((id) => tracks.find((t) => t.id === id)!)).map((r) => [
              `${r.label}@${segment}`,
              shapeOf(r),
            ]),
          ),
        ),
    };
  }),
);

function freshRows(tracks: Track[]) {
  const headers = tracks.map((t) => ({ id: t.id, label: t.label, n: t.boxes.length }));
  const columns = Float64Array.from(
    tracks.flatMap((t) => t.boxes.flatMap((b) => [b.frame, b.x, b.y, b.w, b.h, b.confidence, NaN])),
  );
  expect(columns.length).toBe(headers.reduce((s, h) => s + h.n, 0) * BOX_STRIDE);
  return centroidRowsOf({ id: 'r', orgId: 'o' }, { boxes: { headers, columns, count: columns.length / BOX_STRIDE } });
}

type StoredCentroid = Parameters<typeof shapeOf>[0] & { label: string };

/** A label's rows as one: points joined, counts summed, cells OR-ed. */
function joinedShapes(rows: StoredCentroid[]) {
  const out: Record<string, ReturnType<typeof shapeOf>> = {};
  for (const r of rows) {
    const shape = shapeOf(r);
    const seen = out[r.label];
    out[r.label] = seen
      ? {
          count: seen.count + shape.count,
          cells: [(seen.cells[0]! | shape.cells[0]!) >>> 0, (seen.cells[1]! | shape.cells[1]!) >>> 0],
          points: [...seen.points, ...shape.points].sort(),
        }
      : shape;
  }
  return out;
}

function shapeOf(r: {
  points: Uint8Array;
  frames: Uint8Array | null;
  count: number;
  cells_lo: number;
  cells_hi: number;
}) {
  const p = decodePoints(r.points);
  const f = r.frames ? decodePoints(r.frames) : [];
  const pairs: string[] = [];
  for (let i = 0; i < p.length; i += 2) pairs.push(`${p[i]},${p[i + 1]}@${f[i >> 1]}`);
  return { count: r.count, cells: [r.cells_lo, r.cells_hi], points: pairs.sort() };
}

/** The same edits applied to the tracks in memory, as the spec's patch semantics say. */
function applied(tracks: Track[], upsert: Track[], del: string[] = []): Track[] {
  const byId = new Map(upsert.map((t) => [t.id, t]));
  const out = tracks.filter((t) => !del.includes(t.id)).map((t) => byId.get(t.id) ?? t);
  const ids = new Set(tracks.map((t) => t.id));
  return [...out, ...upsert.filter((t) => !ids.has(t.id))];
}

describe.each(DIALECTS)('a run in segments on %s', (dialect) => {
  const it = tests[dialect];

  it('a patch touching tracks in two segments rewrites those two; every read sees the patched run', async ({ api }) => {
    let expected = initial();
    expect((await api.post('seg-two', expected)).status).toBe(201);
    expect(await api.rowIsSegmented('seg-two')).toBe(false);

    // The first patch splits the run.
    const first = [track('t1', 'car', 0.5)];
    expect((await api.patch('seg-two', 1, first)).status).toBe(200);
    expected = applied(expected, first);
    expect(await api.rowIsSegmented('seg-two')).toBe(true);
    const split = await api.segments('seg-two');
    expect(split.map((s) => s.ids)).toEqual([
      ['t0', 't1', 't2', 't3'],
      ['t4', 't5', 't6', 't7'],
      ['t8', 't9'],
    ]);
    expect(await api.tracks('seg-two')).toEqual(expected);

    // t2 (segment 0) relabelled and t9 (segment 2) moved: segment 1 is left as it was, byte for byte.
    const second = [track('t2', 'dog', 0.6), track('t9', 'car', 0.7)];
    const res = await api.patch('seg-two', 2, second);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ revision: 3, tracksStored: 10, boxesStored: 10 * BOXES });
    expected = applied(expected, second);
    const after = await api.segments('seg-two');
    expect(after.map((s) => s.ids)).toEqual(split.map((s) => s.ids));
    expect(after[0]!.boxes.equals(split[0]!.boxes)).toBe(false);
    expect(after[1]!.boxes.equals(split[1]!.boxes)).toBe(true);
    expect(await api.tracks('seg-two')).toEqual(expected);
    // Earlier revisions read back through the deltas.
    expect(await api.tracks('seg-two', '?revision=1')).toEqual(initial());
    expect(await api.tracks('seg-two', '?revision=2')).toEqual(applied(initial(), first));
    // The index holds what a fresh store of the same tracks would, a row per label and segment.
    expect(await api.centroids('seg-two')).toEqual(api.freshCentroids(expected));
    expect(await api.segmentCentroids('seg-two')).toEqual(
      api.freshSegmentCentroids(expected, await api.segments('seg-two')),
    );
    expect(await api.trackIndex('seg-two')).toEqual(await api.segmentIndex('seg-two'));
    // An export reads the joined segments: the same file as the same tracks posted as one blob.
    expect((await api.post('seg-two-copy', expected)).status).toBe(201);
    for (const format of ['mot', 'cvat-video'])
      expect(await api.exported('seg-two', format)).toBe(await api.exported('seg-two-copy', format));
  });

  it('a delete that empties a segment drops it; added tracks fill the last one, then a new one', async ({ api }) => {
    let expected = initial();
    await api.post('seg-drop', expected);
    expect((await api.patch('seg-drop', 1, [], ['t8', 't9'])).status).toBe(200);
    expected = applied(expected, [], ['t8', 't9']);
    expect((await api.segments('seg-drop')).map((s) => s.segment)).toEqual([0, 1]);
    expect((await api.patch('seg-drop', 2, [], ['t4', 't5', 't6', 't7'])).status).toBe(200);
    expected = applied(expected, [], ['t4', 't5', 't6', 't7']);
    expect((await api.segments('seg-drop')).map((s) => s.ids)).toEqual([['t0', 't1', 't2', 't3']]);
    expect(await api.tracks('seg-drop')).toEqual(expected);

    const added = [track('n1', 'bus', 0.3), track('n2', 'bus', 0.4)];
    const res = await api.patch('seg-drop', 3, added);
    expect(res.body).toMatchObject({ revision: 4, tracksStored: 6, boxesStored: 6 * BOXES });
    expected = applied(expected, added);
    expect((await api.segments('seg-drop')).map((s) => s.ids)).toEqual([
      ['t0', 't1', 't2', 't3'],
      ['n1', 'n2'],
    ]);
    expect(await api.tracks('seg-drop')).toEqual(expected);
    expect(await api.centroids('seg-drop')).toEqual(api.freshCentroids(expected));
    expect(await api.segmentCentroids('seg-drop')).toEqual(
      api.freshSegmentCentroids(expected, await api.segments('seg-drop')),
    );
    expect(await api.trackIndex('seg-drop')).toEqual(await api.segmentIndex('seg-drop'));
  });

  it('restores across segment changes, and a replace by POST keeps a segmented run whole', async ({ api }) => {
    const contents = [initial()];
    await api.post('seg-restore', contents[0]!);
    const edits: Array<[Track[], string[]]> = [
      [[track('t0', 'car', 0.8)], []],
      [[], ['t4', 't5', 't6', 't7']],
      [[track('x', 'bus', 0.1), track('t9', 'dog', 0.2)], ['t1']],
    ];
    for (const [i, [upsert, del]] of edits.entries()) {
      expect((await api.patch('seg-restore', i + 1, upsert, del)).status).toBe(200);
      contents.push(applied(contents.at(-1)!, upsert, del));
    }
    // Revision 2 had segment 1, which revision 3 dropped.
    const restored = await api.restore('seg-restore', 2);
    expect(restored.status).toBe(200);
    expect(restored.body.data.revision).toBe(5);
    expect(await api.tracks('seg-restore')).toEqual(contents[1]);
    expect(await api.centroids('seg-restore')).toEqual(api.freshCentroids(contents[1]!));
    expect(await api.segmentCentroids('seg-restore')).toEqual(
      api.freshSegmentCentroids(contents[1]!, await api.segments('seg-restore')),
    );
    expect(await api.trackIndex('seg-restore')).toEqual(await api.segmentIndex('seg-restore'));
    // The restore is itself undone by one.
    expect((await api.restore('seg-restore', 4)).status).toBe(200);
    expect(await api.tracks('seg-restore')).toEqual(contents[3]);

    // A replace by POST: the segmented content goes whole to revision 6, its segments with it; the row is one blob.
    const replacement = [track('r0', 'car', 0.1)];
    expect((await api.post('seg-restore', replacement)).status).toBe(200);
    expect(await api.rowIsSegmented('seg-restore')).toBe(false);
    expect(await api.segments('seg-restore')).toEqual([]);
    // One blob again: no track index, and one centroid row per label.
    expect(await api.trackIndex('seg-restore')).toEqual({});
    expect(await api.segmentCentroids('seg-restore')).toEqual(
      api.freshSegmentCentroids(replacement, [{ segment: 0, ids: replacement.map((t) => t.id) }]),
    );
    expect((await api.segments('seg-restore', 6)).length).toBeGreaterThan(0);
    expect(await api.tracks('seg-restore')).toEqual(replacement);
    expect(await api.tracks('seg-restore', '?revision=6')).toEqual(contents[3]);
    expect(await api.tracks('seg-restore', '?revision=5')).toEqual(contents[1]);
    expect((await api.restore('seg-restore', 6)).status).toBe(200);
    expect(await api.tracks('seg-restore')).toEqual(contents[3]);
    expect(await api.centroids('seg-restore')).toEqual(api.freshCentroids(contents[3]!));
    expect(await api.segmentCentroids('seg-restore')).toEqual(
      api.freshSegmentCentroids(contents[3]!, await api.segments('seg-restore')),
    );
    expect(await api.trackIndex('seg-restore')).toEqual(await api.segmentIndex('seg-restore'));

    // The cap (6 kept) lets revision 6 go with its segments after a few more changes.
    for (let base = 8; base < 14; base++)
      expect((await api.patch('seg-restore', base, [track('t0', 'car', base / 100)])).status).toBe(200);
    expect(await api.segments('seg-restore', 6)).toEqual([]);
  });
});
