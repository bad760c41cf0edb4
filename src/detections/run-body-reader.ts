// Reads a run's stored body: the track headers and the box blob.
import type { Store } from '../db/store.js';

export interface RunBody { tracks: string; boxes: Uint8Array }

export async function readRunBody(store: Store, runPk: string): Promise<RunBody | undefined> {
  return store.db.selectFrom('runs').select(['tracks', 'boxes']).where('id', '=', runPk).executeTakeFirst();
}
