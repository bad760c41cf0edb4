import fc from 'fast-check';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { XmlError, XmlTokenizer } from '../../src/formats/xml-tokenizer.js';
import { fixture } from './helpers.js';

type Event = ['open', string, [string, string][]] | ['close', string] | ['text', string];

/** Adjacent texts merged: both parsers may cut one text in pieces. */
function push(events: Event[], e: Event): void {
  if (e[0] === 'text' && e[1] === '') return;
  const last = events[events.length - 1];
  if (e[0] === 'text' && last?.[0] === 'text') last[1] += e[1];
  else events.push(e);
}

function tokenize(text: string, chunk = text.length || 1): Event[] {
  const events: Event[] = [];
  const t = new XmlTokenizer({
    open: (name, a) => {
      const pairs: [string, string][] = [];
      for (let k = 0; k < a.length; k += 2) pairs.push([a[k]!, a[k + 1]!]);
      push(events, ['open', name, pairs]);
    },
    close: (name) => push(events, ['close', name]),
    text: (s) => push(events, ['text', s]),
  });
  for (let o = 0; o < text.length; o += chunk) t.write(text.slice(o, o + chunk));
  t.close();
  return events;
}

/** The reference: saxes, with CDATA as text and only what is inside the root. */
function saxes(text: string): Event[] {
  const events: Event[] = [];
  const p = new SaxesParser();
  let depth = 0;
  p.on('error', (err) => {
    throw err;
  });
  p.on('opentag', (tag) => {
    depth++;
    push(events, ['open', tag.name, Object.entries(tag.attributes as Record<string, string>)]);
  });
  p.on('closetag', (tag) => {
    depth--;
    push(events, ['close', tag.name]);
  });
  p.on('text', (s) => {
    if (depth > 0) push(events, ['text', s]);
  });
  p.on('cdata', (s) => push(events, ['text', s]));
  p.write(text);
  p.close();
  return events;
}

const outcome = (f: () => Event[]): { events: Event[] } | 'error' => {
  try {
    return { events: f() };
  } catch {
    return 'error';
  }
};

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const NAMES = ['a', 'box', 'track', 'x:y', '_n', 'é', 'n-1.b', 'größe', '𝒳'];
const name = fc.constantFrom(...NAMES);
// Any character XML allows, and references to them.
const char = fc.oneof(
  fc.constantFrom('a', ' ', '\n', '\t', '\r', '\r\n', '<', '>', '&', '"', "'", ']', ']]>', 'é', '😀', '-'),
  fc.string({ maxLength: 3 }).map((s) => s.replace(/[\0-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF\uD800-\uDFFF]/g, '')),
);
const rawText = fc.array(char, { maxLength: 8 }).map((cs) => cs.join(''));
const reference = fc.constantFrom('&lt;', '&gt;', '&amp;', '&quot;', '&apos;', '&#65;', '&#x1F600;', '&#10;', '&#xd;');
const text = fc.array(fc.oneof(rawText.map(escapeText), reference), { maxLength: 4 }).map((p) => p.join(''));
const attrValue = (q: string) =>
  fc
    .array(
      fc.oneof(
        rawText.map((s) => escapeText(s).replace(new RegExp(q, 'g'), q === '"' ? '&quot;' : '&apos;')),
        reference,
      ),
      { maxLength: 3 },
    )
    .map((p) => p.join(''));
const attributes = fc
  .uniqueArray(name, { maxLength: 4 })
  .chain((names) =>
    fc.tuple(
      ...names.map((n) =>
        fc
          .tuple(fc.constantFrom('"', "'"), fc.constantFrom('', ' ', '\n'))
          .chain(([q, sp]) => attrValue(q).map((v) => ` ${n}${sp}=${sp}${q}${v}${q}`)),
      ),
    ),
  );
const misc = fc.oneof(
  text,
  rawText.map((s) => `<![CDATA[${s.replace(/]]>/g, '')}]]>`),
  rawText.map((s) => `<!--${s.replace(/-/g, '')}-->`),
  fc.constant('<?pi some data?>'),
);
const { element } = fc.letrec<{ element: string }>((tie) => ({
  element: fc
    .tuple(
      name,
      attributes,
      fc.array(fc.oneof({ depthSize: 'small' }, misc, tie('element')), { maxLength: 4 }),
      fc.boolean(),
    )
    .map(([n, a, children, self]) =>
      self && children.length === 0 ? `<${n}${a.join('')}/>` : `<${n}${a.join('')}>${children.join('')}</${n} >`,
    ),
}));
const document = fc
  .tuple(
    fc.boolean(),
    fc.constantFrom('', '\n', '<!-- c -->\n'),
    element,
    fc.constantFrom('', '\n', '<!--e-->', '<?x y?>\n'),
  )
  .map(
    ([decl, before, root, after]) => `${decl ? '<?xml version="1.0" encoding="utf-8"?>' : ''}${before}${root}${after}`,
  );

describe('XmlTokenizer', () => {
  it('gives the events saxes gives on the CVAT fixtures, in chunks of any size', () => {
    for (const file of ['cvat-video-1.1.xml']) {
      const xml = fixture(file).toString('utf8');
      const expected = saxes(xml);
      expect(expected.length).toBeGreaterThan(50);
      for (const size of [1, 7, 100, xml.length]) expect(tokenize(xml, size)).toEqual(expected);
    }
  });

  it('gives the events saxes gives on generated documents, in any chunking', () => {
    fc.assert(
      fc.property(document, fc.integer({ min: 1, max: 40 }), (xml, size) => {
        const expected = saxes(xml);
        expect(tokenize(xml)).toEqual(expected);
        expect(tokenize(xml, size)).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('fails where saxes fails on any prefix of a document, and agrees where neither fails', () => {
    fc.assert(
      fc.property(document, fc.nat(), fc.integer({ min: 1, max: 40 }), (xml, cut, size) => {
        const prefix = xml.slice(0, cut % (xml.length + 1));
        expect(outcome(() => tokenize(prefix, size))).toEqual(outcome(() => saxes(prefix)));
      }),
      { numRuns: 400 },
    );
  });

  it('refuses what XML does not allow, with the line of the problem', () => {
    const fails = (xml: string, message: RegExp, line: number) => {
      try {
        tokenize(xml);
      } catch (err) {
        expect(err).toBeInstanceOf(XmlError);
        expect((err as XmlError).message).toMatch(message);
        expect((err as XmlError).line).toBe(line);
        expect(outcome(() => saxes(xml))).toBe('error');
        return;
      }
      throw new Error(`accepted: ${xml}`);
    };
    fails('<?xml version="1.0"?>\n<!DOCTYPE a [<!ENTITY x "y">]>\n<a>&x;</a>', /DOCTYPE/, 2);
    fails('<a>\n&x;</a>', /not defined/, 2);
    fails('<a>\n<b>\n</a>', /<\/a> where <\/b>/, 3);
    fails('<a b="1"\n b="2"/>', /repeated/, 2);
    fails('<a b="<"/>', /"<"/, 1);
    fails('<a>&#0;</a>', /not defined/, 1);
    fails('<a>a & b</a>', /"&"/, 1);
    fails('<a/><b/>', /second root/, 1);
    fails('<a>\n\n', /ends before <\/a>/, 3);
    fails('<a>]]></a>', /]]>/, 1);
    fails('<a><!-- a -- b --></a>', /--/, 1);
    fails('x<a/>', /outside the root/, 1);
    fails('<a>\u0001</a>', /U\+0001/, 1);
    fails('<a b=1/>', /not quoted/, 1);
    fails('\n<a/><?xml version="1.0"?>', /XML declaration/, 2);
  });
});
