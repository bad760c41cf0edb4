// A fixed palette: colouring by label or track picks a slot by hash, so a label keeps its colour everywhere.
export const PALETTE = [
  '#ff3b30',
  '#34c759',
  '#0a84ff',
  '#ff9f0a',
  '#bf5af2',
  '#64d2ff',
  '#ffd60a',
  '#ff375f',
  '#30d158',
  '#5e5ce6',
  '#ac8e68',
  '#66d4cf',
] as const;

export function paletteSlot(key: string): number {
  let hash = 2166136261;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 16777619);
  }
  return (hash >>> 0) % PALETTE.length;
}

const labelSlots = new Map<string, number>();
/** Labels take palette slots in the order they are first seen, so the first twelve never share a colour. */
export function labelSlot(label: string): number {
  let slot = labelSlots.get(label);
  if (slot === undefined) {
    slot = labelSlots.size % PALETTE.length;
    labelSlots.set(label, slot);
  }
  return slot;
}
