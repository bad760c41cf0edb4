// GET /recordings/{id}/assets: the editor's signed URLs, signed with the server's storage account; without
// one (or when signing fails) the recording's info comes back with assets: null.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extendEach, serverTests } from '../support/fixtures.js';
import { createAccount, createProvider } from '../../src/storage/admin.js';
import { insertRecording } from '../../src/recordings/queries.js';
import { assetNames } from '../../src/recordings/assets-route.js';
import { DIALECTS } from '../support/store.js';
import { writeObject } from '../storage/helpers.js';
import { bearer, getJson, seedOrg, type TestServer } from '../support/server.js';

const STORAGE_ENV = {
  STORAGE_URL_SIGNING_KEY: 'assets-test-signing-key-0123456789abcdef',
  SIGHTLINE_MASTER_KEY: 'assets-test-master-key-0123456789',
};
const assetsUrl = (server: TestServer, idOrKey: string) =>
  `${server.url}/recordings/${encodeURIComponent(idOrKey)}/assets`;

const unsigned = serverTests();

// An editor account of `org`'s, allowed its provider 'disk' (where `org`'s recording has its four assets) but not
// 'other-disk'; `secret` is its secret access key, made before the file's first test.
const account = `editor-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
const editor = extendEach(
  serverTests({ env: { ...STORAGE_ENV, EDITOR_STORAGE_ACCOUNT: account, EDITOR_URI_EXPIRY_TIME: '30m' } }),
  (test) =>
    test.extend('secret', { scope: 'file', auto: true }, async ({ server, org }) => {
      const root = path.join(server.config.dataDir, 'media');
      fs.mkdirSync(root, { recursive: true });
      await createProvider(server.store, server.config, org.orgId, { name: 'disk', type: 'fs', config: { root } });
      await createProvider(server.store, server.config, org.orgId, {
        name: 'other-disk',
        type: 'fs',
        config: { root },
      });
      const secret = (
        await createAccount(server.store, org.orgId, {
          name: account,
          defaultProvider: 'disk',
          providers: ['disk'],
          directories: ['*'],
        })
      ).secretAccessKey;
      for (const [kind, name] of Object.entries(assetNames(org.recording.mediaKey))) {
        const file = path.join(root, ...name.split('/'));
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, `${kind} bytes`);
      }
      return secret;
    }),
);

// EDITOR_STORAGE_ACCOUNT lists a service-wide account (on the provider 'shared-disk' over `root`, made before the
// file's first test) and two names for organisations' own.
const suffix = `${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
const [shared, ownA, ownB] = [`shared-${suffix}`, `a-${suffix}`, `b-${suffix}`];
const listed = extendEach(
  serverTests({ env: { ...STORAGE_ENV, EDITOR_STORAGE_ACCOUNT: `${shared}, ${ownA},${ownB}` } }),
  (test) =>
    test.extend('root', { scope: 'file', auto: true }, async ({ server }) => {
      const root = path.join(server.config.dataDir, 'shared-media');
      fs.mkdirSync(root, { recursive: true });
      // A service-wide provider and account, as an operator makes them with the CLI.
      await createProvider(server.store, server.config, null, { name: 'shared-disk', type: 'fs', config: { root } });
      await createAccount(server.store, null, { name: shared, defaultProvider: 'shared-disk', directories: ['*'] });
      return root;
    }),
);

describe('assetNames', () => {
  it('derives thumbnail, sprite and redacted copy by the naming convention', () => {
    expect(assetNames('alice/1700000000_6-967003_cam1_200-200-400-400_24_769.mp4')).toEqual({
      video: 'alice/1700000000_6-967003_cam1_200-200-400-400_24_769.mp4',
      thumbnail: 'alice/1700000000_6-967003_cam1_200-200-400-400_24_769_thumbnail.jpg',
      sprite: 'alice/1700000000_6-967003_cam1_200-200-400-400_24_769_sprite.jpg',
      redacted: 'alice/1700000000_6-967003_cam1_200-200-400-400_24_769_redacted.mp4',
    });
  });
});

describe.each(DIALECTS)('GET /recordings/{id}/assets without a storage account (%s)', (dialect) => {
  const it = unsigned[dialect];

  it('answers 401 unauthorized without a token', async ({ server, org }) => {
    const res = await getJson(assetsUrl(server, org.recording.id));
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.body.code).toBe('unauthorized');
  });

  it('answers the recording with assets: null, by id and by mediaKey, for any member', async ({ server, org }) => {
    for (const ref of [org.recording.id, org.recording.mediaKey]) {
      const res = await getJson(assetsUrl(server, ref), bearer(org.sessions.viewer));
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(res.body.data).toEqual({
        recording: {
          id: org.recording.id,
          mediaKey: org.recording.mediaKey,
          analysisId: org.recording.analysisId,
          startTimestamp: 1_700_000_000,
          deviceKey: null,
          provider: null,
          width: 1000,
          height: 500,
          fps: 25,
          frameCount: 1000,
          durationMs: null,
        },
        assets: null,
        expiresAt: null,
        assetsUnavailable: 'storage_not_configured',
        assetsUnavailableReason: 'no_account',
      });
    }
  });

  it("answers 404 recording_not_found for an unknown recording and another organisation's", async ({
    server,
    org,
    other,
  }) => {
    for (const ref of ['no-such-recording', other.recording.id, other.recording.mediaKey]) {
      const res = await getJson(assetsUrl(server, ref), bearer(org.token));
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('recording_not_found');
    }
  });
});

describe.each(DIALECTS)('GET /recordings/{id}/assets with EDITOR_STORAGE_ACCOUNT (%s)', (dialect) => {
  const it = editor[dialect];

  it('returns working signed URLs for the video, thumbnail, sprite and redacted copy, and no secret', async ({
    server,
    org,
    secret,
  }) => {
    const before = Math.floor(Date.now() / 1000);
    const res = await getJson(assetsUrl(server, org.recording.mediaKey), bearer(org.sessions.viewer));
    expect(res.status).toBe(200);
    const { assets, expiresAt, assetsUnavailable } = res.body.data;
    expect(assetsUnavailable).toBeNull();
    expect(Object.keys(assets).sort()).toEqual(['redacted', 'sprite', 'thumbnail', 'video']);
    const expires = Date.parse(expiresAt) / 1000;
    expect(expires).toBeGreaterThanOrEqual(before + 1800);
    expect(expires).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1800);
    for (const kind of ['video', 'thumbnail', 'sprite', 'redacted'] as const) {
      const url = new URL(assets[kind], server.url);
      expect(url.searchParams.get('f')).toBe(assetNames(org.recording.mediaKey)[kind]);
      const file = await fetch(url);
      expect(file.status).toBe(200);
      expect(await file.text()).toBe(`${kind} bytes`);
    }
    expect(JSON.stringify(res.body)).not.toContain(secret);
  });

  it("uses the recording's own provider, and degrades to assets: null when the account may not use it", async ({
    server,
    org,
  }) => {
    const rec = await insertRecording(server.store.db, org.orgId, {
      mediaKey: `elsewhere/1700000100_cam2.mp4`,
      startTimestamp: 1_700_000_100,
      provider: 'other-disk',
    });
    const res = await getJson(assetsUrl(server, rec.id), bearer(org.token));
    expect(res.status).toBe(200);
    expect(res.body.data.recording.mediaKey).toBe('elsewhere/1700000100_cam2.mp4');
    expect(res.body.data.assets).toBeNull();
    expect(res.body.data.assetsUnavailable).toBe('provider_not_allowed');
  });

  it('degrades to assets: null when the account belongs to another organisation', async ({ server }) => {
    const stranger = await seedOrg(server.store);
    const res = await getJson(assetsUrl(server, stranger.recording.id), bearer(stranger.token));
    expect(res.status).toBe(200);
    expect(res.body.data.recording.id).toBe(stranger.recording.id);
    expect(res.body.data.assets).toBeNull();
    expect(res.body.data.assetsUnavailable).toBe('invalid_credentials');
  });
});

describe.each(DIALECTS)(
  "GET /recordings/{id}/assets signs only with an account of the caller's organisation (%s)",
  (dialect) => {
    const it = listed[dialect];

    it("never signs another tenant's file: a service-wide account is not used, whatever key a recording names", async ({
      server,
      root,
    }) => {
      const victim = await seedOrg(server.store);
      const intruder = await seedOrg(server.store);
      writeObject(root, victim.recording.mediaKey, 'the victim video');
      // The intruder registers the victim's key in its own organisation (mediaKeys are unique per organisation only).
      const rec = await insertRecording(server.store.db, intruder.orgId, {
        mediaKey: victim.recording.mediaKey,
        startTimestamp: 1_700_000_000,
      });
      const res = await getJson(assetsUrl(server, rec.id), bearer(intruder.token));
      expect(res.status).toBe(200);
      expect([res.body.data.assets, res.body.data.assetsUnavailable]).toEqual([null, 'invalid_credentials']);
      expect(JSON.stringify(res.body)).not.toContain('/api/storage/signed');
    });

    it("signs each organisation's recordings with that organisation's own account from the list", async ({
      server,
    }) => {
      const orgs = [await seedOrg(server.store), await seedOrg(server.store)];
      for (const [i, org] of orgs.entries()) {
        const own = path.join(server.config.dataDir, `media-${i}-${suffix}`);
        fs.mkdirSync(own, { recursive: true });
        await createProvider(server.store, server.config, org.orgId, {
          name: 'disk',
          type: 'fs',
          config: { root: own },
        });
        await createAccount(server.store, org.orgId, {
          name: [ownA, ownB][i]!,
          defaultProvider: 'disk',
          directories: ['*'],
        });
        writeObject(own, org.recording.mediaKey, `video of ${i}`);
      }
      for (const [i, org] of orgs.entries()) {
        const res = await getJson(assetsUrl(server, org.recording.id), bearer(org.sessions.viewer));
        expect(res.body.data.assetsUnavailable).toBeNull();
        const url = new URL(res.body.data.assets.video, server.url);
        expect(url.searchParams.get('a')).toBe([ownA, ownB][i]);
        expect(await (await fetch(url)).text()).toBe(`video of ${i}`);
      }
    });
  },
);
