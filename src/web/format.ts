// Small display helpers.
export function when(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

export function isoShort(iso: string): string {
  return iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

export function pct(value: number): string {
  return `${Math.round(value * 100)}%`;
}

/** `#/recording/<mediaKey>` and friends. */
export function route(): { name: string; arg: string } {
  const hash = location.hash.replace(/^#\/?/, '');
  const slash = hash.indexOf('/');
  if (slash < 0) return { name: hash || 'recordings', arg: '' };
  return { name: hash.slice(0, slash), arg: decodeURIComponent(hash.slice(slash + 1)) };
}

export function go(name: string, arg = ''): void {
  location.hash = arg ? `#/${name}/${encodeURIComponent(arg)}` : `#/${name}`;
}
