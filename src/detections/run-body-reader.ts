// Reads a run's stored body: the track headers and the box blob.
import { copyOutFirstRow } from '../db/pg-binary-copy.js';
import type { Store } from '../db/store.js';

/** `version` counts the run's writes: a body belongs to the summary of the same version. */
export interface RunBody {
  tracks: string;
  boxes: Uint8Array;
  version: number;
}

export async function readRunBody(store: Store, runPk: string): Promise<RunBody | undefined> {
  if (store.pgPool) {
    const row = await copyOutFirstRow(
      store.pgPool,
      (literal) => `SELECT tracks, boxes, version FROM runs WHERE id = ${literal(runPk)}`,
    );
    // Binary COPY: an integer column is 4 bytes, big-endian.
    return row && { tracks: row[0]!.toString('utf8'), boxes: row[1]!, version: row[2]!.readInt32BE(0) };
  }
  return store.db.selectFrom('runs').select(['tracks', 'boxes', 'version']).where('id', '=', runPk).executeTakeFirst();
}
