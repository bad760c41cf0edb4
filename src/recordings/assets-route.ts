// GET /recordings/{id}/assets: signed URLs of a recording's video, thumbnail, sprite and redacted copy, for
// the editor. The storage account is the one the organisation chose (PATCH /admin/organisation
// editorStorageAccount), else the server's (EDITOR_STORAGE_ACCOUNT): its credentials never reach the browser.
// When no account is configured, or signing fails, the recording's info comes back with `assets: null`,
// `assetsUnavailable` (the code) and `assetsUnavailableReason` (which of the causes an admin can fix), and the
// editor falls back to a blank canvas of the recording's size, saying why.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { principalOf, requireReader } from '../auth/authenticate.js';
import { ApiError } from '../http/problem.js';
import { DOCUMENTED_RESPONSES, jsonResponse } from '../http/openapi-docs.js';
import { editorStorageAccountOf, findRecording } from './queries.js';

export type AssetKind = 'video' | 'thumbnail' | 'sprite' | 'redacted';
export type AssetNames = Record<AssetKind, string>;

/** The storage naming convention: `<dir>/<base>.mp4` → `<base>_thumbnail.jpg`, `_sprite.jpg`, `_redacted.mp4`. */
export function assetNames(mediaKey: string): AssetNames {
  const base = mediaKey.replace(/\.mp4$/i, '');
  return {
    video: mediaKey,
    thumbnail: `${base}_thumbnail.jpg`,
    sprite: `${base}_sprite.jpg`,
    redacted: `${base}_redacted.mp4`,
  };
}

export interface SignAssetsInput {
  orgId: string;
  /** The configured account names: the one that belongs to the recording's organisation signs. */
  accounts: string[];
  items: Array<{ filename: string; provider?: string; uriExpiryTime: number }>;
}
/** Signs many filenames in one call, as POST /api/storage/bulk does, without HTTP: filename → URL. */
export type AssetSigner = (app: FastifyInstance, input: SignAssetsInput) => Promise<Record<string, string>>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The signer a storage plugin offers (storage/plugin.ts); without one the editor gets `assets: null`. */
    assetSigner?: AssetSigner;
  }
}

const AssetsParams = Type.Object({
  id: Type.String({ description: "The recording's id or its mediaKey (URL-encoded)" }),
});
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const AssetsResponse = Type.Object({
  data: Type.Object({
    recording: Type.Object({
      id: Type.String(),
      mediaKey: Type.String(),
      analysisId: Type.String(),
      startTimestamp: Type.Integer(),
      deviceKey: Nullable(Type.String()),
      provider: Nullable(Type.String()),
      width: Type.Union([Type.Number(), Type.Null()]),
      height: Type.Union([Type.Number(), Type.Null()]),
      fps: Type.Union([Type.Number(), Type.Null()]),
      frameCount: Type.Union([Type.Integer(), Type.Null()]),
      durationMs: Type.Union([Type.Number(), Type.Null()]),
    }),
    assets: Type.Union([
      Type.Object({ video: Type.String(), thumbnail: Type.String(), sprite: Type.String(), redacted: Type.String() }),
      Type.Null(),
    ]),
    expiresAt: Nullable(Type.String({ format: 'date-time' })),
    /** Why `assets` is null: `storage_not_configured`, or the storage error code. */
    assetsUnavailable: Nullable(Type.String()),
    /**
     * The cause in finer terms, for the editor's message: `no_account`, `account_not_in_organisation`,
     * `account_disabled`, `provider_not_allowed`, `directory_not_allowed`, or the code again.
     */
    assetsUnavailableReason: Nullable(Type.String()),
  }),
});

export async function recordingAssetsRoute(app: FastifyInstance): Promise<void> {
  app.get(
    '/recordings/:id/assets',
    {
      onRequest: requireReader,
      schema: {
        tags: ['recordings'],
        summary: "Signed URLs of a recording's video, thumbnail, sprite and redacted copy",
        description:
          "Signed with the organisation's editor storage account (PATCH /admin/organisation), else the one named by EDITOR_STORAGE_ACCOUNT that belongs to the organisation. Without one (or when signing fails) `assets` is null, and `assetsUnavailable` and `assetsUnavailableReason` say why.",
        security: [{ bearer: [] }],
        params: AssetsParams,
        response: { 200: AssetsResponse },
        [DOCUMENTED_RESPONSES]: {
          200: jsonResponse("The recording and its assets' URLs (or why there are none)", AssetsResponse),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const recording = await findRecording(app.store.db, principalOf(request).orgId, id);
      if (!recording) throw new ApiError(404, 'recording_not_found', `No recording "${id}"`);
      const { assetUriExpirySeconds } = app.config.editor;
      // The organisation's own choice wins; the server's setting is the fallback.
      const chosen = await editorStorageAccountOf(app.store.db, recording.orgId);
      const storageAccounts = chosen === null ? app.config.editor.storageAccounts : [chosen];
      const info = {
        id: recording.id,
        mediaKey: recording.mediaKey,
        analysisId: recording.analysisId,
        startTimestamp: recording.startTimestamp,
        deviceKey: recording.deviceKey,
        provider: recording.provider,
        width: recording.width,
        height: recording.height,
        fps: recording.fps,
        frameCount: recording.frameCount,
        durationMs: recording.durationMs,
      };
      // Signed URLs are credentials for a while: no shared cache may keep them.
      reply.header('Cache-Control', 'private, no-store');
      const signer = app.assetSigner;
      if (storageAccounts.length === 0 || !signer) {
        return {
          data: {
            recording: info,
            assets: null,
            expiresAt: null,
            assetsUnavailable: 'storage_not_configured',
            assetsUnavailableReason: 'no_account',
          },
        };
      }
      const names = assetNames(recording.mediaKey);
      const expiresAt = new Date((Math.floor(Date.now() / 1000) + assetUriExpirySeconds) * 1000).toISOString();
      try {
        const urls = await signer(app, {
          orgId: recording.orgId,
          accounts: storageAccounts,
          items: Object.values(names).map((filename) => ({
            filename,
            uriExpiryTime: assetUriExpirySeconds,
            ...(recording.provider ? { provider: recording.provider } : {}),
          })),
        });
        const assets = {
          video: urls[names.video]!,
          thumbnail: urls[names.thumbnail]!,
          sprite: urls[names.sprite]!,
          redacted: urls[names.redacted]!,
        };
        if (Object.values(assets).some((url) => typeof url !== 'string'))
          throw new ApiError(502, 'provider_error', 'The signer left out a filename');
        return { data: { recording: info, assets, expiresAt, assetsUnavailable: null, assetsUnavailableReason: null } };
      } catch (err) {
        // The editor still works without video; the reason is logged for the operator (no secret is in it).
        const code = err instanceof ApiError ? err.code : 'internal_error';
        request.log.warn(
          {
            code,
            mediaKey: recording.mediaKey,
            accounts: storageAccounts,
            err: err instanceof ApiError ? undefined : err,
          },
          'editor assets not signed',
        );
        const reason =
          err instanceof ApiError && typeof err.extensions.reason === 'string' ? err.extensions.reason : code;
        return {
          data: {
            recording: info,
            assets: null,
            expiresAt: null,
            assetsUnavailable: code,
            assetsUnavailableReason: reason,
          },
        };
      }
    },
  );
}
