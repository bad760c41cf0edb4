// The API shapes the editor reads (see the detections contract §4.7 and the recordings API), taken from the answers
// in the client's types (generated from the OpenAPI document), so that a change of the API shows here as a type error.
import type { paths } from '../client/api.js';

type AnswerData<Operation> = Operation extends {
  responses: { 200: { content: { 'application/json': { data: infer Data } } } };
}
  ? Data
  : never;

export type Run = AnswerData<paths['/detections/{runId}']['get']>;

export type Track = Run['tracks'][number];

export type Box = Track['boxes'][number];

export type RunSource = Run['source'];

export type RunSummary = AnswerData<paths['/detections']['get']>['runs'][number];

export type RevisionSummary = AnswerData<paths['/detections/{runId}/revisions']['get']>['revisions'][number];

export type RecordingAssets = AnswerData<paths['/recordings/{id}/assets']['get']>;

export type RecordingInfo = RecordingAssets['recording'];

export type AssetUrls = NonNullable<RecordingAssets['assets']>;

export type SessionUser = AnswerData<paths['/login']['post']>['user'];
