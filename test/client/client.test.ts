// sightline/client over real HTTP on both dialects: a producer's calls (log in, post, read, patch, revisions), its
// typed problems, the bulk signed-URL helper, gzip for large bodies, and abort.
import { gunzipSync } from 'node:zlib';
import { describe, expect } from 'vitest';
import { createUser } from '../../src/auth/queries.js';
import { type SightlineClient, type components, createClient } from '../../src/client/index.js';
import { extendEach, storageTests } from '../support/fixtures.js';
import { DIALECTS } from '../support/store.js';
import { STORAGE_ENV, unique } from '../storage/helpers.js';

type RunBody = components['schemas']['DetectionRunRequest'];
type Track = components['schemas']['Track'];

const PASSWORD = 'correct horse battery';

/** What a client sent: method, path, headers and the body's bytes as they went on the wire. */
interface Sent {
  method: string;
  path: string;
  headers: Headers;
  bytes: Uint8Array;
}

const tests = extendEach(storageTests({ env: STORAGE_ENV }), (test) =>
  test
    .extend('editor', { scope: 'file' }, async ({ server, org }) => {
      const username = unique('client-editor');
      await createUser(server.store.db, org.orgId, username, PASSWORD, 'editor');
      return username;
    })
    // A client whose requests are recorded on their way to the server; `options` as createClient takes them.
    .extend('connect', ({ server }) => {
      return (options: { token?: string; compressAbove?: number } = {}) => {
        const sent: Sent[] = [];
        const client = createClient({
          baseUrl: server.url,
          ...options,
          fetch: async (request) => {
            const bytes = new Uint8Array(await request.clone().arrayBuffer());
            const { pathname } = new URL(request.url);
            sent.push({ method: request.method, path: pathname, headers: request.headers, bytes });
            return fetch(request);
          },
        });
        return { client, sent };
      };
    })
    .extend('run', ({ org }) => {
      return (runId: string, tracks: Track[]) =>
        ({
          mediaKey: org.recording.mediaKey,
          schemaVersion: '1.0',
          source: { kind: 'model', name: 'yolo', runId },
          coordinateSpace: 'normalized' as const,
          tracks,
        }) satisfies RunBody;
    }),
);

const box = (frame: number, x = 0.1) => ({ frame, x, y: 0.1, w: 0.2, h: 0.3 });

async function loggedIn(connect: (o?: object) => { client: SightlineClient; sent: Sent[] }, username: string) {
  const { client, sent } = connect();
  const { data, error } = await client.login(username, PASSWORD);
  expect(error).toBeUndefined();
  expect(client.token).toBe(data?.data.token);
  return { client, sent };
}

describe.each(DIALECTS)('sightline/client on %s', (dialect) => {
  const it = tests[dialect];

  it('logs in and keeps the token; a wrong password is a typed invalid_credentials', async ({ connect, editor }) => {
    const anonymous = connect().client;
    const refused = await anonymous.login(editor, 'wrong password');
    expect(refused.response.status).toBe(401);
    expect(refused.error?.code).toBe('invalid_credentials');
    expect(anonymous.token).toBeUndefined();

    const { client, sent } = await loggedIn(connect, editor);
    const { data, response } = await client.GET('/detections', { params: { query: { mediaKey: 'cam-none/x.mp4' } } });
    expect(response.status).toBe(404);
    expect(data).toBeUndefined();
    expect(sent.at(-1)?.headers.get('authorization')).toBe(`Bearer ${client.token}`);
  });

  it('posts a run (201), one with a rejected box (207), reads, patches and lists revisions', async ({
    connect,
    editor,
    run,
    org,
  }) => {
    const { client } = await loggedIn(connect, editor);
    const created = await client.POST('/detections', {
      body: run('client-a', [{ id: 'a', label: 'car', boxes: [box(0), box(1)] }]),
    });
    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject({ runId: 'client-a', tracksStored: 1, boxesStored: 2, rejected: [] });

    const partial = await client.POST('/detections', {
      body: run('client-b', [{ id: 'b', boxes: [box(0), { frame: 1, x1: 1.2, y1: 1.2, x2: 1.5, y2: 1.6 }] }]),
    });
    expect(partial.response.status).toBe(207);
    expect(partial.data?.rejected).toEqual([{ trackId: 'b', frame: 1, reason: 'box_out_of_frame' }]);

    const read = await client.GET('/detections/{runId}', { params: { path: { runId: 'client-a' } } });
    expect(read.response.status).toBe(200);
    expect(read.data?.data.mediaKey).toBe(org.recording.mediaKey);
    expect(read.data?.data.tracks.map((t) => t.boxes.length)).toEqual([2]);

    const patched = await client.PATCH('/detections/{runId}', {
      params: { path: { runId: 'client-a' } },
      body: { baseRevision: 1, tracks: { upsert: [{ id: 'n', label: 'dog', boxes: [box(3, 0.5)] }] } },
    });
    expect(patched.response.status).toBe(200);
    expect(patched.data).toMatchObject({ revision: 2, tracksStored: 2, boxesStored: 3 });

    const stale = await client.PATCH('/detections/{runId}', {
      params: { path: { runId: 'client-a' } },
      body: { baseRevision: 1, tracks: { delete: ['n'] } },
    });
    expect(stale.response.status).toBe(409);
    expect(stale.error?.code).toBe('revision_conflict');

    const revisions = await client.GET('/detections/{runId}/revisions', { params: { path: { runId: 'client-a' } } });
    expect(revisions.data?.data.revisions.map((r) => r.revision)).toEqual([2, 1]);
  });

  it('answers a typed run_not_found problem for a run that does not exist', async ({ connect, org }) => {
    const { client } = connect({ token: org.token });
    const { data, error, response } = await client.GET('/detections/{runId}', {
      params: { path: { runId: 'no-such-run' } },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(error).toMatchObject({ status: 404, code: 'run_not_found' });
    const deleted = await client.DELETE('/detections/{runId}', { params: { path: { runId: 'no-such-run' } } });
    expect(deleted.error?.code).toBe('run_not_found');
  });

  it('signs a list of files with the bulk helper and answers the map decoded', async ({ connect, fx }) => {
    const { client, sent } = connect();
    const files = ['alice/1.mp4', 'alice/1_thumbnail.jpg'];
    const { data, error, response } = await client.signedUrls(fx.account, [
      { filename: files[0]! },
      { filename: files[1]!, provider: 's3', uriExpiryTime: '1h' },
    ]);
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(Object.keys(data ?? {})).toEqual(files);
    expect(new URL(data![files[0]!]!).pathname).toBe('/api/storage/signed');
    expect(new URL(data![files[1]!]!).searchParams.get('X-Amz-Expires')).toBe('3600');
    // The account's keys travel in their own headers, never as a Bearer token.
    expect(sent[0]!.headers.get('authorization')).toBeNull();

    const wrong = await client.signedUrls({ ...fx.account, secretAccessKey: 'not-the-secret' }, [{ filename: 'x' }]);
    expect(wrong.data).toBeUndefined();
    expect(wrong.response.status).toBe(401);
    expect(wrong.error?.code).toBe('invalid_credentials');
  });

  it('sends a run over 1 MiB gzip-compressed and a small one plain; the server stores both', async ({
    connect,
    org,
    run,
  }) => {
    const { client, sent } = connect({ token: org.token });
    const frames = Array.from({ length: 500 }, (_, frame) => ({ ...box(frame), confidence: 0.123456789 }));
    const tracks = Array.from({ length: 40 }, (_, i) => ({ id: `t${i}`, label: 'person', boxes: frames }));
    const large = run('client-large', tracks);
    const plainBytes = Buffer.byteLength(JSON.stringify(large));
    expect(plainBytes).toBeGreaterThan(1024 * 1024);

    const res = await client.POST('/detections', { body: large });
    expect(res.response.status).toBe(201);
    expect(res.data).toMatchObject({ tracksStored: 40, boxesStored: 20_000 });
    const wire = sent.at(-1)!;
    expect(wire.headers.get('content-encoding')).toBe('gzip');
    expect(wire.bytes.byteLength).toBeLessThan(plainBytes / 4);
    expect(JSON.parse(gunzipSync(wire.bytes).toString('utf8'))).toEqual(large);

    const small = await client.POST('/detections', { body: run('client-small', [{ id: 's', boxes: [box(0)] }]) });
    expect(small.response.status).toBe(201);
    expect(sent.at(-1)!.headers.get('content-encoding')).toBeNull();
  });

  it('never compresses a body for a route that does not decode one (PATCH), whatever the threshold', async ({
    connect,
    org,
    run,
  }) => {
    const { client, sent } = connect({ token: org.token, compressAbove: 0 });
    const posted = await client.POST('/detections', { body: run('client-zero', [{ id: 'z', boxes: [box(0)] }]) });
    expect(posted.response.status).toBe(201);
    expect(sent.at(-1)!.headers.get('content-encoding')).toBe('gzip');
    const patched = await client.PATCH('/detections/{runId}', {
      params: { path: { runId: 'client-zero' } },
      body: { baseRevision: 1, tracks: { delete: [], upsert: [{ id: 'y', boxes: [box(2)] }] } },
    });
    expect(patched.response.status).toBe(200);
    expect(sent.at(-1)!.headers.get('content-encoding')).toBeNull();
  });

  it('passes an abort signal through, the compressed path included: the call rejects and nothing is stored', async ({
    server,
    org,
    run,
  }) => {
    for (const compressAbove of [undefined, 0]) {
      const controller = new AbortController();
      const signals: AbortSignal[] = [];
      // The caller gives up while the request is on its way.
      const client = createClient({
        baseUrl: server.url,
        token: org.token,
        ...(compressAbove === undefined ? {} : { compressAbove }),
        fetch: (request) => {
          signals.push(request.signal);
          controller.abort();
          return fetch(request);
        },
      });
      const runId = `client-aborted-${compressAbove ?? 'plain'}`;
      await expect(
        client.POST('/detections', { body: run(runId, [{ id: 'x', boxes: [box(0)] }]), signal: controller.signal }),
      ).rejects.toMatchObject({ name: 'AbortError' });
      expect(signals[0]?.aborted).toBe(true);
      const check = createClient({ baseUrl: server.url, token: org.token });
      const read = await check.GET('/detections/{runId}', { params: { path: { runId } } });
      expect(read.error?.code).toBe('run_not_found');
    }
  });
});
