// The per-recording, per-label aggregate of run centroid masks (recording_label_cells), computed from its parts.
// Pure: both writers (Kysely and the SQLite prepared-statement path) build their rows here.
import { ANY_LABEL, EMPTY_MASK, union, type CellMask } from './grid.js';

export interface LabelCells {
  label: string;
  mask: CellMask;
  count: number;
}

export interface LabelCellsRow {
  recording_id: string;
  org_id: string;
  label: string;
  start_timestamp: number;
  cells_lo: number;
  cells_hi: number;
  centroid_count: number;
}

/** Every part counted under its own label and under ANY_LABEL: masks OR-ed, counts summed. */
export function labelCellRows(
  recording: { id: string; orgId: string; startTimestamp: number },
  parts: LabelCells[],
): LabelCellsRow[] {
  const byLabel = new Map<string, { mask: CellMask; n: number }>();
  for (const p of parts) {
    for (const label of [ANY_LABEL, p.label]) {
      const a = byLabel.get(label) ?? { mask: EMPTY_MASK, n: 0 };
      byLabel.set(label, { mask: union(a.mask, p.mask), n: a.n + p.count });
    }
  }
  return [...byLabel].map(([label, a]) => ({
    recording_id: recording.id,
    org_id: recording.orgId,
    label,
    start_timestamp: recording.startTimestamp,
    cells_lo: a.mask.lo,
    cells_hi: a.mask.hi,
    centroid_count: a.n,
  }));
}

/**
 * How the aggregate follows runs whose centroids went from `removed` to `added`: OR-merged in place (with the
 * removed counts subtracted) when no cell the old run had is gone, else recomputed from every run of the recording.
 */
export function cellChange(removed: LabelCells[], added: LabelCells[]): { merge: LabelCells[] } | 'recompute' {
  // Several runs of one recording may change together (a batch): a label's cells are the union of theirs.
  const now = new Map<string, CellMask>();
  for (const a of added) now.set(a.label, union(now.get(a.label) ?? EMPTY_MASK, a.mask));
  const keepsEveryCell = removed.every((r) => {
    const mask = now.get(r.label);
    return mask !== undefined && (r.mask.lo & ~mask.lo) >>> 0 === 0 && (r.mask.hi & ~mask.hi) >>> 0 === 0;
  });
  if (!keepsEveryCell) return 'recompute';
  return { merge: [...added, ...removed.map((r) => ({ label: r.label, mask: EMPTY_MASK, count: -r.count }))] };
}

/** A stored centroid row's label, mask and count (drivers may hand bigint columns back as strings). */
export function labelCellsOf(row: {
  label: string;
  cells_lo: number | string | bigint;
  cells_hi: number | string | bigint;
  count: number | string | bigint;
}): LabelCells {
  return { label: row.label, mask: { lo: Number(row.cells_lo), hi: Number(row.cells_hi) }, count: Number(row.count) };
}
