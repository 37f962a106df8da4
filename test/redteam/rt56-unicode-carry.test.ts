// Red team rt56, Promise A: at the unicode match level, a changed line keeps the file's characters
// only where the model left its text as it was; what the model wrote is its own text. Public API only.
import crypto from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editOnce, fold } from './rt56-helpers.js';

const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

describe('rt56 A: a changed line never takes another line’s typographic characters', () => {
  it('deleting a line and changing the next one: the changed line keeps its OWN (ASCII) quotes', async () => {
    const file = 'de: „Hallo“,\nen: "Hello",\n';
    const { r, dry, after } = await editOnce(file, {
      old_string: 'de: "Hallo",\nen: "Hello",',
      new_string: 'en: "Hello!",',
    });
    expect(r.ok).toBe(true);
    // The file's `en:` line uses ASCII quotes and so did the model: German „…“ must not appear.
    expect(after).toBe('en: "Hello!",\n'); // actual: 'en: „Hello!“,\n'
    expect((dry as any).data.payload.unifiedDiff).toContain('+en: "Hello!",');
  });

  it('swapping two lines and changing both: each keeps its own quotes', async () => {
    const file = 'A „one“\nB “two”\nend\n';
    const { r, after } = await editOnce(file, {
      old_string: 'A "one"\nB "two"',
      new_string: 'B "two!"\nA "one!"',
    });
    expect(r.ok).toBe(true);
    const [b, a] = after.split('\n');
    expect(b).toBe('B “two!”'); // actual: 'B „two!“' (A's quotes)
    expect(a).not.toBe('A “one!”'); // actual: 'A “one!”' (B's quotes)
  });

  it('patch_file: the same hunk writes the deleted line’s quotes into the kept one', async () => {
    const file = 'de: „Hallo“,\nen: "Hello",\nend\n';
    const { r, after } = await editOnce(
      file,
      {
        base_sha256: sha(file),
        unified_diff:
          '--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,2 @@\n-de: "Hallo",\n-en: "Hello",\n+en: "Hello!",\n end\n',
      },
      'patch_file',
    );
    expect(r.ok).toBe(true);
    expect(after).toBe('en: "Hello!",\nend\n'); // actual: 'en: „Hello!“,\nend\n'
  });
});

describe('rt56 A: an ellipsis the model writes is not cut up against the file’s dots', () => {
  it('“..” changed to “…” (and “!” added): the model’s ellipsis is written', async () => {
    const { r, after } = await editOnce('say(“hi”).. ok\n', {
      old_string: 'say("hi").. ok',
      new_string: 'say("hi")… ok!',
    });
    expect(r.ok).toBe(true);
    expect(fold(after)).toBe(fold('say("hi")… ok!\n')); // actual: 'say(“hi”).. ok!\n' (a dot lost)
  });

  it('“..” to “….” (four dots) is written with three', async () => {
    const { r, after } = await editOnce('s = “a” .. x\n', {
      old_string: 's = "a" .. x',
      new_string: 's = "a" …. x',
    });
    expect(r.ok).toBe(true);
    expect(fold(after)).toBe('s = "a" .... x\n'); // actual: 's = “a” ... x\n'
  });

  it('“..” to “…” alone is refused as “would change nothing” (it changes a dot)', async () => {
    const { r, after } = await editOnce('s = “a”..b\n', {
      old_string: 's = "a"..b',
      new_string: 's = "a"…b',
    });
    expect(r.ok).toBe(true); // actual: invalid_argument "the edit would change nothing"
    expect(fold(after)).toBe('s = "a"...b\n');
  });
});

describe('rt56 A: whitespace the model changed on a changed line is its own text', () => {
  it('one space widened to three next to a changed word is written as one', async () => {
    const { r, after } = await editOnce('a = “x”; b\n', {
      old_string: 'a = "x"; b',
      new_string: 'a = "y";   b',
    });
    expect(r.ok).toBe(true);
    expect(after).toBe('a = “y”;   b\n'); // actual: 'a = “y”; b\n'
  });

  it('a space the model turned into a tab stays a space', async () => {
    const { r, after } = await editOnce('a = “x”; b\n', {
      old_string: 'a = "x"; b',
      new_string: 'a\t= "y"; b',
    });
    expect(r.ok).toBe(true);
    expect(after).toBe('a\t= “y”; b\n'); // actual: 'a = “y”; b\n'
  });
});

// The generated class: one file line with typographic characters, asked for folded, changed by
// inserting/deleting dots, ellipses and whitespace. Whatever is written must fold to the model's text
// (the file's characters differ from the model's only by the fold), or the edit must be refused.
const FILE = ['a', 'b', '(', ';', '“', '”', '’', '‘', '—', '…', '.', ' ', '\u00A0', '"', "'", '-', '\t'];
const INS = ['.', '..', '…', ' ', '  ', '\t', 'q', '"', '“'];
describe('rt56 A (property): a written changed line folds to the model’s new line', () => {
  it('insertions of dots, ellipses and whitespace', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .array(fc.constantFrom(...FILE), { minLength: 1, maxLength: 12 })
          .map((c) => `w${c.join('')}w`)
          .filter((l) => l !== fold(l)),
        fc.array(fc.tuple(fc.nat(), fc.nat(2), fc.constantFrom(...INS)), { minLength: 1, maxLength: 3 }),
        async (line, muts) => {
          const old = fold(line);
          let nw = old;
          for (const [p, del, ins] of muts) {
            const at = 1 + (p % (nw.length - 1));
            nw = nw.slice(0, at) + ins + nw.slice(at + del);
          }
          fc.pre(nw.startsWith('w') && nw.endsWith('w') && nw !== old);
          const { r, after } = await editOnce(`top\n${line}\nend\n`, { old_string: old, new_string: nw });
          if (!r.ok) return; // a refusal keeps the promise
          expect(fold(after.split('\n')[1]!)).toBe(fold(nw));
        },
      ),
      { numRuns: 300, seed: 56 },
    );
  });
});
