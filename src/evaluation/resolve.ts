// From a POST /evaluations body to its plan: the recordings, and per recording the ground-truth run and each
// prediction's run, in the caller's organisation only. Every 404 and 409 of the route is decided here, before
// anything is stored.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { holdsNul } from '../db/unstorable-text.js';
import { findRunsByRunId, type SummaryRow } from '../detections/queries.js';
import { ApiError } from '../http/problem.js';
import { type Recording, resolveTarget } from '../recordings/queries.js';
import type { PlannedSequence, Plan, RunRef } from './plan.js';
import { type CandidateRun, runSummariesOf } from './queries.js';
import { type EvaluationRequest, MAX_RECORDINGS, type RunChoice, type Selector } from './request-body.js';

type Db = Kysely<Database>;

const refOf = (row: SummaryRow): RunRef => ({
  pk: row.id,
  runId: row.run_id,
  updatedAt: row.updated_at,
  version: row.version,
});

const describe = (s: Selector) =>
  `source.name "${s.sourceName}"${s.sourceVersion === undefined ? '' : ` and source.version "${s.sourceVersion}"`}`;

function matches(row: SummaryRow, s: Selector): boolean {
  let source: Record<string, unknown>;
  try {
    source = JSON.parse(row.source) as Record<string, unknown>;
  } catch {
    return false;
  }
  if (source.name !== s.sourceName) return false;
  return s.sourceVersion === undefined || (source.version !== undefined && String(source.version) === s.sourceVersion);
}

/** The newest run (by updatedAt, then createdAt, then runId) of the recording with that producer. */
function newest(rows: readonly SummaryRow[], s: Selector): SummaryRow | undefined {
  let best: SummaryRow | undefined;
  for (const row of rows) {
    if (!matches(row, s)) continue;
    if (
      !best ||
      row.updated_at > best.updated_at ||
      (row.updated_at === best.updated_at &&
        (row.created_at > best.created_at || (row.created_at === best.created_at && row.run_id > best.run_id)))
    )
      best = row;
  }
  return best;
}

async function recordingByKey(db: Db, orgId: string, target: { mediaKey?: string; analysisId?: string }) {
  const name = target.mediaKey ?? target.analysisId!;
  const recording = holdsNul(name) ? undefined : await resolveTarget(db, orgId, target);
  if (!recording) {
    const what = target.mediaKey !== undefined ? 'mediaKey' : 'analysisId';
    throw new ApiError(404, 'recording_not_found', `No recording with ${what} "${name}"`);
  }
  return recording;
}

function sequenceOf(
  recording: Pick<Recording, 'id' | 'mediaKey' | 'frameCount' | 'width' | 'height'>,
  groundTruth: SummaryRow,
  predictions: Array<SummaryRow | undefined>,
): PlannedSequence {
  return {
    mediaKey: recording.mediaKey,
    recordingId: recording.id,
    frameCount: recording.frameCount,
    width: recording.width,
    height: recording.height,
    groundTruth: refOf(groundTruth),
    predictions: predictions.map((p) => (p ? refOf(p) : null)),
  };
}

/** One recording: runIds are looked up on it (a groundTruth runId alone names its recording), selectors too. */
async function onOneRecording(
  db: Db,
  orgId: string,
  request: EvaluationRequest,
  target: { mediaKey?: string; analysisId?: string },
): Promise<PlannedSequence> {
  let recording: Recording;
  let gt: SummaryRow | undefined;
  if (target.mediaKey !== undefined || target.analysisId !== undefined) {
    recording = await recordingByKey(db, orgId, target);
  } else {
    // Only a groundTruth runId: its run decides the recording, with the 404/409 rules of GET /detections/{runId}.
    const runId = request.groundTruth as string;
    const rows = await findRunsByRunId(db, orgId, runId);
    if (rows.length === 0) throw new ApiError(404, 'run_not_found', `No run "${runId}"`);
    if (rows.length > 1)
      throw new ApiError(
        409,
        'ambiguous_run_id',
        `runId "${runId}" exists on several recordings; add mediaKey to choose one`,
        { mediaKeys: rows.map((r) => r.media_key) },
      );
    gt = rows[0]!;
    recording = await recordingByKey(db, orgId, { mediaKey: gt.media_key });
  }
  const rows = await runSummariesOf(db, orgId, { recordingIds: [recording.id] });
  const pick = (choice: RunChoice, role: string): SummaryRow | undefined => {
    if (typeof choice === 'string') {
      const row = rows.find((r) => r.run_id === choice);
      if (!row)
        throw new ApiError(404, 'run_not_found', `No run "${choice}" on recording "${recording.mediaKey}" (${role})`);
      return row;
    }
    return newest(rows, choice);
  };
  gt ??= pick(request.groundTruth, 'groundTruth');
  if (!gt) {
    throw new ApiError(
      404,
      'run_not_found',
      `No ground-truth run with ${describe(request.groundTruth as Selector)} on recording "${recording.mediaKey}"`,
    );
  }
  return sequenceOf(
    recording,
    gt,
    request.predictions.map((p, i) => pick(p, `predictions[${i}]`)),
  );
}

export async function resolvePlan(db: Db, orgId: string, request: EvaluationRequest): Promise<Plan> {
  const base = { parameters: request.parameters, predictions: request.predictions };
  const choice = request.recordings;
  if (choice.kind === 'one') return { ...base, sequences: [await onOneRecording(db, orgId, request, choice)] };

  const gtSelector = request.groundTruth as Selector;
  const predictions = request.predictions as Selector[];
  const recordings: Array<Pick<Recording, 'id' | 'mediaKey' | 'frameCount' | 'width' | 'height'>> = [];
  let rows: CandidateRun[];
  if (choice.kind === 'keys') {
    for (const mediaKey of choice.mediaKeys) recordings.push(await recordingByKey(db, orgId, { mediaKey }));
    rows = await runSummariesOf(db, orgId, { recordingIds: recordings.map((r) => r.id) });
  } else {
    rows = await runSummariesOf(db, orgId, choice.kind === 'filter' ? choice : {});
    // Every recording (of the filter, or of the organisation) with a ground-truth run, oldest first.
    const seen = new Set<string>();
    for (const r of rows) {
      if (seen.has(r.recording_id) || !matches(r, gtSelector)) continue;
      seen.add(r.recording_id);
      recordings.push({
        id: r.recording_id,
        mediaKey: r.media_key,
        frameCount: r.frame_count,
        width: r.width,
        height: r.height,
      });
    }
  }
  const byRecording = new Map<string, SummaryRow[]>();
  for (const row of rows) {
    const list = byRecording.get(row.recording_id);
    if (list) list.push(row);
    else byRecording.set(row.recording_id, [row]);
  }
  const sequences: PlannedSequence[] = [];
  for (const recording of recordings) {
    const runs = byRecording.get(recording.id) ?? [];
    const gt = newest(runs, gtSelector);
    if (!gt) {
      // Named recordings must each have one; a filter or the whole organisation takes the ones that do.
      if (choice.kind === 'keys')
        throw new ApiError(
          404,
          'run_not_found',
          `No ground-truth run with ${describe(gtSelector)} on recording "${recording.mediaKey}"`,
        );
      continue;
    }
    sequences.push(
      sequenceOf(
        recording,
        gt,
        predictions.map((p) => newest(runs, p)),
      ),
    );
  }
  if (sequences.length === 0)
    throw new ApiError(404, 'run_not_found', `No recording chosen has a ground-truth run with ${describe(gtSelector)}`);
  if (sequences.length > MAX_RECORDINGS)
    throw new ApiError(
      400,
      'invalid_field',
      `${sequences.length} recordings have a ground-truth run: one evaluation covers at most ${MAX_RECORDINGS}; narrow it with recordings`,
      { field: 'recordings' },
    );
  return { ...base, sequences };
}
