// Reads a run's stored body: the track headers and the box blob.
import { copyOutFirstRow } from '../db/pg-binary-copy.js';
import type { Store } from '../db/store.js';

export interface RunBody { tracks: string; boxes: Uint8Array }

export async function readRunBody(store: Store, runPk: string): Promise<RunBody | undefined> {
  if (store.pgPool) {
    const row = await copyOutFirstRow(store.pgPool, (literal) => `SELECT tracks, boxes FROM runs WHERE id = ${literal(runPk)}`);
    return row && { tracks: row[0]!.toString('utf8'), boxes: row[1]! };
  }
  return store.db.selectFrom('runs').select(['tracks', 'boxes']).where('id', '=', runPk).executeTakeFirst();
}
