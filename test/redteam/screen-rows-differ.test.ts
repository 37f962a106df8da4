import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import { capture, cardHtml, mcpText, mkdir, stripAnsi, terminalText } from './screen-helpers.js';

// Promise: "a change is never shown as no change" — on the terminal (colour and plain), the MCP
// text and the React card, the - and + rows of a one-line change must differ in what is SEEN:
// colour/markers stripped, trailing blanks dropped, canonically equivalent text folded (NFC).
const seen = (s: string) => stripAnsi(s).replace(/\s+$/, '').normalize('NFC');
const decode = (h: string) =>
  h
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&');

function termRows(req: ApprovalRequest, color: boolean, width: number): [string[], string[]] {
  const body = terminalText(req, color, width).body.map(stripAnsi);
  const del = body.filter((r) => /^ *\d+ {2,}-/.test(r)).map((r) => r.replace(/^ *\d+ +-/, ''));
  const add = body.filter((r) => /^ {4,}\d+ \+/.test(r)).map((r) => r.replace(/^ +\d+ \+/, ''));
  return [del, add];
}
function cardRows(req: ApprovalRequest): [string[], string[]] {
  const html = cardHtml(req);
  const rows = (kind: string) =>
    [
      ...html.matchAll(
        new RegExp(`<div class="sa-row sa-${kind}"[^>]*>.*?<span class="sa-text">(.*?)</span></div>`, 'g'),
      ),
    ].map((m) => decode(m[1]!));
  return [rows('del'), rows('add')];
}

const pairs: [string, string, string][] = [
  ['NFC → NFD', 'name = "café"', 'name = "cafe\u0301"'],
  ['NFD → NFC', 'name = "cafe\u0301"', 'name = "café"'],
  ['Å → Angstrom sign', 'x Å', 'x \u212b'],
  ['Ω → Ohm sign', 'x Ω', 'x \u2126'],
  ['K → Kelvin', 'K = 1', '\u212a = 1'],
  ['zalgo', 'ok', 'o\u0300\u0301\u0302\u0303\u0304\u0305\u0306k'],
  ['combining on a space', 'a b', 'a \u0301b'],
  ['combining enclosing keycap', 'x = 0', 'x = 0\u20e3'],
  ['ZWJ removed from emoji', 'a 👨\u200d👩\u200d👧 b', 'a 👨👩👧 b'],
  ['VS16 added', 'a ❤ b', 'a ❤\ufe0f b'],
  ['VS15 added', 'a ❤ b', 'a ❤\ufe0e b'],
  ['regional indicators swapped', 'flag 🇺🇸', 'flag 🇸🇺'],
  ['RLO added', 'if (isAdmin) {', 'if (isAdmin\u202e) {'],
  ['isolates', 'x = "abc"', 'x = "\u2066abc\u2069"'],
  ['tag characters', 'x=1', 'x=1\u{E0041}\u{E007F}'],
  ['Hangul filler', 'x=1', 'x=1\u3164'],
  ['Hangul choseong filler', 'x=1', 'x=1\u115f'],
  ['halfwidth Hangul filler', 'x=1', 'x=1\uffa0'],
  ['braille blank', 'x=1', 'x=1\u2800'],
  ['trailing space', 'x', 'x '],
  ['trailing tab', 'x', 'x\t'],
  ['space → tab inside', 'a b', 'a\tb'],
  ['double space', 'a b', 'a  b'],
  ['NBSP', 'a b', 'a\u00a0b'],
  ['ideographic space', 'a b', 'a\u3000b'],
  ['BOM at start', 'x', '\ufeffx'],
  ['soft hyphen', 'admin', 'ad\u00admin'],
  ['word joiner', 'admin', 'ad\u2060min'],
  ['Greek question mark', 'a;', 'a\u037e'],
  ['minus sign', 'a - b', 'a \u2212 b'],
  ['hyphen', 'a-b', 'a\u2010b'],
  ['division slash', 'a/b', 'a\u2215b'],
  ['Roman numeral I', 'I = 1', '\u2160 = 1'],
  ['fi ligature', 'fi', '\ufb01'],
  ['small capital O', 'ok', '\u1d0fk'],
  ['dental click ǀ vs l', 'paypal', 'paypa\u01c0'],
  ['Cherokee A', 'SAFE', 'S\u13aaFE'],
  ['OSC 8', 'x', 'x\u001b]8;;http://e\u0007l\u001b]8;;\u0007'],
  ['CSI in C1', 'x', 'x\u009b2J'],
  ['unassigned', 'x', 'x\u0378'],
  ['private use', 'x', 'x\ue000'],
  ['line separator', 'a b', 'a\u2028b'],
  ['Mongolian vowel separator', 'ab', 'a\u180eb'],
  ['combining grapheme joiner', 'ab', 'a\u034fb'],
  ['interlinear annotation', 'ab', 'a\ufff9b'],
  ['arabic letter mark', 'ab', 'a\u061cb'],
  ['khmer inherent vowel', 'ab', 'a\u17b4b'],
  ['noncharacter', 'ab', 'a\ufdd0b'],
  ['variation selector supplement', 'ab', 'a\u{e0100}b'],
  ['Math bold a', 'admin', '\u{1d41a}dmin'],
  ['NFKC-only: superscript 2', 'x2', 'x\u00b2'],
];

describe('the - and + rows of a change differ visibly on every surface', () => {
  const cases = pairs.flatMap(([n, o, w]) => [
    [n, o, w, 'middle line'],
    [n, o, w, 'last line, no final newline'],
  ]);
  it.each(cases)('%s (%s)', async (_name, oldLine, newLine, where) => {
    const tail = where === 'middle line' ? '\nkeep\n' : '';
    const dir = mkdir({ 'f.txt': `${oldLine}${tail}` });
    const req = await capture(dir, 'write_file', { path: '/f.txt', content: `${newLine}${tail}` });
    const failures: string[] = [];
    const check = (surface: string, [del, add]: [string[], string[]]) => {
      if (del.length !== 1 || add.length !== 1)
        failures.push(`${surface}: rows ${JSON.stringify([del, add])}`);
      else if (seen(del[0]!) === seen(add[0]!)) failures.push(`${surface}: same ${JSON.stringify(del[0])}`);
    };
    for (const w of [80, 40]) check(`terminal colour ${w}`, termRows(req, true, w));
    check('terminal plain', termRows(req, false, 80));
    const mcp = mcpText(req).split('\n');
    check('mcp', [
      mcp.filter((r) => /^ *\d+ {2,}-/.test(r)).map((r) => r.replace(/^ *\d+ +-/, '')),
      mcp.filter((r) => /^ {4,}\d+ \+/.test(r)).map((r) => r.replace(/^ +\d+ \+/, '')),
    ]);
    check('react card', cardRows(req));
    expect(failures).toEqual([]);
  });

  it('a change only in column 10,000 is on screen and differs (terminal 40/80, MCP, card)', async () => {
    const a = `${'x'.repeat(9999)}a${'y'.repeat(500)}`;
    const b = `${'x'.repeat(9999)}b${'y'.repeat(500)}`;
    const dir = mkdir({ 'f.txt': `${a}\n` });
    const req = await capture(dir, 'write_file', { path: '/f.txt', content: `${b}\n` });
    for (const w of [40, 80]) {
      const [del, add] = termRows(req, true, w);
      expect(seen(del[0]!)).not.toBe(seen(add[0]!));
    }
  });
});
