// Durations as the storage spec defines them: integer seconds, or number+unit pairs (s, m, h, d).
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };
const DURATION = /^(?:\d+[smhd])+$/;

/** Seconds for `90`, `"90"`, `30m`, `1h30m`, `7d`; undefined when unparsable. Bounds are the caller's. */
export function parseDuration(input: string | number): number | undefined {
  if (typeof input === 'number') return Number.isSafeInteger(input) ? input : undefined;
  const text = input.trim();
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  if (!DURATION.test(text)) return undefined;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+)([smhd])/g)) total += Number(amount) * UNIT_SECONDS[unit!]!;
  return Number.isSafeInteger(total) ? total : undefined;
}
