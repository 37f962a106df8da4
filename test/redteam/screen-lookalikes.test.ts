import { describe, expect, it } from 'vitest';
import { capture, cardHtml, mcpText, mkdir, terminalText } from './screen-helpers.js';

// Promise: "look-alike/mixed-script words marked with a warning" on every surface. The library marks
// all-Cyrillic look-alike words (аре) and ASCII+Latin-extended words (pɑypɑl, admın) — these are the
// same attack with other letters, in a new file (no diff highlight to catch the eye).
const marked = /look-alike|mixed scripts/;

const cases: [string, string][] = [
  ['LATIN LETTER DENTAL CLICK ǀ (U+01C0) for l', 'paypaǀ'],
  ['LATIN LETTER SMALL CAPITAL O (U+1D0F) for o', 'gᴏᴏgle'],
  ['LATIN LETTER SMALL CAPITAL I (U+026A) for i', 'admɪn'],
  ['LATIN SMALL LETTER IOTA (U+0269) for i', 'admɩn'],
  ['LATIN LETTER SMALL CAPITAL S (U+A731) for s', 'ꜱafe'],
  ['LATIN SMALL LETTER LONG S (U+017F)', 'ſafe'],
  ['ROMAN NUMERAL ONE (U+2160) for I', 'Ⅰnit'],
  ['a whole word of Cherokee letters that look like ASCII (ᏚᎪᏞᎬ = SALE)', 'ᏚᎪᏞᎬ'],
  ['a whole word of Lisu letters that look like ASCII (ꓑꓮꓬ = PAC)', 'ꓑꓮꓬ'],
  ['a whole word of mathematical bold letters (𝐚𝐝𝐦𝐢𝐧)', '𝐚𝐝𝐦𝐢𝐧'],
  // controls, marked today:
  ['(control) Cyrillic whole word аре', 'аре'],
  ['(control) Armenian օ in a Latin word', 'gօօgle'],
  ['(control) Cherokee Ꭺ in a Latin word', 'SᎪFE'],
  ['(control) Latin alpha ɑ', 'pɑypɑl'],
];

describe('look-alike words are marked on every surface', () => {
  it.each(cases)('%s', async (_name, word) => {
    const dir = mkdir({});
    const req = await capture(dir, 'write_file', { path: '/f.txt', content: `host = "${word}.com"\n` });
    const t = terminalText(req);
    expect({
      terminal: marked.test(t.warnings.join('\n')),
      mcp: marked.test(mcpText(req)),
      card: marked.test(cardHtml(req)),
    }).toEqual({ terminal: true, mcp: true, card: true });
  });
});
