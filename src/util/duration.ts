// Durations as the storage spec defines them: integer seconds, or number+unit pairs (s, m, h, d).

/** Seconds per unit letter, by character code; 0 for anything else. */
function unitSeconds(code: number): number {
  switch (code) {
    case 0x73:
      return 1; // s
    case 0x6d:
      return 60; // m
    case 0x68:
      return 3600; // h
    case 0x64:
      return 86_400; // d
    default:
      return 0;
  }
}

/**
 * Seconds for `90`, `"90"`, `30m`, `1h30m`, `7d`; undefined when unparsable, whitespace included (a request's
 * `" 1h"` is not a duration; settings trim their own values). Bounds are the caller's.
 * One pass over the characters: every storage URL request with a lifetime header comes through here.
 */
export function parseDuration(input: string | number): number | undefined {
  if (typeof input === 'number') return Number.isSafeInteger(input) ? input : undefined;
  const text = input;
  let total = 0;
  let amount = 0;
  let digits = 0;
  let pairs = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x30 && code <= 0x39) {
      amount = amount * 10 + (code - 0x30);
      digits++;
      continue;
    }
    const unit = unitSeconds(code);
    if (unit === 0 || digits === 0) return undefined;
    total += amount * unit;
    amount = 0;
    digits = 0;
    pairs++;
  }
  // Plain digits are seconds; after a unit, trailing digits without one (`1h30`) are not a duration.
  if (digits > 0) {
    if (pairs > 0) return undefined;
    total = amount;
  } else if (pairs === 0) {
    return undefined;
  }
  return Number.isSafeInteger(total) ? total : undefined;
}
