// The queries of a run's segments (run-segments.ts): reading their headers and boxes, writing the segments a change
// touches, and the statements both run writers share to hand segments to a kept revision and to drop them with it.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { decodeBoxes, encodeBoxes, joinBoxes, type BoxFormat } from './run-codec.js';
import { runOf, tracksOf, type TrackSlice } from './run-delta.js';
import { joinTrackHeaders, type SegmentHeaders, type SegmentWrite } from './run-segments.js';
import type { TrackHeader } from './run-types.js';

type Db = Kysely<Database>;

/** Revision 0 of run_segments: the run's current content. */
export const CURRENT = 0;

/** The current segments' track headers, in order; none when the run's boxes are still one blob in its row. */
export async function readSegmentHeaders(db: Db, runPk: string): Promise<SegmentHeaders[]> {
  const rows = await db
    .selectFrom('run_segments')
    .select(['segment', 'tracks'])
    .where('run_pk', '=', runPk)
    .where('revision', '=', CURRENT)
    .orderBy('segment', 'asc')
    .execute();
  return rows.map((r) => ({ segment: r.segment, headers: JSON.parse(r.tracks) as TrackHeader[] }));
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

/**
 * Replaces the current segments `write` and `drop` name (every current segment when `all`) by the segments
 * written, inside the caller's transaction.
 */
export async function writeSegments(
  trx: Db,
  runPk: string,
  change: { write: SegmentWrite[]; drop: number[]; all: boolean },
  format: BoxFormat,
): Promise<void> {
  const gone = [...change.write.map((w) => w.segment), ...change.drop];
  let remove = trx.deleteFrom('run_segments').where('run_pk', '=', runPk).where('revision', '=', CURRENT);
  if (!change.all) remove = remove.where('segment', 'in', gone);
  if (change.all || gone.length > 0) await remove.execute();
  if (change.write.length === 0) return;
  await trx
    .insertInto('run_segments')
    .values(
      change.write.map((w) => {
        const run = runOf(w.tracks);
        return {
          run_pk: runPk,
          revision: CURRENT,
          segment: w.segment,
          tracks: JSON.stringify(run.headers),
          boxes: encodeBoxes(run, format),
        };
      }),
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
