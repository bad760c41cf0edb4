// Which waiting run writes go into the next batch, and what each of them answers. Pure: the queue
// (run-write-queue.ts) does the waiting and the writers do the I/O.
//
// Writes of one (recording, runId) key that wait together form a group. Only the group's last write is
// stored: applied one after another in one transaction, every earlier one would be replaced before anyone
// could read it, so the store ends the same, and each request still gets its own answer (the first one learns
// whether it created the run, the rest replaced it).

export interface Keyed {
  key: string;
}

export interface BatchPick<T extends Keyed> {
  /** One group per key, in the order their first write arrived; within a group, arrival order. */
  groups: T[][];
  /** What stays waiting, in arrival order. */
  rest: T[];
}

/**
 * Up to `maxKeys` groups from the waiting writes, oldest key first. A key that is being written (`busy`)
 * waits for that write to finish, so writes of one key are stored in arrival order.
 */
export function pickBatch<T extends Keyed>(
  waiting: readonly T[],
  busy: ReadonlySet<string>,
  maxKeys: number,
): BatchPick<T> {
  const byKey = new Map<string, T[]>();
  const rest: T[] = [];
  for (const write of waiting) {
    const group = byKey.get(write.key);
    if (group) group.push(write);
    else if (busy.has(write.key) || byKey.size >= maxKeys) rest.push(write);
    else byKey.set(write.key, [write]);
  }
  return { groups: [...byKey.values()], rest };
}

export interface StoredRun {
  created: boolean;
  runPk: string;
}

/** Each write's answer once its group's last write is stored: only the first can have created the run. */
export function answersOf(groupSize: number, stored: StoredRun): StoredRun[] {
  return Array.from({ length: groupSize }, (_, i) => (i === 0 ? stored : { created: false, runPk: stored.runPk }));
}
