// Where a JSON text stops being JSON (RFC 8259), for the problem of a malformed body: JSON.parse says where only for
// some mistakes ("Unexpected token '}', … is not valid JSON" names no position). Run only on a body JSON.parse
// refused, so it may be plain; iterative, so that no nesting overflows the stack.

export interface TextPosition {
  /** 1-based line (lines end at LF). */
  line: number;
  /** 1-based column, in characters (code points) of that line. */
  column: number;
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;

/** The UTF-16 offset of the first character that cannot continue the JSON text (the length when it ends early). */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const n = text.length;
  const skip = () => {
    while (i < n && WS.has(text.charCodeAt(i))) i++;
  };
  /** Reads a string at i (which is a quote); false when it is broken, i then at the fault. */
  const string = (): boolean => {
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return true;
      }
      if (c < 0x20) return false;
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            i += 2;
            return false;
          }
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else {
          i++;
          return false;
        }
      } else i++;
    }
    return false;
  };
  /** Reads one scalar, or opens a container (pushed on `stack`); false at a fault. */
  const stack: string[] = [];
  const value = (): boolean => {
    skip();
    const c = text[i];
    if (c === '"') return string();
    if (c === '{' || c === '[') {
      stack.push(c);
      i++;
      return true;
    }
    for (const re of [NUMBER, LITERAL]) {
      re.lastIndex = i;
      if (re.test(text)) {
        i = re.lastIndex;
        return true;
      }
    }
    return false;
  };
  // A small state machine: after a value, a container expects `,` or its close; after `{` or `,` in an object, a key.
  if (!value()) return i;
  let justOpened = stack.length > 0;
  while (stack.length > 0) {
    skip();
    const top = stack[stack.length - 1];
    const close = top === '{' ? '}' : ']';
    if (text[i] === close && justOpened) {
      stack.pop();
      i++;
      justOpened = false;
      continue;
    }
    if (!justOpened) {
      if (text[i] === close) {
        stack.pop();
        i++;
        continue;
      }
      if (text[i] !== ',') return i;
      i++;
    }
    if (top === '{') {
      skip();
      if (text[i] !== '"' || !string()) return i;
      skip();
      if (text[i] !== ':') return i;
      i++;
    }
    const depth = stack.length;
    if (!value()) return i;
    justOpened = stack.length > depth;
  }
  skip();
  return i;
}

/** The line and column of a UTF-16 offset in `text`. */
export function positionAt(text: string, offset: number): TextPosition {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return { line, column: [...text.slice(lineStart, offset)].length + 1 };
}
