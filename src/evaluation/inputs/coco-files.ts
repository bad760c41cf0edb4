/**
 * A COCO instances file and a COCO results file (`[{image_id, category_id, bbox, score}]`) into the engine's input,
 * read as pycocotools' `COCO` and `loadRes` read them: the ground truth's own `area` and `iscrowd`, every image and
 * category of the instances file, and results only on images the instances file has.
 */
import type { CocoInput } from '../coco.js';
import { InputError } from './input-error.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON.parse with the failure's line: V8 says `at position N`, which is turned into a line number. */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const message = (err as Error).message;
    const at = /position (\d+)/.exec(message);
    const line = at ? text.slice(0, Number(at[1])).split('\n').length : undefined;
    throw new InputError(file, line, `not valid JSON (${message.replace(/ in JSON at position \d+.*$/, '')})`);
  }
}

function num(file: string, where: string, value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new InputError(file, undefined, `${where}: ${what} must be a number`);
  return value;
}

function bbox(file: string, where: string, value: unknown): number[] {
  if (!Array.isArray(value) || value.length !== 4 || value.some((v) => typeof v !== 'number' || !Number.isFinite(v)))
    throw new InputError(file, undefined, `${where}: bbox must be [x, y, width, height]`);
  return value as number[];
}

function list(file: string, body: Obj, key: string): Obj[] {
  const value = body[key];
  if (!Array.isArray(value)) throw new InputError(file, undefined, `"${key}" must be an array`);
  value.forEach((v, i) => {
    if (!isObj(v)) throw new InputError(file, undefined, `${key}[${i}] must be an object`);
  });
  return value as Obj[];
}

export interface CocoFilesInput {
  input: CocoInput;
  /** Each category's `name` (its id as text when it has none), in the order of `input.categoryIds`. */
  categoryNames: string[];
}

export function cocoEvaluationInput(
  instancesText: string,
  instancesFile: string,
  resultsText: string,
  resultsFile: string,
): CocoFilesInput {
  const gtBody = parseJsonText(instancesText, instancesFile);
  if (!isObj(gtBody))
    throw new InputError(
      instancesFile,
      1,
      'a COCO instances file is an object with images, categories and annotations',
    );
  const images = list(instancesFile, gtBody, 'images').map((im, i) => num(instancesFile, `images[${i}]`, im.id, 'id'));
  const categoryList = list(instancesFile, gtBody, 'categories');
  const categories = categoryList.map((c, i) => num(instancesFile, `categories[${i}]`, c.id, 'id'));
  const categoryNames = categoryList.map((c, i) => (typeof c.name === 'string' ? c.name : String(categories[i])));
  const anns = list(instancesFile, gtBody, 'annotations');
  const imageSet = new Set(images);
  const gt: CocoInput['gt'] = {
    imageIds: new Int32Array(anns.length),
    categoryIds: new Int32Array(anns.length),
    boxes: new Float64Array(anns.length * 4),
    areas: new Float64Array(anns.length),
    isCrowd: new Uint8Array(anns.length),
    ids: new Float64Array(anns.length),
  };
  anns.forEach((a, i) => {
    const where = `annotations[${i}]`;
    const box = bbox(instancesFile, where, a.bbox);
    gt.imageIds[i] = num(instancesFile, where, a.image_id, 'image_id');
    gt.categoryIds[i] = num(instancesFile, where, a.category_id, 'category_id');
    gt.boxes.set(box, i * 4);
    // pycocotools reads the file's own area; a file without one gets w·h rather than a failure.
    gt.areas[i] = a.area === undefined ? box[2]! * box[3]! : num(instancesFile, where, a.area, 'area');
    gt.isCrowd[i] = a.iscrowd ? 1 : 0;
    gt.ids[i] = num(instancesFile, where, a.id, 'id');
  });

  const dtBody = parseJsonText(resultsText, resultsFile);
  if (!Array.isArray(dtBody))
    throw new InputError(resultsFile, 1, 'a COCO results file is an array of {image_id, category_id, bbox, score}');
  const dt: CocoInput['dt'] = {
    imageIds: new Int32Array(dtBody.length),
    categoryIds: new Int32Array(dtBody.length),
    boxes: new Float64Array(dtBody.length * 4),
    scores: new Float64Array(dtBody.length),
  };
  dtBody.forEach((r: unknown, i) => {
    const where = `[${i}]`;
    if (!isObj(r)) throw new InputError(resultsFile, undefined, `${where} must be an object`);
    const image = num(resultsFile, where, r.image_id, 'image_id');
    // loadRes refuses results on images the ground truth does not have.
    if (!imageSet.has(image))
      throw new InputError(resultsFile, undefined, `${where}: image_id ${image} is not an image of ${instancesFile}`);
    dt.imageIds[i] = image;
    dt.categoryIds[i] = num(resultsFile, where, r.category_id, 'category_id');
    dt.boxes.set(bbox(resultsFile, where, r.bbox), i * 4);
    dt.scores[i] = num(resultsFile, where, r.score, 'score');
  });
  return { input: { imageIds: images, categoryIds: categories, gt, dt }, categoryNames };
}
