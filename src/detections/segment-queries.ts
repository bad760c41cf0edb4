// The queries of a run's segments (run-segments.ts): reading their track counts, the track index and their boxes,
// writing the segments a change touches with the index, and the statements both run writers share to hand segments
// to a kept revision and to drop them with it.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { decodeBoxes, encodeBoxes, joinBoxes, type BoxFormat } from './run-codec.js';
import { runOf, tracksOf, type TrackSlice } from './run-delta.js';
import { joinTrackHeaders, touchedSegments, type SegmentChange, type SegmentCount } from './run-segments.js';
import type { TrackHeader } from './run-types.js';

type Db = Kysely<Database>;

/** Revision 0 of run_segments: the run's current content. */
export const CURRENT = 0;

/** The current segments and their track counts, in order; none when the run's boxes are still one blob in its row. */
export async function readSegmentCounts(db: Db, runPk: string): Promise<SegmentCount[]> {
  const rows = await db
    .selectFrom('run_segments')
    .select(['segment', 'track_count'])
    .where('run_pk', '=', runPk)
    .where('revision', '=', CURRENT)
    .orderBy('segment', 'asc')
    .execute();
  return rows.map((r) => ({ segment: r.segment, tracks: r.track_count }));
}

/** Ids per lookup: well under both dialects' limits on bound parameters. */
const IDS_PER_LOOKUP = 1000;

/** The current segment of each of `ids` the run holds (the track index); ids it lacks are absent. */
export async function locateTracks(db: Db, runPk: string, ids: string[]): Promise<Map<string, number>> {
  const located = new Map<string, number>();
  for (let i = 0; i < ids.length; i += IDS_PER_LOOKUP) {
    const rows = await db
      .selectFrom('run_track_segments')
      .select(['track_id', 'segment'])
      .where('run_pk', '=', runPk)
      .where('track_id', 'in', ids.slice(i, i + IDS_PER_LOOKUP))
      .execute();
    for (const r of rows) located.set(r.track_id, r.segment);
  }
  return located;
}

/** The tracks of some segments of a revision (0: the current content), by segment number. */
export async function readSegmentTracks(
  db: Db,
  runPk: string,
  revision: number,
  segments: number[],
): Promise<Map<number, TrackSlice[]>> {
  if (segments.length === 0) return new Map();
  const rows = await db
    .selectFrom('run_segments')
    .select(['segment', 'tracks', 'boxes'])
    .where('run_pk', '=', runPk)
    .where('revision', '=', revision)
    .where('segment', 'in', segments)
    .execute();
  return new Map(
    rows.map((r) => [
      r.segment,
      tracksOf({ headers: JSON.parse(r.tracks) as TrackHeader[], columns: decodeBoxes(r.boxes), count: 0 }),
    ]),
  );
}

/** Every segment of a revision joined as one stored body (runs.tracks and runs.boxes as one blob would hold them). */
export async function readJoinedSegments(
  db: Db,
  runPk: string,
  revision: number,
): Promise<{ tracks: string; boxes: Buffer }> {
  const rows = await db
    .selectFrom('run_segments')
    .select(['tracks', 'boxes'])
    .where('run_pk', '=', runPk)
    .where('revision', '=', revision)
    .orderBy('segment', 'asc')
    .execute();
  return joinSegmentRows(rows);
}

export function joinSegmentRows(rows: Array<{ tracks: string; boxes: Uint8Array }>): { tracks: string; boxes: Buffer } {
  return { tracks: joinTrackHeaders(rows.map((r) => r.tracks)), boxes: joinBoxes(rows.map((r) => r.boxes)) };
}

/** Segments per insert: a few MiB of boxes, and six parameters each. */
const SEGMENTS_PER_INSERT = 16;

/** Writes the segments and the track index a change moves, inside the caller's transaction. */
export async function writeSegments(trx: Db, runPk: string, change: SegmentChange, format: BoxFormat): Promise<void> {
  const touched = touchedSegments(change);
  let remove = trx.deleteFrom('run_segments').where('run_pk', '=', runPk).where('revision', '=', CURRENT);
  if (touched) remove = remove.where('segment', 'in', touched);
  if (!touched || touched.length > 0) await remove.execute();
  for (let i = 0; i < change.write.length; i += SEGMENTS_PER_INSERT)
    await trx
      .insertInto('run_segments')
      .values(
        change.write.slice(i, i + SEGMENTS_PER_INSERT).map((w) => {
          const run = runOf(w.tracks);
          return {
            run_pk: runPk,
            revision: CURRENT,
            segment: w.segment,
            track_count: w.tracks.length,
            tracks: JSON.stringify(run.headers),
            boxes: encodeBoxes(run, format),
          };
        }),
      )
      .execute();
  await writeTrackIndex(trx, runPk, change);
}

/** Index rows per insert: three parameters each, under both dialects' limits. */
const INDEX_ROWS_PER_INSERT = 2000;

async function writeTrackIndex(trx: Db, runPk: string, change: SegmentChange): Promise<void> {
  let add: Array<{ id: string; segment: number }>;
  if (change.all) {
    await trx.deleteFrom('run_track_segments').where('run_pk', '=', runPk).execute();
    add = change.write.flatMap((w) => w.tracks.map((t) => ({ id: t.header.id, segment: w.segment })));
  } else {
    const { remove } = change.index;
    for (let i = 0; i < remove.length; i += IDS_PER_LOOKUP)
      await trx
        .deleteFrom('run_track_segments')
        .where('run_pk', '=', runPk)
        .where('track_id', 'in', remove.slice(i, i + IDS_PER_LOOKUP))
        .execute();
    add = change.index.add;
  }
  for (let i = 0; i < add.length; i += INDEX_ROWS_PER_INSERT)
    await trx
      .insertInto('run_track_segments')
      .values(
        add.slice(i, i + INDEX_ROWS_PER_INSERT).map((a) => ({ run_pk: runPk, track_id: a.id, segment: a.segment })),
      )
      .execute();
}

/** Drops the segments of the revisions a cap lets go (at or below `upTo`), inside the caller's transaction. */
export async function pruneSegments(trx: Db, runPk: string, upTo: number): Promise<void> {
  await trx
    .deleteFrom('run_segments')
    .where('run_pk', '=', runPk)
    .where('revision', '>', CURRENT)
    .where('revision', '<=', upTo)
    .execute();
}

/**
 * SQLite writer: before a replace, the current segments become those of the revision it keeps (their run's current
 * revision number), as the runs row's own columns are copied into run_revisions.
 */
export const SQLITE_KEEP_SEGMENTS = `update run_segments set revision = (select r.revision from runs r where r.id = run_segments.run_pk)
  where revision = ${CURRENT} and run_pk = (select id from runs where recording_id = @recording_id and run_id = @run_id)`;
export const SQLITE_PRUNE_SEGMENTS = `delete from run_segments where run_pk = ? and revision > ${CURRENT} and revision <= ?`;
/** A replace by POST stores the run as one blob again: the track index of its former segments goes. */
export const SQLITE_DROP_TRACK_INDEX = 'delete from run_track_segments where run_pk = ?';
