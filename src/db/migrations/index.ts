// The one ordered migration set; each runs on both dialects through ColumnTypes.
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../column-types.js';
import * as m001 from './001_initial.js';
import * as m003 from './003_recordings_search.js';
import * as m002 from './002_storage.js';
import * as m004 from './004_recording_duration.js';
import * as m005 from './005_login_sliding_window.js';
import * as m006 from './006_recordings_device_order.js';
import * as m007 from './007_runs_inline_small_rows.js';
import * as m008 from './008_evaluations.js';
import * as m009 from './009_run_revisions.js';
import * as m010 from './010_administration.js';
import * as m011 from './011_login_throttle_by_address.js';
import * as m012 from './012_centroid_frames.js';
import * as m013 from './013_run_segments.js';
import * as m014 from './014_segment_track_index.js';

export interface MigrationModule {
  up(db: Kysely<any>, t: ColumnTypes): Promise<void>;
}

export const migrations: Record<string, MigrationModule> = {
  '001_initial': m001,
  '003_recordings_search': m003,
  '002_storage': m002,
  '004_recording_duration': m004,
  '005_login_sliding_window': m005,
  '006_recordings_device_order': m006,
  '007_runs_inline_small_rows': m007,
  '008_evaluations': m008,
  '009_run_revisions': m009,
  '010_administration': m010,
  '011_login_throttle_by_address': m011,
  '012_centroid_frames': m012,
  '013_run_segments': m013,
  '014_segment_track_index': m014,
};
