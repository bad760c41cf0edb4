// The API shapes the editor reads (see the detections contract §4.7 and the recordings API).

export interface Box {
  frame: number;
  x: number;
  y: number;
  w: number;
  h: number;
  confidence?: number;
  timestampMs?: number;
  label?: string;
  classId?: string | number;
  /** Filled between keyframes (by an import or an editor), not placed by a model or a person. */
  interpolated?: true;
}

export interface Track {
  id: string;
  label?: string;
  classId?: string | number;
  confidence?: number;
  color?: string;
  boxes: Box[];
}

export interface RunSource {
  kind?: string;
  name?: string;
  version?: string;
  runId?: string;
  [more: string]: unknown;
}

export interface RunSummary {
  runId: string;
  mediaKey: string;
  analysisId: string;
  name?: string;
  task: string;
  schemaVersion: string;
  source: RunSource;
  media: { width?: number; height?: number; fps?: number; frameCount?: number } | null;
  categories: unknown[];
  recordingTimestamp: number;
  createdAt: string;
  updatedAt: string;
  tracksStored: number;
  boxesStored: number;
  revision?: number;
  editedBy?: string;
  editedAt?: string;
}

export interface RevisionSummary {
  revision: number;
  createdAt: string;
  source: RunSource;
  tracksStored: number;
  boxesStored: number;
  editedBy?: string;
  current?: boolean;
}

export interface Run extends RunSummary {
  tracks: Track[];
}

export interface RecordingInfo {
  id: string;
  mediaKey: string;
  analysisId: string;
  startTimestamp: number;
  deviceKey: string | null;
  provider?: string | null;
  width: number | null;
  height: number | null;
  fps: number | null;
  frameCount: number | null;
  durationMs: number | null;
}

export interface AssetUrls {
  video: string;
  thumbnail: string;
  sprite: string;
  redacted: string;
}

export interface RecordingAssets {
  recording: RecordingInfo;
  assets: AssetUrls | null;
  expiresAt: string | null;
  assetsUnavailable: string | null;
  /** The cause an admin can act on (no_account, account_not_in_organisation, account_disabled, …). */
  assetsUnavailableReason?: string | null;
}

export interface SessionUser {
  id: string;
  username: string;
  role: string;
  organisation: { id: string; name: string };
}
