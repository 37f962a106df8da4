import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitVirtualPath } from '../../src/sandbox/virtual-path.js';
import { renderDiff } from '../../src/terminal/diff-view.js';
import { fitWidth, sanitizeLine } from '../../src/terminal/sanitize.js';
import { createStyle, stripAnsi } from '../../src/terminal/style.js';
import { charWidth, displayWidth } from '../../src/text/display-width.js';
import { findInvisible, isInvisible } from '../../src/text/invisible-chars.js';
import { lookAlikeWarnings, markLookAlikes } from '../../src/text/look-alikes.js';

// The code points issue 22 found outside the old hand list, one of each kind.
const FOUND = [
  0xfff0, 0xfff8, 0xe0080, 0xe00ff, 0xe01f0, 0xe0fff, 0x0378, 0x0600, 0x0605, 0x06dd, 0x070f, 0x08e2, 0x110bd,
  0x13430, 0x1343f,
];

describe('the visibility rule, by Unicode property', () => {
  it.each(
    FOUND.map((c) => [c.toString(16).toUpperCase().padStart(4, '0'), c]),
  )('U+%s is drawn as a token and refused in a path', (_, code) => {
    const ch = String.fromCodePoint(code);
    expect(isInvisible(ch)).toBe(true);
    expect(sanitizeLine(`a${ch}b`)).toBe(`a⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩b`);
    expect(() => splitVirtualPath(`/src/a${ch}b.ts`)).toThrow(/U\+/);
  });

  it('every code point is either drawn as itself by the allowlist or a token (whole range)', () => {
    const ALLOWED = /^[\p{L}\p{M}\p{N}\p{P}\p{S} \t]$/u;
    const BAD = /[\p{Cn}\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;
    let tokens = 0;
    const wrong: string[] = [];
    for (let c = 0; c <= 0x10ffff; c++) {
      const ch = String.fromCodePoint(c);
      const bad = BAD.test(ch) || (/\p{Zs}/u.test(ch) && ch !== ' ') || c === 0x2800;
      const invisible = isInvisible(ch);
      if (ch !== '\t' && invisible !== bad) wrong.push(c.toString(16));
      if (!invisible && !ALLOWED.test(ch)) wrong.push(c.toString(16));
      if (invisible) tokens++;
    }
    expect(wrong).toEqual([]);
    expect(tokens).toBeGreaterThan(900_000); // unassigned and private use are most of the range
  });

  it('the path validator shares the rule (first invisible character found, with its label)', () => {
    expect(findInvisible('ok\u{e0080}x')).toEqual({ char: '\u{e0080}', index: 2 });
    expect(() => splitVirtualPath('/notes\u0378.md')).toThrow(/U\+0378/);
    expect(splitVirtualPath('/src/café.ts')).toEqual(['src', 'café.ts']);
  });
});

describe('look-alike letters', () => {
  it('marks a word mixing scripts and a word of look-alikes, and names them', () => {
    expect(markLookAlikes('раураl.com')).toBe('⟦раура:Cyrillic⟧l.com');
    expect(markLookAlikes('isАdmin')).toBe('is⟦А:Cyrillic⟧dmin');
    expect(markLookAlikes('const а = 1')).toBe('const ⟦а:Cyrillic⟧ = 1');
    expect(markLookAlikes('ｐａｙ')).toBe('⟦ｐａｙ:fullwidth⟧');
    expect(lookAlikeWarnings(['раураl.com'])).toEqual([
      '⚠ mixed scripts: ⟦раура:Cyrillic⟧l (Cyrillic in Latin word)',
    ]);
  });

  it('leaves single-script text alone: Russian, Greek, Japanese, Korean, accented Latin', () => {
    for (const t of ['Привет мир', 'Ελληνικά', '日本語のテキスト', '한국어 텍스트', 'naïve café résumé'])
      expect(markLookAlikes(t)).toBe(t);
  });
});

describe('widths the terminal agrees with', () => {
  it('ambiguous-width characters count two columns (U+3248, →, …)', () => {
    for (const ch of ['\u3248', '\u324f', '→', '…', '│']) expect(charWidth(ch)).toBe(2);
    expect(charWidth('a')).toBe(1);
  });

  const anyText = fc
    .array(
      fc.oneof(
        fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
        fc.constantFrom('\u3248', '字', '\t', 'é', '→', '\u0301'),
      ),
      { maxLength: 200 },
    )
    .map((a) => a.join(''));

  it('a fitted line never exceeds its columns, counting ambiguous characters as wide (1,000 cases)', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 10, max: 120 }), (text, columns) => {
        const fitted = fitWidth(sanitizeLine(text), columns);
        expect(displayWidth(fitted)).toBeLessThanOrEqual(columns);
      }),
      { numRuns: 1000 },
    );
  });

  it('every diff row fits its width, removed/added pairs too (500 cases)', () => {
    fc.assert(
      fc.property(anyText, anyText, fc.integer({ min: 40, max: 120 }), (a, b, width) => {
        const diff = `--- a/x\n+++ b/x\n@@ -1 +1 @@\n-${a.replace(/[\r\n]/g, '')}\n+${b.replace(/[\r\n]/g, '')}\n`;
        for (const color of [true, false])
          for (const row of renderDiff(diff, createStyle(color), width))
            expect(displayWidth(stripAnsi(row))).toBeLessThanOrEqual(width);
      }),
      { numRuns: 500 },
    );
  });
});

describe('long lines are cut before they are sanitised', () => {
  it('a change anywhere in a 100,000-character line is on screen, with the hidden parts counted (200 cases)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.constantFrom('X', '\u0378', 'а', '\t'),
        fc.boolean(),
        (at, ch, color) => {
          const base = 'abcdefghij'.repeat(10_000);
          const changed = `${base.slice(0, at)}${ch}${base.slice(at + 1)}`;
          const rows = renderDiff(
            `--- a/x\n+++ b/x\n@@ -1 +1 @@\n-${base}\n+${changed}\n`,
            createStyle(color),
            80,
          ).map(stripAnsi);
          const shown = ch === '\t' ? '→' : sanitizeLine(ch).replace(/^⟦|:\w+⟧$/g, '');
          expect(rows[2]).toContain(shown);
          for (const r of rows) expect(displayWidth(r)).toBeLessThanOrEqual(80);
          if (at > 100) expect(rows[2]).toMatch(/^ +1 \+…/);
          if (at < 99_000) expect(rows[2]).toMatch(/…\+\d+$/);
        },
      ),
      { numRuns: 200 },
    );
  });
});
