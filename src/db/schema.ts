// Row types of every table, as Kysely sees them. Times are Unix milliseconds unless named *_timestamp.
import type { Generated } from 'kysely';

export interface OrganisationsTable {
  id: string;
  name: string;
  retention_days: number;
  keep_recordings: number;
  /** The storage account that signs the editor's asset URLs; null: EDITOR_STORAGE_ACCOUNT decides. */
  editor_storage_account: Generated<string | null>;
  created_at: number;
}
export interface UsersTable {
  id: string;
  org_id: string;
  username: string;
  password_hash: string;
  role: string;
  created_at: number;
}
export interface SessionsTable {
  id: string;
  token_hash: string;
  user_id: string;
  org_id: string;
  expires_at: number;
  created_at: number;
}
export interface AccessTokensTable {
  id: string;
  org_id: string;
  name: string;
  token_hash: string;
  role: string;
  expires_at: number | null;
  revoked_at: number | null;
  created_at: number;
}
export interface LoginFailuresTable {
  key: string;
  failures: number;
  previous_failures: number;
  window_start: number;
  window_ms: number;
  /** When the key's current lock ends (ms since the epoch); 0 when it was never locked. */
  locked_until: number;
  /** How many times the key was locked: each lock lasts twice the one before (auth/throttle.ts). */
  lockouts: number;
}
export interface RecordingsTable {
  id: string;
  org_id: string;
  media_key: string;
  analysis_id: string;
  start_timestamp: number;
  device_key: string | null;
  provider: string | null;
  width: number | null;
  height: number | null;
  fps: number | null;
  frame_count: number | null;
  duration_ms: number | null;
  created_at: number;
}
export interface RunsTable {
  id: string;
  org_id: string;
  recording_id: string;
  run_id: string;
  name: string | null;
  task: string;
  schema_version: string;
  source: string;
  original_coordinate_space: string;
  original_box_form: string;
  media: string | null;
  categories: string | null;
  recording_timestamp: number;
  created_at: number;
  updated_at: number;
  version: number;
  /** Counts changes of the content (spec §9); earlier contents are in run_revisions. */
  revision: number;
  /** Username of the person whose change made this revision (null: an application's or a migrated run). */
  edited_by: string | null;
  edited_at: number | null;
  tracks_stored: number;
  boxes_stored: number;
  /** JSON array of track headers (id, label, classId, confidence, color, box count, sparse box extras). */
  tracks: string;
  /** Columnar binary of every box, see detections/run-codec.ts. */
  boxes: Buffer;
}
/**
 * An earlier content of a run (detections/run-delta.ts). `whole` = 1: `tracks`/`boxes` are all of it. Else a reverse
 * delta against revision + 1: the tracks of this revision that differ from or are absent in the next, at their
 * `positions` (JSON array of indexes), and the ids of the tracks the next one `added` (JSON array).
 */
export interface RunRevisionsTable {
  run_pk: string;
  org_id: string;
  revision: number;
  /** When this revision became current. */
  created_at: number;
  edited_by: string | null;
  edited_at: number | null;
  name: string | null;
  task: string;
  schema_version: string;
  source: string;
  original_coordinate_space: string;
  original_box_form: string;
  media: string | null;
  categories: string | null;
  tracks_stored: number;
  boxes_stored: number;
  whole: number;
  positions: string | null;
  added: string | null;
  tracks: string;
  boxes: Buffer;
}
/**
 * Consecutive tracks of a run's content (detections/run-segments.ts): revision 0 is the current content, any other
 * the whole revision of that number. Segments are read in `segment` order.
 */
export interface RunSegmentsTable {
  run_pk: string;
  revision: number;
  segment: number;
  /** How many tracks `tracks` holds: a patch counts positions in the run from these without reading the headers. */
  track_count: number;
  /** JSON array of the segment's track headers, as runs.tracks. */
  tracks: string;
  /** The segment's boxes, as runs.boxes. */
  boxes: Buffer;
}
/**
 * Which current segment (run_segments, revision 0) holds each track of a run in segments: a patch finds the segments
 * of the tracks it changes here. No rows for a run whose boxes are one blob.
 */
export interface RunTrackSegmentsTable {
  run_pk: string;
  track_id: string;
  segment: number;
}
/**
 * One row per (run, label, segment): the centroids of that label's tracks in one current segment, so that a patch
 * rewrites the rows of the segments it writes only. A run whose boxes are one blob has one row per label (segment 0).
 */
export interface RunCentroidsTable {
  run_pk: string;
  recording_id: string;
  org_id: string;
  label: string;
  segment: Generated<number>;
  count: number;
  /** float64 pairs ordered by grid row; rowK_start = index of the first point in grid row K (search/point-rows.ts). */
  points: Buffer;
  /**
   * The frame of each point (float64, in the points' order). Null only for a row an instance older than migration
   * 012 wrote during a rolling upgrade; the migration rebuilt every row before it.
   */
  frames: Buffer | null;
  /** Grid cells (8×8, see search/grid.ts) holding the points: rows 0–3 and rows 4–7 as 32-bit masks. */
  cells_lo: Generated<number>;
  cells_hi: Generated<number>;
  row1_start: Generated<number>;
  row2_start: Generated<number>;
  row3_start: Generated<number>;
  row4_start: Generated<number>;
  row5_start: Generated<number>;
  row6_start: Generated<number>;
  row7_start: Generated<number>;
}
/** Per recording and label ('' = every label): the union of its runs' cell masks, for region search. */
export interface RecordingLabelCellsTable {
  recording_id: string;
  org_id: string;
  label: string;
  start_timestamp: number;
  cells_lo: number;
  cells_hi: number;
  centroid_count: number;
}
export interface StorageProvidersTable {
  id: string;
  org_id: string | null;
  name: string;
  type: string;
  settings: string;
  secret: string | null;
  enabled: number;
  created_at: number;
  updated_at: number;
}
export interface StorageAccountsTable {
  id: string;
  org_id: string | null;
  name: string;
  access_key: string;
  secret_hash: string;
  secret_salt: string;
  default_provider: string;
  providers: string;
  directories: string;
  enabled: number;
  created_at: number;
  updated_at: number;
}
/** An evaluation and its background job (evaluation/jobs.ts); JSON columns are text. */
export interface EvaluationsTable {
  id: string;
  org_id: string;
  status: 'running' | 'complete' | 'failed';
  plan: string;
  used_runs: string;
  results: string | null;
  frames: string | null;
  error: string | null;
  created_at: number;
  completed_at: number | null;
  /** The instance computing it; null once it is done. */
  lease_owner: string | null;
  lease_expires_at: number;
  attempts: number;
}
export interface EvaluationRecordingsTable {
  evaluation_id: string;
  org_id: string;
  media_key: string;
  created_at: number;
}

export interface AuditLogTable {
  id: string;
  org_id: string | null;
  at: number;
  actor_kind: string;
  actor_id: string | null;
  actor_name: string | null;
  address: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  target_name: string | null;
  /** JSON object of what changed; never a secret. */
  details: string;
}
export interface InvitationsTable {
  id: string;
  org_id: string;
  user_id: string;
  token_hash: string;
  expires_at: number;
  redeemed_at: number | null;
  created_at: number;
}

export interface Database {
  organisations: OrganisationsTable;
  users: UsersTable;
  sessions: SessionsTable;
  access_tokens: AccessTokensTable;
  login_failures: LoginFailuresTable;
  recordings: RecordingsTable;
  runs: RunsTable;
  run_revisions: RunRevisionsTable;
  run_segments: RunSegmentsTable;
  run_track_segments: RunTrackSegmentsTable;
  run_centroids: RunCentroidsTable;
  recording_label_cells: RecordingLabelCellsTable;
  storage_providers: StorageProvidersTable;
  storage_accounts: StorageAccountsTable;
  evaluations: EvaluationsTable;
  evaluation_recordings: EvaluationRecordingsTable;
  audit_log: AuditLogTable;
  invitations: InvitationsTable;
}
