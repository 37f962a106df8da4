// Red team rt59: generated cases that held. They complement rt51/rt58 (diffs of the bytes over
// plain words) with: the model's diff (LF, no CRs: as read_file shows a CRLF file) against CRLF
// files, untouched line ends of mixed files under such diffs, and diffs of the bytes whose lines
// carry lone CRs, CR CR LF sequences and BOMs, from diff -u/-U0/-U1, `git diff` in a repository
// (index line, a/ b/ prefixes) and jsdiff, against GNU patch --binary.
import { createTwoFilesPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gitRepoDiff, gnuDiff, gnuPatch, patchFile } from './rt59-helpers.js';

const toCrlf = (s: string) => s.replaceAll('\n', '\r\n');
const joinLf = (ls: string[], nl: boolean) => (ls.length ? ls.join('\n') + (nl ? '\n' : '') : '');

/** Lines with their own ends ('' for an unterminated last line). */
function split(s: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let st = 0;
  while (st < s.length) {
    const nl = s.indexOf('\n', st);
    if (nl < 0) {
      out.push([s.slice(st), '']);
      break;
    }
    const cr = nl > st && s[nl - 1] === '\r';
    out.push([s.slice(st, cr ? nl - 1 : nl), cr ? '\r\n' : '\n']);
    st = nl + 1;
  }
  return out;
}

/** For a diff -u/-U0 text: old line index -> new line index of every line it keeps. */
function keptLines(diff: string, oldCount: number): Map<number, number> {
  const m = new Map<number, number>();
  let o = 0;
  let n = 0;
  for (const l of diff.split('\n')) {
    const h = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/.exec(l);
    if (h) {
      const start = Number(h[1]) + (h[2] === '0' ? 1 : 0);
      while (o < start - 1) m.set(o++, n++);
      continue;
    }
    if (l.startsWith('---') || l.startsWith('+++')) continue;
    if (l[0] === ' ') m.set(o++, n++);
    else if (l[0] === '-') o++;
    else if (l[0] === '+') n++;
  }
  while (o < oldCount) m.set(o++, n++);
  return m;
}

describe('rt59 patch_file line ends (properties that held)', () => {
  it("the model's LF diff of a CRLF file's LF view gives exactly the CRLF new text", async () => {
    const WORDS = ['a', 'b', 'c', '', ' a', 'a ', 'a\rb', '\t', '}', 'x y', '\\ x', '+a', '-a'];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 10 }),
        fc.boolean(),
        fc.array(fc.constantFrom(...WORDS), { maxLength: 10 }),
        fc.boolean(),
        fc.constantFrom(['-u'], ['-U0'], ['-U1'], ['-U5']),
        async (o, onl, n, nnl, args) => {
          const oldLf = joinLf(o, onl);
          const newLf = joinLf(n, nnl);
          if (oldLf === newLf) return;
          const diff = gnuDiff(oldLf, newLf, args);
          if (gnuPatch(oldLf, diff) !== newLf) return;
          const oldT = toCrlf(oldLf);
          const r = await patchFile(oldT, diff);
          if (!r.ok) {
            expect(r.code).toBe('invalid_diff');
            expect(r.after).toBe(oldT);
            return;
          }
          expect(JSON.stringify(r.after)).toBe(JSON.stringify(toCrlf(newLf)));
        },
      ),
      { numRuns: 300, seed: 59 },
    );
  }, 300_000);

  it("a mixed-end file under the model's LF diff: same text, every kept line keeps its own end", async () => {
    const WORDS = ['a', 'b', 'c', '', ' a', 'a ', 'a\rb', '}', 'x y', '\\ x', '+a', '-a'];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom('\n', '\r\n')), {
          minLength: 2,
          maxLength: 10,
        }),
        fc.boolean(),
        fc.array(fc.constantFrom(...WORDS), { maxLength: 10 }),
        fc.boolean(),
        fc.constantFrom(['-u'], ['-U0'], ['-U1']),
        async (o, onl, n, nnl, args) => {
          const oldT = o.map(([l, e], i) => l + (i < o.length - 1 || onl ? e : '')).join('');
          const oldLf = oldT.replaceAll('\r\n', '\n');
          const newLf = joinLf(n, nnl);
          if (oldLf === newLf) return;
          const diff = gnuDiff(oldLf, newLf, args);
          if (gnuPatch(oldLf, diff) !== newLf) return;
          const r = await patchFile(oldT, diff);
          if (!r.ok) {
            expect(r.code).toBe('invalid_diff');
            expect(r.after).toBe(oldT);
            return;
          }
          expect(r.after!.replaceAll('\r\n', '\n')).toBe(newLf);
          const ol = split(oldT);
          const nl = split(r.after!);
          for (const [oi, ni] of keptLines(diff, ol.length)) {
            if (ni === nl.length - 1 || oi === ol.length - 1) continue; // the final newline is the diff's
            expect(nl[ni]![1]).toBe(ol[oi]![1]);
          }
        },
      ),
      { numRuns: 300, seed: 591 },
    );
  }, 300_000);

  it('diffs of the bytes with lone CRs, CR CR LF and BOMs agree with GNU patch --binary', async () => {
    const WORDS = [
      'a',
      'b',
      '',
      ' a',
      'a\rb',
      '\r',
      'a\r',
      '\r\r',
      '}',
      '\\ x',
      '+a',
      '-a',
      '\uFEFFa',
      '\uFEFF',
    ];
    type L = { t: string; e: string };
    const lineArb = fc.record({ t: fc.constantFrom(...WORDS), e: fc.constantFrom('\n', '\r\n') });
    const gens: Record<string, (a: string, b: string) => string> = {
      u: (a, b) => gnuDiff(a, b, ['-u']),
      u0: (a, b) => gnuDiff(a, b, ['-U0']),
      u1: (a, b) => gnuDiff(a, b, ['-U1']),
      git: (a, b) => gitRepoDiff(a, b),
      js: (a, b) => createTwoFilesPatch('a', 'b', a, b),
    };
    const build = (ls: L[], nl: boolean, bom: boolean) =>
      (bom ? '\uFEFF' : '') + ls.map((l, i) => l.t + (i < ls.length - 1 || nl ? l.e : '')).join('');
    const mixed = (s: string) => s.includes('\r\n') && /(^|[^\r])\n/.test(s);
    await fc.assert(
      fc.asyncProperty(
        fc.array(lineArb, { maxLength: 9 }),
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.tuple(fc.nat(9), fc.constantFrom('del', 'ins', 'chg', 'end', 'cr')), {
          minLength: 1,
          maxLength: 4,
        }),
        lineArb,
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom(...Object.keys(gens)),
        async (o, onl, obom, edits, ins, nnl, nbom, g) => {
          const oldT = build(o, onl, obom);
          // The documented rule: in a file with one kind of line end, new lines take it.
          const uniform =
            oldT.includes('\n') && !mixed(oldT) ? (oldT.includes('\r\n') ? '\r\n' : '\n') : undefined;
          const nl = o.map((l) => ({ ...l }));
          for (const [k, op] of edits) {
            const i = nl.length ? k % nl.length : 0;
            if (op === 'ins') nl.splice(i, 0, { ...ins });
            else if (nl.length === 0) continue;
            else if (op === 'del') nl.splice(i, 1);
            else if (op === 'chg') nl[i] = { t: `${nl[i]!.t}Z`, e: nl[i]!.e };
            else if (op === 'end') nl[i] = { t: nl[i]!.t, e: nl[i]!.e === '\n' ? '\r\n' : '\n' };
            else nl[i] = { t: `${nl[i]!.t}\r`, e: nl[i]!.e };
          }
          if (uniform) for (const l of nl) l.e = uniform;
          const newT = build(nl, nnl, nbom);
          if (newT === oldT) return;
          // A CR before an LF in an LF file reads as a CRLF end (the rt59 lone-CR test keeps that case).
          if (uniform === '\n' && newT.includes('\r\n')) return;
          const diff = gens[g]!(oldT, newT);
          if (gnuPatch(oldT, diff, { binary: true }) !== newT) return;
          const r = await patchFile(oldT, diff);
          if (!r.ok) {
            expect(r.code).toBe('invalid_diff');
            expect(r.reason).toBeDefined();
            expect(r.after).toBe(oldT);
            return;
          }
          // Mixed files and LF-only diffs: new lines take the file's most common end (documented).
          if (mixed(oldT) && !diff.includes('\r\n')) {
            expect(r.after!.replaceAll('\r\n', '\n')).toBe(newT.replaceAll('\r\n', '\n'));
            return;
          }
          expect(JSON.stringify(r.after)).toBe(JSON.stringify(newT));
        },
      ),
      { numRuns: 500, seed: 5932 },
    );
  }, 300_000);
});
