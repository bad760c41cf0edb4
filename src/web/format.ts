// Small display helpers.
export function when(unixSeconds: number): string {
  return new Date(unixSeconds * 1000)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
}

export function isoShort(iso: string): string {
  return iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

export function pct(value: number): string {
  return `${Math.round(value * 100)}%`;
}

/** `#/recording/<mediaKey>` and friends; a hash that does not decode (`%E0%A4%A`) is the route `malformed`. */
export function route(hash = location.hash): { name: string; arg: string; frame?: number } {
  const full = hash.replace(/^#\/?/, '');
  // `?frame=N` after the recording's key opens it at that frame (a key's own `?` is encoded as %3F).
  const q = full.indexOf('?');
  const path = q < 0 ? full : full.slice(0, q);
  const frame = q < 0 ? Number.NaN : Number(new URLSearchParams(full.slice(q + 1)).get('frame') ?? Number.NaN);
  const at = Number.isInteger(frame) && frame >= 0 ? { frame } : {};
  const slash = path.indexOf('/');
  if (slash < 0) return { name: path || 'recordings', arg: '' };
  try {
    return { name: path.slice(0, slash), arg: decodeURIComponent(path.slice(slash + 1)), ...at };
  } catch {
    return { name: 'malformed', arg: '' };
  }
}

let unsaved: (() => boolean) | undefined;

/** The open view tells whether leaving it would lose work (undefined: nothing to lose). */
export function guardLeaving(hasUnsaved: (() => boolean) | undefined): void {
  unsaved = hasUnsaved;
}

/** Whether the open view holds work that leaving would lose (asks nobody). */
export function hasUnsavedWork(): boolean {
  return unsaved?.() === true;
}

/** True when nothing would be lost, or the user agrees to lose it (then the hash change that follows does not ask again). */
export function mayLeave(): boolean {
  if (!unsaved?.()) return true;
  if (!confirm('Some layers have unsaved corrections. Leave and lose them?')) return false;
  unsaved = undefined;
  return true;
}

/** The link that opens a recording in the editor, at `frame` when it is given and past the first frame. */
export function recordingHref(mediaKey: string, frame?: number | null): string {
  return `#/recording/${encodeURIComponent(mediaKey)}${frame ? `?frame=${frame}` : ''}`;
}

export function go(name: string, arg = ''): void {
  location.hash = arg ? `#/${name}/${encodeURIComponent(arg)}` : `#/${name}`;
}
