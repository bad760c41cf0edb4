/**
 * COCO on video: every frame of every sequence is one image (numbered sequence after sequence, so pycocotools'
 * image order is the frame order), the categories are the classes (class index + 1), a prediction's score is its
 * confidence, and areas are w·h in pixels.
 */
import type { CocoInput } from './coco.js';
import type { SequenceInput } from './layout.js';

export function sequencesToCoco(sequences: readonly SequenceInput[], classCount: number): CocoInput {
  let nGt = 0;
  let nDt = 0;
  let nImages = 0;
  for (const s of sequences) {
    nGt += s.gt.ids.length;
    nDt += s.pred.ids.length;
    nImages += s.numFrames;
  }
  const input: CocoInput = {
    imageIds: Int32Array.from({ length: nImages }, (_, k) => k + 1),
    categoryIds: Int32Array.from({ length: classCount }, (_, k) => k + 1),
    gt: {
      imageIds: new Int32Array(nGt),
      categoryIds: new Int32Array(nGt),
      boxes: new Float64Array(nGt * 4),
      areas: new Float64Array(nGt),
      isCrowd: new Uint8Array(nGt),
      ids: new Float64Array(nGt),
    },
    dt: {
      imageIds: new Int32Array(nDt),
      categoryIds: new Int32Array(nDt),
      boxes: new Float64Array(nDt * 4),
      scores: new Float64Array(nDt),
    },
  };
  let image = 0;
  let g = 0;
  let d = 0;
  for (const s of sequences) {
    for (let t = 0; t < s.numFrames; t++) {
      image++;
      for (let k = s.gt.frameStart[t]!; k < s.gt.frameStart[t + 1]!; k++, g++) {
        input.gt.imageIds[g] = image;
        input.gt.categoryIds[g] = s.gt.classes[k]! + 1;
        for (let c = 0; c < 4; c++) input.gt.boxes[g * 4 + c] = s.gt.boxes[k * 4 + c]!;
        input.gt.areas[g] = s.gt.boxes[k * 4 + 2]! * s.gt.boxes[k * 4 + 3]!;
        // Ids from 1: pycocotools reads a match with annotation id 0 as no match.
        input.gt.ids[g] = g + 1;
      }
      for (let k = s.pred.frameStart[t]!; k < s.pred.frameStart[t + 1]!; k++, d++) {
        input.dt.imageIds[d] = image;
        input.dt.categoryIds[d] = s.pred.classes[k]! + 1;
        for (let c = 0; c < 4; c++) input.dt.boxes[d * 4 + c] = s.pred.boxes[k * 4 + c]!;
        input.dt.scores[d] = s.pred.confidences[k]!;
      }
    }
  }
  return input;
}
