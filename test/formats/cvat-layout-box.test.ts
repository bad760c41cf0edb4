import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCvatBox } from '../../src/formats/cvat-layout-box.js';
import { newPlainBox, readPlainBox, type PlainBox } from '../../src/formats/cvat-plain-box.js';

/** What a box reader answers for bytes[0, cut): the end it returns, and the box when it read one. */
function answer(read: typeof readPlainBox, bytes: Buffer, cut: number): { end: number; box?: PlainBox } {
  const out = newPlainBox();
  const end = read(bytes, 0, cut, out);
  return end >= 0 ? { end, box: out } : { end };
}

const number = fc.oneof(
  fc.double({ min: -5000, max: 5000, noNaN: true }).map(String),
  fc.double({ min: 0, max: 5000, noNaN: true }).map((v) => v.toFixed(2)),
  fc.constantFrom('1e5', '-3', '+2', '.5', '5.', '', 'NaN', '1.2.3', '0', '-0', '00012.50', '1234567890123456789'),
);
/** CVAT's own values mostly (one digit), and the ones it never writes. */
const small = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('0', '1', '9') },
  { weight: 1, arbitrary: fc.constantFrom('10', '', 'a', '-1') },
);
const frame = fc.oneof(fc.nat().map(String), fc.constantFrom('007', '123456789012345', '1234567890123456', 'x', ''));
const space = fc.constantFrom('\n    ', '', ' ', '\r\n\t', '\n\n');
const ending = fc.constantFrom(
  '>\n    </box>',
  '/>',
  '></box>',
  '>',
  '></box >',
  ' />',
  '></bx>',
  '>\n<attribute name="a">x</attribute>\n</box>',
);

/** A box as CVAT lays it out, with any of its values or its end changed. */
const layoutBox = fc
  .record({ space, frame, keyframe: small, outside: small, occluded: small, xtl: number, ytl: number })
  .chain((a) =>
    fc
      .record({ xbr: number, ybr: number, zOrder: small, ending })
      .map(
        (b) =>
          `${a.space}<box frame="${a.frame}" keyframe="${a.keyframe}" outside="${a.outside}" occluded="${a.occluded}" ` +
          `xtl="${a.xtl}" ytl="${a.ytl}" xbr="${b.xbr}" ybr="${b.ybr}" z_order="${b.zOrder}"${b.ending}`,
      ),
  );

describe('readCvatBox', () => {
  it("gives readPlainBox's answer for any box in CVAT's layout, changed, mutated or cut short", () => {
    fc.assert(
      fc.property(
        layoutBox,
        fc.option(fc.nat(), { freq: 2 }),
        fc.option(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 127 })), { freq: 2 }),
        (text, cutAt, mutation) => {
          const bytes = Buffer.from(`${text}\n<box frame="1"/>`, 'latin1');
          if (mutation) bytes[mutation[0] % bytes.length] = mutation[1];
          const cut = cutAt === null ? bytes.length : cutAt % (bytes.length + 1);
          expect(answer(readCvatBox, bytes, cut)).toEqual(answer(readPlainBox, bytes, cut));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('answers as readPlainBox wherever the bytes are cut', () => {
    for (const end of ['/>', '>\n    </box>', '></box>']) {
      const text = `\n  <box frame="3" keyframe="1" outside="0" occluded="0" xtl="1.5" ytl="2" xbr="3.25" ybr="4" z_order="-1"${end}`;
      const bytes = Buffer.from(`${text} <`);
      for (let cut = 0; cut <= bytes.length; cut++) {
        expect(answer(readCvatBox, bytes, cut), text.slice(0, cut)).toEqual(answer(readPlainBox, bytes, cut));
      }
    }
  });

  it('reads a box as CVAT writes it, and counts its line feeds', () => {
    const text =
      '\n    <box frame="12" keyframe="1" outside="1" occluded="0" xtl="1.50" ytl="2.00" xbr="30.25" ybr="4.00" z_order="0">\n    </box>\n';
    const got = answer(readCvatBox, Buffer.from(text), text.length);
    expect(got).toEqual({
      end: text.length - 1,
      box: { frame: 12, outside: true, xtl: 1.5, ytl: 2, xbr: 30.25, ybr: 4, lines: 2 },
    });
  });
});
