// Node keeps the first of some repeated headers (Host, Authorization…) and drops the rest; whether a request sent
// one twice is only in its raw headers.

/** How many times a header came, by its lower-case name. */
export function headerCount(rawHeaders: string[], lowerCaseName: string): number {
  let n = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === lowerCaseName.length && name.toLowerCase() === lowerCaseName) n++;
  }
  return n;
}
