// Who may change a recording's rows on PostgreSQL: run writers share a per-recording advisory lock, a recording's
// delete takes it alone. Row locks alone starve the delete: run writers keep taking key-share locks on the
// recording's row, each compatible with the last, and a waiting FOR UPDATE never gets its turn (a delete waited
// 30 s and more under a steady stream of posts). The advisory lock queue is fair: once the delete waits, writers
// that come later wait behind it, and those before it finish.
import { sql, type RawBuilder } from 'kysely';

const key = (recordingId: RawBuilder<unknown> | string) => sql`hashtext('recording-gate:' || ${recordingId})`;

/**
 * The writers' side, folded into their key-share select of the recordings (one statement, no extra round trip): the
 * gates of all its recordings, in the order given (sorted, so that batches cannot deadlock), before any row lock.
 */
export function lockRecordingsForWrite(recordingIds: string[]): RawBuilder<{ id: string }> {
  return sql<{ id: string }>`select r.id from recordings r
    where r.id = any(${recordingIds}::text[])
      and (select count(*) from (select pg_advisory_xact_lock_shared(${key(sql.ref('g'))}) from unnest(${recordingIds}::text[]) g) gates) >= 0
    for key share of r`;
}

/** The delete's side: alone, before it locks the recording's row. */
export function lockRecordingForDelete(recordingId: string): RawBuilder<unknown> {
  return sql`select pg_advisory_xact_lock(${key(recordingId)})`;
}
