// The top-level members of a run that anything reads (validate-run.ts): every other member is ignored (spec §4.3),
// and the body parser passes over it without building it. A new member of the run must be added here, and so must
// the members of the other bodies this parser reads (PATCH /detections/{runId}: `baseRevision` and `tracks`).
export const RUN_MEMBERS: ReadonlySet<string> = new Set([
  'schemaVersion',
  'mediaKey',
  'analysisId',
  'task',
  'name',
  'source',
  'coordinateSpace',
  'media',
  'categories',
  'tracks',
  'baseRevision',
]);
