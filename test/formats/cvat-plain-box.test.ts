import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INCOMPLETE, NOT_PLAIN, newPlainBox, readPlainBox } from '../../src/formats/cvat-plain-box.js';
import { cvatVideoReader } from '../../src/formats/cvat-video.js';
import { FormatError } from '../../src/formats/format-error.js';
import type { ReadResult } from '../../src/formats/types.js';

const plain = (text: string, at = 0) => {
  const out = newPlainBox();
  const end = readPlainBox(Buffer.from(text), at, Buffer.byteLength(text), out);
  return { end, out };
};

describe('readPlainBox', () => {
  it('reads an empty box or one closed at once, after white space, and counts its line feeds', () => {
    const a =
      '\n    <box frame="12" keyframe="1" outside="0" occluded="0" xtl="1.5" ytl="2" xbr="30.25" ybr="4e1" z_order="0">\n    </box>\nrest';
    expect(plain(a)).toEqual({
      end: a.indexOf('\nrest'),
      out: { frame: 12, outside: false, xtl: 1.5, ytl: 2, xbr: 30.25, ybr: 40, lines: 2 },
    });
    const near = '<box frame="6" xtr="9" xtl="1" ytl="2" xbr="3" ybr="4" ybl="8" frams="1" outsidE="1" ztl="5"/>';
    expect(plain(near)).toEqual({
      end: near.length,
      out: { frame: 6, outside: false, xtl: 1, ytl: 2, xbr: 3, ybr: 4, lines: 0 },
    });
    const b = "<box ybr='4' xbr='3' ytl='2' xtl='1' frame='7' outside='1'/>";
    expect(plain(b)).toEqual({
      end: b.length,
      out: { frame: 7, outside: true, xtl: 1, ytl: 2, xbr: 3, ybr: 4, lines: 0 },
    });
  });

  it('leaves to the tokenizer what it does not take for certain', () => {
    const box = (attrs: string, rest = '/>') => `<box frame="1" xtl="1" ytl="2" xbr="3" ybr="4"${attrs}${rest}`;
    for (const text of [
      box(' label="a&amp;b"'), // a reference
      box(' label="a\tb"'), // white space the tokenizer normalises
      box(' label="é"'), // not ASCII
      box(' occluded="0" occluded="1"'), // a repeated attribute
      box(' xtl="5"'), // a repeated field
      box('', '><attribute name="color">red</attribute></box>'), // a child element
      box(' z_order = "0"'), // spaces around =
      box('', '></track>'), // the wrong end tag
      '<box frame="1.0" xtl="1" ytl="2" xbr="3" ybr="4"/>', // a frame that is not an unsigned integer
      '<box frame="-1" xtl="1" ytl="2" xbr="3" ybr="4"/>',
      '<box frame="1" xtl=" 1" ytl="2" xbr="3" ybr="4"/>', // a padded number
      '<box frame="1" xtl="1" ytl="2" xbr="3"/>', // a missing coordinate
      '<box frame="1" xtl="1" ytl="2" xbr="3" ybr="1e400"/>', // not finite
      '<boxes frame="1"/>',
      '<polygon frame="1" points="1,2;3,4"/>',
      '</track>',
    ]) {
      expect(plain(text).end, text).toBe(NOT_PLAIN);
    }
  });

  it('waits for more bytes when they end inside the box', () => {
    const text = '<box frame="1" xtl="1" ytl="2" xbr="3" ybr="4"></box>';
    for (let cut = 0; cut < text.length; cut++) {
      expect(readPlainBox(Buffer.from(text), 0, cut, newPlainBox()), text.slice(0, cut)).toBe(INCOMPLETE);
    }
    expect(plain(text).end).toBe(text.length);
  });
});

/** What a reader gives for a document, or the error it throws, in a form toEqual compares. */
function outcome(doc: Buffer, chunk: number, plainBoxes: boolean) {
  const reader = cvatVideoReader({ frameSize: { width: 100, height: 100 } }, { plainBoxes });
  try {
    for (let at = 0; at < doc.length; at += chunk) reader.write(doc.subarray(at, at + chunk));
    const result: ReadResult = reader.end();
    const positions = result.run.tracks.map((t, i) =>
      Array.from({ length: (t.boxes as { length?: number }).length ?? 0 }, (_, b) => result.positionOf(i, b)),
    );
    return {
      result: { run: result.run, malformed: result.malformed, skipped: result.skipped, positions },
      meta: reader.meta,
    };
  } catch (err) {
    if (!(err instanceof FormatError)) throw err;
    return { error: err.message, position: err.position };
  }
}

/** Pieces of a CVAT track's body: plain boxes, and everything the byte path must leave to the tokenizer. */
const boxPiece = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({
        frame: fc.nat(50),
        x: fc.double({ min: 0, max: 90, noNaN: true }),
        outside: fc.boolean(),
        closed: fc.boolean(),
        space: fc.constantFrom('\n    ', ' ', '\r\n  ', ''),
      })
      .map(
        ({ frame, x, outside, closed, space }) =>
          `${space}<box frame="${frame}" keyframe="1" outside="${outside ? 1 : 0}" occluded="0" xtl="${x}" ytl="${x / 2}" xbr="${x + 5}" ybr="${x + 1.25}" z_order="0"${closed ? '/>' : '>\n    </box>'}`,
      ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '\n<box frame="3" xtl="1" ytl="2" xbr="3" ybr="4"><attribute name="color">red</attribute></box>',
      '\n<box frame="x" xtl="1" ytl="2" xbr="3" ybr="4"/>',
      '\n<box frame="3" xtl="a" ytl="2" xbr="3" ybr="4"/>',
      '\n<box frame="4" xtl=" 1 " ytl="2" xbr="3" ybr="4" label="&lt;é&gt;"/>',
      '\n<!-- <box frame="9" xtl="1" ytl="2" xbr="3" ybr="4"/> -->',
      '\n<polygon frame="2" points="1,2;3,4" outside="0"/>',
      '<box frame="5" xtl="1" ytl="2" xbr="3" ybr="4" xtl="1"/>',
      '<box frame="5" xtl="1" ytl="2" xbr="3" ybr="4"></bx>',
      '<box frame="5" xtl="1" ytl="2" xbr="3" ybr="4">',
      '<![CDATA[<box frame="1"/>]]>',
      // Names one letter from a field's: other attributes, never the field.
      '\n<box frame="6" xtr="9" xtl="1" ytl="2" xbr="3" ybr="4" ybl="8" frams="1" outsidE="1" ztl="5"/>',
      '\n<box frame="6" xtr="1" ytl="2" xbr="3" ybr="4"/>',
      '\n<box frame="6" xtl="1" ytl="2" xbl="3" ybr="4"/>',
      '\n<box frame="6" xtl="1" ytl="2" xbr="3" ybr="4" outsida="1"/>',
      ' text & more',
    ),
  },
);

const document = fc
  .tuple(
    fc.array(fc.tuple(fc.constantFrom('car', 'person', 'a&amp;b', 'vélo'), fc.array(boxPiece, { maxLength: 8 })), {
      minLength: 1,
      maxLength: 5,
    }),
    fc.boolean(),
  )
  .map(([tracks, truncate]) => {
    let text =
      '\uFEFF<?xml version="1.0" encoding="utf-8"?>\n<annotations>\n<version>1.1</version>\n<meta><task>' +
      '<original_size><width>100</width><height>100</height></original_size></task></meta>\n';
    tracks.forEach(([label, pieces], t) => {
      text += `<track id="${t}" label="${label}" source="manual">${pieces.join('')}\n</track>\n`;
    });
    text += '</annotations>\n';
    const bytes = Buffer.from(text);
    return truncate ? bytes.subarray(0, Math.floor(bytes.length * 0.9)) : bytes;
  });

describe('cvat-video reader, boxes read from bytes', () => {
  it('gives what the tokenizer alone gives: the same run, rejections, positions, errors and lines', () => {
    fc.assert(
      fc.property(document, fc.integer({ min: 1, max: 300 }), (doc, chunk) => {
        expect(outcome(doc, chunk, true)).toEqual(outcome(doc, chunk, false));
      }),
      { numRuns: 300 },
    );
  });

  it('takes the plain boxes of a file as CVAT writes it', () => {
    const boxes = Array.from(
      { length: 100 },
      (_, f) =>
        `    <box frame="${f}" keyframe="1" outside="0" occluded="0" xtl="1.00" ytl="2.00" xbr="3.00" ybr="4.00" z_order="0">\n    </box>\n`,
    );
    const doc = Buffer.from(
      `<annotations>\n  <track id="0" label="car" source="manual">\n${boxes.join('')}  </track>\n</annotations>\n`,
    );
    const reader = cvatVideoReader({ frameSize: { width: 10, height: 10 } });
    for (let at = 0; at < doc.length; at += 1000) reader.write(doc.subarray(at, at + 1000));
    expect(reader.end().run.tracks[0]!.boxes).toHaveLength(100);
    expect(reader.boxesReadFromBytes).toBe(100);
  });
});
