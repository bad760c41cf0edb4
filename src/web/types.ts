// The API shapes the editor reads (see the detections contract §4.7 and the recordings API), taken from the answers
// in the client's types (generated from the OpenAPI document), so that a change of the API shows here as a type error.
import type { components, paths } from '../client/api.js';

type AnswerData<Operation> = Operation extends {
  responses: { 200: { content: { 'application/json': { data: infer Data } } } };
}
  ? Data
  : never;

export type Run = components['schemas']['Run'];

export type Track = components['schemas']['StoredTrack'];

export type Box = components['schemas']['StoredBox'];

export type RunSource = Run['source'];

export type RunSummary = components['schemas']['RunSummary'];

export type RevisionSummary = components['schemas']['Revision'];

export type RecordingAssets = AnswerData<paths['/recordings/{id}/assets']['get']>;

export type RecordingInfo = RecordingAssets['recording'];

export type AssetUrls = NonNullable<RecordingAssets['assets']>;

export type SessionUser = AnswerData<paths['/login']['post']>['user'];
