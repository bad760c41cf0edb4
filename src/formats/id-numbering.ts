// Ids and classes for formats whose ids must be integers: decimal integers stay, the others are numbered after the
// largest of those, in order of first appearance.
import { isIntegerId } from './numbers.js';

/** The written id of each id, in the same order. */
export function integerIds(ids: readonly string[]): number[] {
  let next = 0;
  for (const id of ids) if (isIntegerId(id)) next = Math.max(next, Number(id));
  const numbered = new Map<string, number>();
  return ids.map((id) => {
    if (isIntegerId(id)) return Number(id);
    let n = numbered.get(id);
    if (n === undefined) {
      n = ++next;
      numbered.set(id, n);
    }
    return n;
  });
}

export interface ClassTable {
  /** Class number of a track or box, from its classId when that is an integer, else from its label. */
  numberOf(label: string | undefined, classId: unknown): number | undefined;
  /** Names by class number, for the formats that list them. */
  names: Map<number, string>;
}

/**
 * Class numbers for a run: integer classIds are kept with their label as the name; labels without one are
 * numbered after the largest, in order of first appearance (from 0, as YOLO and COCO count, when there is none).
 */
export function classTable(
  classes: Iterable<{ label?: string | undefined; classId?: unknown }>,
  firstNumber = 0,
): ClassTable {
  const names = new Map<number, string>();
  const byLabel = new Map<string, number>();
  const pending: string[] = [];
  let largest = firstNumber - 1;
  for (const { label, classId } of classes) {
    if (typeof classId === 'number' && Number.isSafeInteger(classId) && classId >= 0) {
      largest = Math.max(largest, classId);
      if (label !== undefined) {
        if (!names.has(classId)) names.set(classId, label);
        if (!byLabel.has(label)) byLabel.set(label, classId);
      }
    } else if (label !== undefined && !pending.includes(label)) {
      pending.push(label);
    }
  }
  for (const label of pending) {
    if (byLabel.has(label)) continue;
    largest++;
    byLabel.set(label, largest);
    names.set(largest, label);
  }
  return {
    names,
    numberOf(label, classId) {
      if (typeof classId === 'number' && Number.isSafeInteger(classId) && classId >= 0) return classId;
      return label === undefined ? undefined : byLabel.get(label);
    },
  };
}
