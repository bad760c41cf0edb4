// Object keys as the spec defines them; pure. A key that passes here can never name a path outside a root.
const MAX_BYTES = 1024;
// C0, DEL and C1 controls: invisible in logs and dangerous in headers.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * True for a key made of printable ASCII but "\\", with no empty, "." or ".." segment and not starting with "/", at
 * most MAX_BYTES long: a valid key, found in one pass over its characters (a bulk call checks a thousand).
 */
function plainValidKey(name: string): boolean {
  const n = name.length;
  if (n === 0 || n > MAX_BYTES) return false;
  let segmentStart = 0;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? name.charCodeAt(i) : 0x2f;
    if (c === 0x2f) {
      const length = i - segmentStart;
      if (length === 0) return false;
      if (
        length <= 2 &&
        name.charCodeAt(segmentStart) === 0x2e &&
        (length === 1 || name.charCodeAt(segmentStart + 1) === 0x2e)
      )
        return false;
      segmentStart = i + 1;
    } else if (c < 0x20 || c > 0x7e || c === 0x5c) {
      return false;
    }
  }
  return true;
}

/** Why the key is invalid, or undefined when it is a valid object key. */
export function filenameProblem(name: string): string | undefined {
  if (plainValidKey(name)) return undefined;
  if (name.length === 0) return 'the filename is empty';
  if (/\p{Cs}/u.test(name)) return 'the filename is not valid UTF-8';
  if (Buffer.byteLength(name, 'utf8') > MAX_BYTES) return `the filename is longer than ${MAX_BYTES} bytes`;
  if (CONTROL.test(name)) return 'the filename contains a control character';
  if (name.startsWith('/')) return 'the filename starts with "/"';
  if (name.includes('\\')) return 'the filename contains "\\"';
  for (const segment of name.split('/')) {
    if (segment === '') return 'the filename has an empty path segment';
    if (segment === '.' || segment === '..') return `the filename has a "${segment}" path segment`;
  }
  return undefined;
}

/** The top-level directory of a key ("" for a key at the root), which account directory rules match. */
export function topLevelDirectory(name: string): string {
  const slash = name.indexOf('/');
  return slash < 0 ? '' : name.slice(0, slash);
}

export function directoryAllowed(directories: readonly string[], name: string): boolean {
  if (directories.includes('*')) return true;
  const top = topLevelDirectory(name);
  return top !== '' && directories.includes(top);
}

/** Header values reach Node as latin1; clients send UTF-8 bytes. Undefined when the bytes are not UTF-8. */
export function headerToUtf8(value: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(value)) return value;
  const bytes = Buffer.from(value, 'latin1');
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : undefined;
}
