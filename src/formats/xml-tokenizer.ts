// A strict, streaming tokenizer for the XML that annotation tools write: elements, attributes, text, CDATA (as
// text), the five predefined entities and character references. Comments, processing instructions and the XML
// declaration are skipped; a DOCTYPE is refused (no DTD means no other entity can be defined). Written for speed:
// saxes, a general parser, read a 31 MiB CVAT file at about 40 MB/s of CPU, most of an import's time.

export class XmlError extends Error {
  constructor(
    message: string,
    /** The line (from 1) where the problem was found. */
    readonly line: number,
  ) {
    super(message);
    this.name = 'XmlError';
  }
}

export interface XmlHandler {
  /** `attributes` alternates names and values, in the order written. */
  open(name: string, attributes: readonly string[]): void;
  close(name: string): void;
  /** Character data inside the root element, entities decoded; one text may come in several pieces. */
  text(text: string): void;
}

/** XML 1.0 NameStartChar and NameChar (built from text: the class holds combining marks on purpose). */
const NAME_START =
  ':A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
const NAME = new RegExp(`^[${NAME_START}][${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040]*$`, 'u');
/** Characters XML 1.0 does not allow anywhere in a document (TextDecoder never yields lone surrogates). */
const FORBIDDEN = /[\0-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/;
const ENTITY = /&([^;&]*);|&/g;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

const LT = 60;
const GT = 62;
const SLASH = 47;
const EQ = 61;
const QUOT = 34;
const APOS = 39;

const AMP = 38;
/** ASCII characters in names: START may begin one, PART only follow, STOP ends it (space, '/', '>'), 0 others. */
const START = 1;
const PART = 2;
const STOP = 3;
const NAME_CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[:A-Z_a-z]/.test(ch)) NAME_CHAR[c] = START;
  else if (/[-.0-9]/.test(ch)) NAME_CHAR[c] = PART;
  else if (/[ \t\r\n/>]/.test(ch)) NAME_CHAR[c] = STOP;
}

/** The value of an attribute in an `open` list, or undefined. */
export function attributeOf(attributes: readonly string[], name: string): string | undefined {
  for (let k = 0; k < attributes.length; k += 2) if (attributes[k] === name) return attributes[k + 1];
  return undefined;
}

/** The character after a name: white space, '=', '/' or '>'. */
const isNameEnd = (c: number) => c === EQ || (c < 128 && NAME_CHAR[c] === STOP);

const isSpace = (c: number) => c === 32 || c === 10 || c === 9 || c === 13;

/** Tokens that the buffer ends inside of: wait for more input. */
const MORE = -1;

export class XmlTokenizer {
  /** The line of the token being read (or of the end of the input, once it is all read). */
  line = 1;
  private buf = '';
  private pos = 0;
  private readonly stack: string[] = [];
  private state: 'prolog' | 'root' | 'epilog' = 'prolog';
  private readonly names = new Set<string>();
  private atStart = true;
  /** The attribute names of the last start tag, by place (a name was checked once before it is kept here). */
  private readonly lastAttributes: string[] = [];
  /** The next '\n' in buf at or after the last counted position (-1: none; -2: not looked for yet). */
  private nl = -2;

  constructor(private readonly handler: XmlHandler) {}

  /** Everything written so far has been read (no token waits for more input). */
  get idle(): boolean {
    return this.pos >= this.buf.length;
  }

  write(chunk: string): void {
    const bad = FORBIDDEN.exec(chunk);
    if (bad !== null) {
      const before = this.buf.slice(this.pos) + chunk.slice(0, bad.index);
      this.fail(`The character U+${bad[0].charCodeAt(0).toString(16).padStart(4, '0')} is not allowed in XML`, before);
    }
    this.buf = this.pos < this.buf.length ? this.buf.slice(this.pos) + chunk : chunk;
    this.pos = 0;
    this.nl = -2;
    // A concatenation is a rope; reading it char by char is several times slower than reading a flat string.
    flatten(this.buf);
    this.run(false);
  }

  /** The input is complete: anything left open is an error. */
  close(): void {
    this.run(true);
    if (this.pos < this.buf.length) this.fail('The document ends inside a tag, comment or CDATA section');
    if (this.state === 'prolog') this.fail('The document has no root element');
    if (this.stack.length > 0) this.fail(`The document ends before </${this.stack[this.stack.length - 1]}>`);
  }

  private fail(message: string, upTo?: string): never {
    throw new XmlError(message, this.line + (upTo === undefined ? 0 : countLines(upTo, 0, upTo.length)));
  }

  private run(final: boolean): void {
    const s = this.buf;
    const n = s.length;
    let p = this.pos;
    while (p < n) {
      if (s.charCodeAt(p) !== LT) {
        p = this.readText(s, p, final);
        if (p === MORE) return;
        continue;
      }
      const next = p + 1 < n ? s.charCodeAt(p + 1) : MORE;
      let end: number;
      if (next === SLASH) end = this.readEndTag(s, p);
      else if (next === 33 /* ! */) end = this.readMarkup(s, p);
      else if (next === 63 /* ? */) end = this.readPi(s, p);
      else if (next === MORE) end = MORE;
      else end = this.readStartTag(s, p);
      if (end === MORE) return;
      this.atStart = false;
      this.countTo(s, end);
      p = end;
      this.pos = p;
    }
    this.pos = p;
  }

  /** Text up to the next '<' (or what can be emitted of it); returns where it stopped, MORE to wait. */
  private readText(s: string, p: number, final: boolean): number {
    let end = s.indexOf('<', p);
    let stop = end;
    if (end === -1) {
      if (final) {
        end = s.length;
        stop = end;
      } else {
        // Emit what cannot change: not a reference, a "]]" or a "\r" that the next chunk may complete.
        end = s.length;
        const amp = s.lastIndexOf('&');
        if (amp >= p && s.indexOf(';', amp) === -1) end = amp;
        while (end > p && (s.charCodeAt(end - 1) === 93 || s.charCodeAt(end - 1) === 13)) end--;
        if (end === p) return MORE;
        stop = end;
      }
    }
    let text = s.slice(p, end);
    if (this.state !== 'root') {
      if (!/^[ \t\r\n]*$/.test(text)) this.fail('Text outside the root element');
      if (text.length > 0) this.atStart = false;
    } else {
      if (text.includes(']]>')) this.fail('"]]>" is not allowed in text');
      // Line ends are normalised before references are decoded: "&#xd;" is a carriage return that stays.
      if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
      if (text.includes('&')) text = this.decode(text);
      this.handler.text(text);
    }
    this.countTo(s, end);
    this.pos = stop;
    return stop;
  }

  private readStartTag(s: string, p: number): number {
    const n = s.length;
    let q = p + 1;
    let ascii = NAME_CHAR[s.charCodeAt(q)] === START;
    while (q < n) {
      const c = s.charCodeAt(q);
      const kind = c < 128 ? NAME_CHAR[c]! : 0;
      if (kind === STOP) break;
      if (kind === 0) ascii = false;
      q++;
    }
    if (q >= n) return MORE;
    const name = this.name(s.slice(p + 1, q), ascii);
    if (this.state === 'epilog') this.fail(`A second root element <${name}>`);
    const attributes: string[] = [];
    for (;;) {
      let spaced = false;
      while (q < n && isSpace(s.charCodeAt(q))) {
        q++;
        spaced = true;
      }
      if (q >= n) return MORE;
      const c = s.charCodeAt(q);
      if (c === GT || c === SLASH) {
        if (c === SLASH) {
          if (q + 1 >= n) return MORE;
          if (s.charCodeAt(q + 1) !== GT) this.fail(`Expected ">" after "/" in <${name}>`, s.slice(p, q));
        }
        this.state = 'root';
        this.stack.push(name);
        this.handler.open(name, attributes);
        if (c === SLASH) this.closeElement(name);
        return c === SLASH ? q + 2 : q + 1;
      }
      if (!spaced) this.fail(`Expected whitespace between the attributes of <${name}>`, s.slice(p, q));
      // Elements of one kind repeat their attributes in one order: the name at this place in the last tag is
      // tried first, which saves scanning the name and allocating it again for every box of a file.
      const slot = attributes.length >> 1;
      const known = this.lastAttributes[slot];
      let attribute: string;
      if (
        known !== undefined &&
        s.startsWith(known, q) &&
        q + known.length < n &&
        isNameEnd(s.charCodeAt(q + known.length))
      ) {
        attribute = known;
        q += known.length;
      } else {
        const start = q;
        ascii = NAME_CHAR[c] === START;
        while (q < n) {
          const d = s.charCodeAt(q);
          const kind = d < 128 ? NAME_CHAR[d]! : 0;
          if (kind === STOP || d === EQ) break;
          if (kind === 0) ascii = false;
          q++;
        }
        if (q >= n) return MORE;
        attribute = this.name(s.slice(start, q), ascii);
        this.lastAttributes[slot] = attribute;
      }
      while (q < n && isSpace(s.charCodeAt(q))) q++;
      if (q >= n) return MORE;
      if (s.charCodeAt(q) !== EQ) this.fail(`The attribute ${attribute} of <${name}> has no value`, s.slice(p, q));
      q++;
      while (q < n && isSpace(s.charCodeAt(q))) q++;
      if (q >= n) return MORE;
      const quote = s.charCodeAt(q);
      if (quote !== QUOT && quote !== APOS) this.fail(`The value of ${attribute} is not quoted`, s.slice(p, q));
      const close = s.indexOf(quote === QUOT ? '"' : "'", q + 1);
      if (close === -1) return MORE;
      let value = s.slice(q + 1, close);
      // One pass over the value for the characters that need a closer look: < & \t \n \r.
      let special = false;
      for (let k = q + 1; k < close; k++) {
        const d = s.charCodeAt(k);
        if (d === LT || d === AMP || d === 9 || d === 10 || d === 13) {
          special = true;
          break;
        }
      }
      if (special) {
        if (value.includes('<')) this.fail(`"<" in the value of ${attribute}`, s.slice(p, q));
        // White space is normalised before references are decoded: "&#10;" is a line feed that stays.
        value = value.replace(/\r\n|[\t\n\r]/g, ' ');
        if (value.includes('&')) value = this.decode(value, s.slice(p, q));
      }
      for (let k = 0; k < attributes.length; k += 2) {
        if (attributes[k] === attribute) this.fail(`The attribute ${attribute} is repeated`, s.slice(p, q));
      }
      attributes.push(attribute, value);
      q = close + 1;
    }
  }

  private readEndTag(s: string, p: number): number {
    const end = s.indexOf('>', p);
    if (end === -1) return MORE;
    const name = s.slice(p + 2, end).replace(/[ \t\r\n]+$/, '');
    this.name(name);
    const open = this.stack[this.stack.length - 1];
    if (open === undefined) this.fail(`</${name}> closes no element`);
    if (open !== name) this.fail(`</${name}> where </${open}> was expected`);
    this.closeElement(name);
    return end + 1;
  }

  private closeElement(name: string): void {
    this.stack.pop();
    this.handler.close(name);
    if (this.stack.length === 0) this.state = 'epilog';
  }

  /** Comments, CDATA; a DOCTYPE or any other declaration is refused. */
  private readMarkup(s: string, p: number): number {
    if (s.startsWith('<!--', p)) {
      const end = s.indexOf('-->', p + 4);
      if (end === -1) return MORE;
      const body = s.slice(p + 4, end);
      if (body.includes('--') || body.endsWith('-')) this.fail('"--" is not allowed inside a comment');
      return end + 3;
    }
    if (s.startsWith('<![CDATA[', p)) {
      if (this.state !== 'root') this.fail('A CDATA section outside the root element');
      const end = s.indexOf(']]>', p + 9);
      if (end === -1) return MORE;
      const text = s.slice(p + 9, end);
      if (text.length > 0) this.handler.text(text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text);
      return end + 3;
    }
    // Wait until the declaration's keyword is whole before judging it.
    if (s.length - p < 9 && ('<!--'.startsWith(s.slice(p)) || '<![CDATA['.startsWith(s.slice(p)))) return MORE;
    if (s.startsWith('<!DOCTYPE', p)) this.fail('A DOCTYPE is not accepted');
    if (s.length - p < 9 && '<!DOCTYPE'.startsWith(s.slice(p))) return MORE;
    this.fail('Unexpected "<!"');
  }

  private readPi(s: string, p: number): number {
    const end = s.indexOf('?>', p + 2);
    if (end === -1) return MORE;
    const target = /^[^ \t\r\n?]*/.exec(s.slice(p + 2, end))![0];
    this.name(target);
    if (target.toLowerCase() === 'xml' && (target !== 'xml' || !this.atStart))
      this.fail('The XML declaration is only allowed at the very start');
    return end + 2;
  }

  /** Counts the lines up to `end`; positions only grow, so the whole input is scanned for '\n' once. */
  private countTo(s: string, end: number): void {
    if (this.nl === -2) this.nl = s.indexOf('\n', this.pos);
    while (this.nl !== -1 && this.nl < end) {
      this.line++;
      this.nl = s.indexOf('\n', this.nl + 1);
    }
  }

  /** `ascii`: the scan saw only ASCII name characters, a name start first (the common case, checked for free). */
  private name(name: string, ascii = false): string {
    if (ascii) return name;
    if (!this.names.has(name)) {
      if (!NAME.test(name)) this.fail(`"${name}" is not an XML name`);
      this.names.add(name);
    }
    return name;
  }

  /** Entity and character references; any other reference is an error (there is no DTD to define it). */
  private decode(text: string, before = ''): string {
    return text.replace(ENTITY, (whole, ref: string | undefined, offset: number) => {
      if (ref === undefined) this.fail('"&" that starts no reference', before + text.slice(0, offset));
      const known = PREDEFINED[ref];
      if (known !== undefined) return known;
      const m = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(ref);
      const code = m === null ? NaN : m[1] !== undefined ? Number.parseInt(m[1], 16) : Number(m[2]);
      if (!isXmlChar(code)) this.fail(`The reference ${whole} is not defined in XML`, before + text.slice(0, offset));
      return String.fromCodePoint(code);
    });
  }
}

/** Number() reads the whole string, which makes V8 replace a rope by a flat copy in place. */
function flatten(s: string): void {
  Number(s);
}

function isXmlChar(c: number): boolean {
  return (
    c === 9 ||
    c === 10 ||
    c === 13 ||
    (c >= 0x20 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd) ||
    (c >= 0x10000 && c <= 0x10ffff)
  );
}

function countLines(s: string, from: number, to: number): number {
  let lines = 0;
  let i = s.indexOf('\n', from);
  while (i !== -1 && i < to) {
    lines++;
    i = s.indexOf('\n', i + 1);
  }
  return lines;
}
