// Red team rt56, Promise A (held): multi-line unicode-level edits (lines kept, dropped, duplicated,
// moved, changed by non-space non-dot characters, added), LF and CRLF: kept lines are the file's bytes,
// changed lines fold to the model's text, the lines around are untouched, the dry-run diff shows them.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { editOnce, fold } from './rt56-helpers.js';

const key = (s: string) =>
  fold(s)
    .replace(/^[\s]+|[\s]+$/g, '')
    .replace(/\s+/g, ' ');
const CH = [
  'a',
  'b',
  'c',
  'd',
  'x',
  '(',
  ')',
  ';',
  '=',
  '“',
  '”',
  '’',
  '‘',
  '—',
  '–',
  '"',
  "'",
  '-',
  ' ',
  '\u00A0',
];
const INS = ['q', 'z', '1', '"', "'", '(', ')', '“', '’', '—'];
it('multi-line unicode edits keep kept lines and fold to the model (property)', async () => {
  let fails = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.array(fc.constantFrom(...CH), { minLength: 1, maxLength: 10 }).map((c) => `k${c.join('')}k`),
        { minLength: 1, maxLength: 5 },
      ),
      fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
      fc.array(
        fc.oneof(
          fc.record({ t: fc.constant('keep' as const), i: fc.nat() }),
          fc.record({
            t: fc.constant('chg' as const),
            i: fc.nat(),
            p: fc.nat(),
            ins: fc.constantFrom(...INS),
            del: fc.nat(2),
          }),
          fc.record({
            t: fc.constant('new' as const),
            s: fc.constantFrom('new “x” line', "added 'y'", 'plain'),
          }),
        ),
        { minLength: 1, maxLength: 6 },
      ),
      fc.constantFrom('\n', '\r\n'),
      async (block, folds, ops, eol) => {
        if (!block.some((l) => l !== fold(l))) return;
        const needle = block.map((l, i) => (folds[i] ? fold(l) : l));
        if (needle.every((l, i) => l === block[i])) return;
        const nw: string[] = [];
        for (const op of ops) {
          if (op.t === 'keep') nw.push(needle[op.i % needle.length]!);
          else if (op.t === 'new') nw.push(op.s);
          else {
            const l = needle[op.i % needle.length]!;
            const at = 1 + (op.p % (l.length - 1));
            nw.push(l.slice(0, at) + op.ins + l.slice(at + op.del));
          }
        }
        if (nw.join('\n') === needle.join('\n')) return;
        const content = ['head line', ...block, 'tail line', ''].join(eol);
        const { r, dry, after } = await editOnce(content, {
          old_string: needle.join('\n'),
          new_string: nw.join('\n'),
        });
        if (!r.ok) return;
        const d: any = (r as any).data;
        if (d.match_level !== 'unicode') return;
        const lines = after.split(eol);
        const problems: string[] = [];
        if (lines[0] !== 'head line') problems.push('head');
        const got = lines.slice(1, 1 + nw.length);
        if (lines[1 + nw.length] !== 'tail line') problems.push('tail/count');
        nw.forEach((n, j) => {
          const idx = needle.map((l, i) => (l === n ? i : -1)).filter((i) => i >= 0);
          const files = new Set(idx.map((i) => block[i]));
          if (idx.length > 0 && files.size === 1) {
            if (got[j] !== block[idx[0]!]) problems.push(`kept ${j}`);
          } else if (idx.length === 0 && key(got[j] ?? '') !== key(n)) problems.push(`chg ${j}`);
        });
        if (after.includes('\r\n') !== (eol === '\r\n') || (eol === '\n' && after.includes('\r')))
          problems.push('eol');
        const dd: any = (dry as any).data?.payload?.unifiedDiff ?? '';
        for (const g of got) if (!dd.includes(g) && !content.includes(g)) problems.push('diff missing');
        if (problems.length && fails++ < 12)
          console.log(JSON.stringify({ problems, block, needle, nw, got, eol }));
      },
    ),
    { numRuns: 800, seed: 11 },
  );
  expect(fails).toBe(0);
}, 600000);
