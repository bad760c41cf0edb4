// A stored run read as one version: its summary row and its body are two reads.
import { ApiError } from '../http/problem.js';
import type { SummaryRow } from './queries.js';
import type { RunBody } from './run-body-reader.js';

/**
 * The run's body with a summary of the same write. They are two reads (the body goes out as binary COPY on
 * PostgreSQL), and a replacement between them kept the run's id: the old summary then went out with the new tracks
 * (counts, name and source of one version, tracks of another). A body of another version re-reads the summary.
 * Undefined when the run is gone meanwhile.
 */
export async function readConsistentRun(
  readBody: (runPk: string) => Promise<RunBody | undefined>,
  row: SummaryRow,
  again: () => Promise<SummaryRow | undefined>,
): Promise<{ row: SummaryRow; body: RunBody } | undefined> {
  let summary: SummaryRow | undefined = row;
  for (let attempt = 0; summary; attempt++) {
    const body = await readBody(summary.id);
    if (!body) return undefined;
    if (body.version === summary.version) return { row: summary, body };
    if (attempt === 4)
      throw new ApiError(
        503,
        'service_unavailable',
        'The run kept changing while it was read; send the request again',
        {},
        { 'Retry-After': '1' },
      );
    summary = await again();
  }
  return undefined;
}
