import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldPunctuation } from '../../src/edit/normalize-line.js';
import { replaceInText } from '../../src/edit/replace-in-text.js';

// A line of the file with typographic characters, asked for in ASCII (the unicode level):
// what the model inserts is its own text, everything it left as it was is the file's.
const FILE_CHARS = [
  'a',
  'b',
  'x',
  '(',
  ')',
  ';',
  '“',
  '”',
  '’',
  '‘',
  '—',
  '–',
  '…',
  ' ',
  '\u00A0',
  '"',
  "'",
  '-',
];
const INSERTED = ['k', 'q', 'z', '1', '(', ')', '{', '}', '=', '+', ',', ';', 'x'];

const fileLine = fc
  .array(fc.constantFrom(...FILE_CHARS), { minLength: 1, maxLength: 30 })
  .map((cs) => `w${cs.join('')}w`)
  .filter((l) => /[“”’‘—–…\u00A0]/.test(l));

/**
 * Offsets of the folded line that fall between two characters of the file's line: not inside
 * a folded …, nor inside a run of whitespace (a run is one unit: which part of it an insertion
 * splits is not told by the text).
 */
function boundaries(line: string): Map<number, number> {
  const out = new Map<number, number>([[0, 0]]);
  const space = (c: string | undefined) => c !== undefined && /\s/.test(c);
  let folded = 0;
  for (let i = 0; i < line.length; i++) {
    folded += foldPunctuation(line[i]!).length;
    if (!(space(line[i]) && space(line[i + 1]))) out.set(folded, i + 1);
  }
  return out;
}

describe('a changed line at the unicode level keeps the file’s characters where the model kept its text', () => {
  it('an ASCII insertion anywhere lands in the file’s own line (property)', () => {
    fc.assert(
      fc.property(
        fileLine,
        fc.array(fc.constantFrom(...INSERTED), { minLength: 1, maxLength: 5 }),
        fc.nat(),
        (line, ins, pick) => {
          const old = foldPunctuation(line);
          const places = [...boundaries(line)];
          const [at, fileAt] = places[pick % places.length]!;
          const inserted = ins.join('');
          const file = `before\n${line}\nafter\n`;
          const r = replaceInText(file, {
            oldString: `before\n${old}`,
            newString: `before\n${old.slice(0, at)}${inserted}${old.slice(at)}`,
            replaceAll: false,
          });
          expect(r.ok).toBe(true);
          if (!r.ok) return;
          expect(r.matchLevel).toBe('unicode');
          expect(r.newText).toBe(`before\n${line.slice(0, fileAt)}${inserted}${line.slice(fileAt)}\nafter\n`);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a line rewritten more than kept is the model’s text', () => {
    const r = replaceInText('say(“hi”);\n', {
      oldString: 'say("hi");',
      newString: 'print(1, 2, 3);',
      replaceAll: false,
    });
    expect(r.ok && r.newText).toBe('print(1, 2, 3);\n');
  });

  it('a changed ellipsis is the model’s, a kept one the file’s', () => {
    const kept = replaceInText('wait… “now”\n', {
      oldString: 'wait... "now"',
      newString: 'wait... "later"',
      replaceAll: false,
    });
    expect(kept.ok && kept.newText).toBe('wait… “later”\n');
    const changed = replaceInText('wait… ok\n', {
      oldString: 'wait... ok',
      newString: 'wait.. ok',
      replaceAll: false,
    });
    expect(changed.ok && changed.newText).toBe('wait.. ok\n');
  });

  it('re-indented lines keep the file’s indentation and characters', () => {
    const r = replaceInText('    say(“a”);\n    x();\n', {
      oldString: 'say("a");\nx();',
      newString: 'say("a", b);\nx();',
      replaceAll: false,
    });
    expect(r.ok && r.newText).toBe('    say(“a”, b);\n    x();\n');
  });
});
