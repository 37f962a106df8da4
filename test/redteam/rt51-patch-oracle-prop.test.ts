import { createTwoFilesPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editFile, gitDiff, gnuDiff, gnuPatch, patchFile } from './rt51-helpers.js';

// Properties that held in the rt51 run (no BOM; CRLF only where both sides have a line ending, since the
// BOM and "file without any line ending" cases are separate failing tests).
const LINES = [
  'a',
  'b',
  'c',
  '',
  ' a',
  'a ',
  '\ta',
  '}',
  '  }',
  'x y',
  '\\ x',
  '-a',
  '+a',
  '@@ -1 +1 @@',
  '--- a',
  ' ',
];
const textArb = fc.record({
  lines: fc.array(fc.constantFrom(...LINES), { maxLength: 10 }),
  nl: fc.boolean(),
});
const build = (t: { lines: string[]; nl: boolean }, crlf: boolean): string => {
  if (t.lines.length === 0) return '';
  const eol = crlf ? '\r\n' : '\n';
  return t.lines.join(eol) + (t.nl ? eol : '');
};
const gens: Record<string, (a: string, b: string) => string> = {
  u: (a, b) => gnuDiff(a, b, ['-u']),
  u0: (a, b) => gnuDiff(a, b, ['-U0']),
  u1: (a, b) => gnuDiff(a, b, ['-U1']),
  git: (a, b) => gitDiff(a, b),
  git0: (a, b) => gitDiff(a, b, ['-U0']),
  js: (a, b) => createTwoFilesPatch('a', 'b', a, b),
  js0: (a, b) => createTwoFilesPatch('a', 'b', a, b, undefined, undefined, { context: 0 }),
};

describe('rt51 properties (held)', () => {
  it('patch_file agrees with GNU patch on generated diffs, and the payload diff reproduces the write', async () => {
    await fc.assert(
      fc.asyncProperty(
        textArb,
        textArb,
        fc.boolean(),
        fc.constantFrom(...Object.keys(gens)),
        async (o, n, crlf, g) => {
          const oldT = build(o, crlf);
          const newT = build(n, crlf);
          if (oldT === newT) return;
          if (crlf && (!oldT.includes('\n') || !newT.includes('\n'))) return;
          const diff = gens[g]!(oldT, newT);
          const r = await patchFile(oldT, diff, true);
          if (!r.ok) {
            expect(r.code).toBe('invalid_diff');
            expect(r.after).toBe(oldT);
            return;
          }
          expect(r.after).toBe(gnuPatch(oldT, diff));
          expect(gnuPatch(oldT, r.unifiedDiff!)).toBe(r.after);
        },
      ),
      { numRuns: 120, seed: 51 },
    );
  }, 120_000);

  it("patch_file leniency: shifted or missing @@ numbers still give exactly the diff author's result", async () => {
    await fc.assert(
      fc.asyncProperty(
        textArb,
        textArb,
        fc.integer({ min: -5, max: 5 }),
        fc.boolean(),
        async (o, n, k, drop) => {
          const oldT = build(o, false);
          const newT = build(n, false);
          if (oldT === newT) return;
          const diff = gnuDiff(oldT, newT, ['-u'])
            .split('\n')
            .map((l) =>
              drop
                ? l.replace(/^@@ .* @@.*$/, '@@ @@')
                : l.replace(
                    /^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@/,
                    (_m, a: string, b: string | undefined, c: string, d: string | undefined) =>
                      `@@ -${Math.max(1, +a + k)}${b ?? ''} +${Math.max(1, +c + k)}${d ?? ''} @@`,
                  ),
            )
            .join('\n');
          const r = await patchFile(oldT, diff);
          if (r.ok) expect(r.after).toBe(newT);
          else expect(r.after).toBe(oldT);
        },
      ),
      { numRuns: 100, seed: 52 },
    );
  }, 120_000);

  it('edit_file exact level is a str.replace at one occurrence, and its payload diff reproduces the write', async () => {
    const EL = ['a', 'b', 'a b', '', ' a', 'a ', '\ta', '  b', '}', '  }', 'x', ' '];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...EL), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.nat(),
        fc.nat(),
        fc.array(fc.constantFrom(...EL, 'NEW'), { maxLength: 3 }),
        fc.boolean(),
        async (lines, nl, s0, len0, newLines, newNl) => {
          const file = lines.join('\n') + (nl ? '\n' : '');
          if (file.length === 0) return;
          const s = s0 % file.length;
          const e = s + 1 + (len0 % Math.min(12, file.length - s));
          const old = file.slice(s, e);
          const nw = newLines.join('\n') + (newNl ? '\n' : '');
          if (old === nw) return;
          const r = await editFile(file, { old_string: old, new_string: nw }, true);
          if (!r.ok) {
            expect(r.code).not.toBe('io_error');
            expect(r.after).toBe(file);
            return;
          }
          expect(gnuPatch(file, r.unifiedDiff!)).toBe(r.after);
          if (r.data!.match_level === 'exact') {
            expect(r.data!.replacements_made).toBe(1);
            const options: string[] = [];
            for (let i = file.indexOf(old); i !== -1; i = file.indexOf(old, i + 1)) {
              options.push(file.slice(0, i) + nw + file.slice(i + old.length));
            }
            expect(options).toContain(r.after);
          }
        },
      ),
      { numRuns: 120, seed: 53 },
    );
  }, 120_000);
});
