/** The evaluation domain's pure core: metrics equal to TrackEval's and pycocotools' figures. */
export { type Assignment, linearSumAssignment } from './assignment.js';
export * from './clear.js';
export * from './coco.js';
export * from './count.js';
export {
  evaluate,
  type EvaluateOptions,
  type EvaluationResult,
  type MetricName,
  type SequenceResult,
} from './evaluate.js';
export { type Fields, type MetricResults, toFields } from './fields.js';
export * from './hota.js';
export * from './identity.js';
export { cocoIou, trackEvalIou } from './iou.js';
export { type BoxSet, boxSetFromRows, classAgnostic, emptyBoxSet, filterBoxSet, type SequenceInput } from './layout.js';
export { MOT_CLASSES, type MotBenchmark, preprocessMotChallenge } from './mot-challenge.js';
export { classTrackingData, type TrackingData, trackingData } from './tracking-data.js';
export { sequencesToCoco } from './video-coco.js';
