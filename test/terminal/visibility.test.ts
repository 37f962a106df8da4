import { createTwoFilesPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderDiff } from '../../src/terminal/diff-view.js';
import { sanitizeLine } from '../../src/terminal/sanitize.js';
import { createStyle, stripAnsi } from '../../src/terminal/style.js';
import { INVISIBLE_CHARS } from '../../src/text/invisible-chars.js';

const plain = createStyle(false);
const color = createStyle(true);

/** The -/+ rows of a one-line change, colour stripped, gutter and sign cut off. */
function changedRows(oldLine: string, newLine: string, style = plain, width = 77): [string, string] {
  const rows = renderDiff(createTwoFilesPatch('a', 'b', `${oldLine}\n`, `${newLine}\n`), style, width).map(
    stripAnsi,
  );
  const body = (r: string) => r.slice(r.search(/[-+]/) + 1);
  const del = rows.find((r) => /^ *\d+ {5,}-/.test(r))!;
  const add = rows.find((r) => /^ {5,}\d+ \+/.test(r))!;
  return [body(del), body(add)];
}

/** What a person can tell apart: trailing blanks are not visible. */
const seen = (s: string) => s.replace(/\s+$/, '');

describe('one visibility rule on screen', () => {
  it.each([
    ['tag characters (ASCII smuggling)', 'ok\u{E0069}\u{E0067}\u{E006E}', 'ok⟨U+E0069⟩⟨U+E0067⟩⟨U+E006E⟩'],
    ['variation selectors', 'a\ufe0fb\u{e0100}', 'a⟨U+FE0F⟩b⟨U+E0100⟩'],
    ['CGJ, ALM, Mongolian vowel separator', '\u034f\u061c\u180e', '⟨U+034F⟩⟨U+061C⟩⟨U+180E⟩'],
    ['Hangul fillers', '\u3164\u115f\uffa0', '⟨U+3164⟩⟨U+115F⟩⟨U+FFA0⟩'],
    ['look-alike spaces', 'a\u00a0b\u2007c\u3000', 'a⟨U+00A0⟩b⟨U+2007⟩c⟨U+3000⟩'],
    ['bidi, ZWSP and escapes (kept)', '\u202e\u200b\u001b[2J', '⟨U+202E⟩⟨U+200B⟩␛[2J'],
  ])('%s are shown as tokens', (_, text, shown) => {
    expect(sanitizeLine(text)).toBe(shown);
    expect(sanitizeLine(text).match(INVISIBLE_CHARS)).toBeNull();
  });

  it('tab → 4 spaces: the rows differ (→ for the tab)', () => {
    expect(changedRows('\treturn x', '    return x')).toEqual(['[-→   -]return x', '{+    +}return x']);
    expect(changedRows('\treturn x', '    return x', color)).toEqual(['→   return x', '    return x']);
  });

  it('a trailing space is shown as · in changed rows, also in an unpaired block', () => {
    expect(changedRows('x = 1', 'x = 1 ')).toEqual(['x = 1', 'x = 1{+·+}']);
    const rows = renderDiff(createTwoFilesPatch('a', 'b', 'a\n', 'a\nb  \nc\n'), plain, 77);
    expect(rows.some((r) => r.endsWith('+b··'))).toBe(true);
  });

  it('property: for any old ≠ new line, the rendered - and + rows differ visibly', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        ' ',
        '  ',
        '\t',
        'a',
        'b',
        '字',
        '\u00a0',
        '\u200b',
        '\u{e0041}',
        '\ufe0f',
        '\u3164',
        '\r',
        '-',
        '+',
      ),
      fc.string({ maxLength: 4 }),
      fc.string({ unit: 'grapheme', maxLength: 3 }),
    );
    const line = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join('').replace(/\n/g, ''));
    fc.assert(
      fc.property(
        line,
        line,
        fc.boolean(),
        fc.constantFrom(40, 77, 200),
        (oldLine, newLine, useColor, width) => {
          fc.pre(oldLine !== newLine);
          const [del, add] = changedRows(oldLine, newLine, useColor ? color : plain, width);
          expect(seen(del)).not.toBe(seen(add));
        },
      ),
      { numRuns: 400 },
    );
  });
});
