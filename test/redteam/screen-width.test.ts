import { eastAsianWidthType } from 'get-east-asian-width';
import { describe, expect, it } from 'vitest';
import { capture, mkdir, stripAnsi, terminalText } from './screen-helpers.js';

// Promise: "ambiguous-width characters treated as wide so a fitted row never wraps". Measured as a
// wcwidth terminal in a CJK locale would: per code point, East Asian Wide/Fullwidth/Ambiguous = 2,
// nonspacing/enclosing marks and format characters = 0, else 1. Each rendered body row must fit.
const stringWidth = (s: string, _o?: unknown) =>
  [...s].reduce((w, c) => {
    if (/[\p{Mn}\p{Me}\p{Cf}]/u.test(c)) return w;
    const t = eastAsianWidthType(c.codePointAt(0)!);
    return w + (t === 'wide' || t === 'fullwidth' || t === 'ambiguous' ? 2 : 1);
  }, 0);
const samples: [string, string][] = [
  ['ambiguous', '→…│±×÷°§¶·ÆÐØÞßæðøþĐđĦħ'.repeat(20)],
  ['circled numbers U+3248', '\u3248\u3249\u324a\u324b\u324c\u324d\u324e\u324f'.repeat(20)],
  ['VS16 emoji', '❤\ufe0f☺\ufe0f✌\ufe0f'.repeat(40)],
  ['text-default symbols', '☺✌☝✍⚠♥'.repeat(40)],
  ['regional indicators', '🇺🇸🇫🇷🇩'.repeat(40)],
  ['ZWJ family', '👨\u200d👩\u200d👧 '.repeat(40)],
  ['Hangul conjoining jamo', '\u1100\u1161\u11a8'.repeat(60)],
  ['Devanagari', 'क्षत्रिय '.repeat(30)],
  ['zalgo', `z${'\u0301\u0302'.repeat(5)}`.repeat(40)],
  ['CJK', '漢字かなカナ'.repeat(30)],
  ['fullwidth', 'ＡＢＣ１２３'.repeat(30)],
  ['emoji modifiers', '👍🏽👋🏿'.repeat(40)],
  ['keycaps', '1\ufe0f\u20e3#\ufe0f\u20e3'.repeat(40)],
];

describe('fitted rows never wrap', () => {
  for (const width of [40, 80]) {
    it.each(samples)(`%s at ${width} columns (new file and a change)`, async (_n, text) => {
      const dir = mkdir({ 'old.txt': `${text}\nx\n` });
      const reqs = [
        await capture(dir, 'write_file', { path: '/new.txt', content: `${text}\n` }),
        await capture(dir, 'write_file', { path: '/old.txt', content: `${text}!\ny\n` }),
      ];
      const over: string[] = [];
      for (const req of reqs) {
        for (const color of [false, true]) {
          const t = terminalText(req, color, width);
          for (const row of t.body) {
            const w = stringWidth(stripAnsi(row), { ambiguousIsNarrow: false });
            if (w > width) over.push(`${w}: ${stripAnsi(row)}`);
          }
        }
      }
      expect(over).toEqual([]);
    });
  }
});
