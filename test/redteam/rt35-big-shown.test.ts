// Red team (rt35): "what the person is shown is what runs" on big files (> 64 KiB, up to 200k lines): the
// approval payload's unifiedDiff, applied strictly (each hunk at its @@ numbers, no search, no fuzz) to the old
// bytes, gives the bytes on disk; added/removed/diffLines agree; edit_file's result diff likewise. Files of
// runs of equal lines (`}` and blank), non-ASCII, CRLF, BOM, with/without final newline; changes at the
// start, the end, the middle, replace_all far apart. (The end of a file without a final newline under
// edit_lines insert_after is excluded here: see rt35-edit-lines-tail.)
import crypto from 'node:crypto';
import { createTwoFilesPatch } from 'diff';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { checkResultDiff, checkShown, cleanup, env, parseHashed, view } from './rt35-harness.js';

afterEach(cleanup);
const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

const fileArb = fc.record({
  n: fc.constantFrom(40, 3000, 12_000, 70_000),
  kind: fc.constantFrom('braces', 'blank', 'nonascii', 'plain'),
  eol: fc.constantFrom('\n', '\r\n'),
  bom: fc.boolean(),
  fin: fc.boolean(),
  seed: fc.integer({ min: 1, max: 1 << 30 }),
});
type F = { n: number; kind: string; eol: string; bom: boolean; fin: boolean; seed: number };

function lines(f: F): string[] {
  let s = f.seed >>> 0;
  const r = () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) / (1 << 24);
  };
  return Array.from({ length: f.n }, (_, i) => {
    const x = r();
    if (f.kind === 'braces') return x < 0.6 ? '}' : x < 0.8 ? '' : `  call(${i});`;
    if (f.kind === 'blank') return x < 0.8 ? '' : `x${i}`;
    if (f.kind === 'nonascii') return x < 0.3 ? '}' : `é😀漢 ${i % 100}`;
    return x < 0.3 ? '}' : `stmt_${i % 50}();`;
  });
}
const bytes = (f: F, ls: string[]) => (f.bom ? '\ufeff' : '') + ls.join(f.eol) + (f.fin ? f.eol : '');
const spotArb = fc.constantFrom('first', 'second', 'mid', 'penultimate', 'last', 'near-end');
function at(spot: string, n: number): number {
  return { first: 0, second: 1, mid: n >> 1, penultimate: n - 2, last: n - 1, 'near-end': n - 5 }[spot]!;
}

describe('big files: the shown diff is what is written', () => {
  it('edit_file replace_all over marker lines placed far apart', async () => {
    await fc.assert(
      fc.asyncProperty(
        fileArb,
        fc.uniqueArray(spotArb, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(
          ['MARK_A', 'MARK_B'],
          ['MARK_A\n', ''],
          ['MARK_A', 'MARK_A\n}'],
          ['MARK_A\n', 'MARK_A\n}\n}\n\n'],
          ['MARK_A', '}\nMARK_B'],
          ['\nMARK_A', ''],
        ),
        async (f, spots, [o, nw]) => {
          const ls = lines(f);
          for (const s of spots) ls[at(s, f.n)] = 'MARK_A';
          const before = bytes(f, ls);
          const E = env();
          E.write(before);
          const out: any = await E.gated.callTool('edit_file', {
            path: '/f.txt',
            old_string: o,
            new_string: nw,
            replace_all: true,
          });
          if (!out.ok) {
            expect(E.disk()).toBe(before);
            return;
          }
          const after = E.disk();
          expect(checkShown(before, after, E.payloads[0])).toEqual([]);
          expect(checkResultDiff(before, after, out.data.diff)).toEqual([]);
          cleanup();
        },
      ),
      { numRuns: 30, seed: 3501 },
    );
  });

  it('patch_file with a model diff (from the diff package) of 1-3 changes of lines equal to their neighbours', async () => {
    await fc.assert(
      fc.asyncProperty(
        fileArb,
        fc.array(fc.tuple(spotArb, fc.constantFrom('dup', 'del', 'chg')), { minLength: 1, maxLength: 3 }),
        async (f, changes) => {
          const ls = lines(f);
          const before = bytes(f, ls);
          const nl = [...ls];
          const idx = [...new Set(changes.map(([s, t]) => `${at(s, f.n)}:${t}`))]
            .map((k) => k.split(':') as [string, string])
            .sort((a, b) => Number(b[0]) - Number(a[0]));
          const done = new Set<number>();
          for (const [p, t] of idx) {
            const i = Number(p);
            if (done.has(i)) continue;
            done.add(i);
            if (t === 'dup') nl.splice(i, 0, nl[i]!);
            else if (t === 'del') nl.splice(i, 1);
            else nl[i] = `CHANGED${i}`;
          }
          const oldView = ls.join('\n') + (f.fin ? '\n' : '');
          const newView = nl.join('\n') + (f.fin ? '\n' : '');
          if (oldView === newView) return;
          const udiff = createTwoFilesPatch('a/f.txt', 'b/f.txt', oldView, newView, '', '')
            .split('\n')
            .slice(2)
            .join('\n');
          const E = env();
          E.write(before);
          const out: any = await E.gated.callTool('patch_file', {
            path: '/f.txt',
            unified_diff: udiff,
            base_sha256: sha(before),
          });
          if (!out.ok) {
            expect(out.error.code).toBe('invalid_diff'); // ambiguous hunk: refused, documented
            expect(E.disk()).toBe(before);
            return;
          }
          const after = E.disk();
          expect(checkShown(before, after, E.payloads[0])).toEqual([]);
          expect(view(after)).toBe(newView);
          cleanup();
        },
      ),
      { numRuns: 30, seed: 3502 },
    );
  });

  it('edit_lines: 1-4 operations by exact anchors at the start, middle and end', async () => {
    await fc.assert(
      fc.asyncProperty(
        fileArb.filter((f) => f.n <= 12_000), // big files hit the anchor collisions of rt35-anchor-collide
        fc.uniqueArray(spotArb, { minLength: 1, maxLength: 4 }),
        fc.array(fc.constantFrom('insert_after', 'insert_before', 'delete_line', 'replace_line'), {
          minLength: 4,
          maxLength: 4,
        }),
        fc.constantFrom('}', '', '}\n}', 'new'),
        async (f, spots, kinds, content) => {
          const ls = lines(f);
          if (!f.fin && ls[f.n - 1] === '') ls[f.n - 1] = 'x';
          const before = bytes(f, ls);
          const E = env();
          E.write(before);
          const rd: any = await E.gated.callTool('read_file', { path: '/f.txt', hashes: true });
          const rows = parseHashed(rd.data.content);
          const picks = [...new Set(spots.map((s) => at(s, f.n)))].sort((a, b) => a - b);
          const chosen: number[] = [];
          for (const p of picks) if (!chosen.length || p - chosen.at(-1)! > 1) chosen.push(p);
          const ops = chosen.map((p, k) => {
            const hash = `${rows[p]!.line}#${rows[p]!.hash}`;
            const op = kinds[k]!;
            if (op === 'insert_after' && p === f.n - 1 && !f.fin)
              return { op: 'insert_before', hash, content };
            return op === 'delete_line' ? { op, hash } : { op, hash, content };
          });
          const out: any = await E.gated.callTool('edit_lines', {
            path: '/f.txt',
            operations: ops,
            sanity: 'off',
          });
          expect(out.ok ? 'ok' : `${out.error.code}: ${out.error.message}`).toBe('ok');
          expect(checkShown(before, E.disk(), E.payloads[0])).toEqual([]);
          cleanup();
        },
      ),
      { numRuns: 30, seed: 3503 },
    );
  });

  it('huge shapes: 200k-line replace_all over 66,667 places (LF and CRLF), a repeated block (refused as not unique), a 6 MB line', async () => {
    const N = 200_000;
    const base = Array.from({ length: N }, (_, i) => (i % 3 === 0 ? 'MARK' : i % 3 === 1 ? '}' : ''));
    const cases: Array<[string, Record<string, unknown>]> = [
      [`${base.join('\n')}\n`, { old_string: 'MARK\n', new_string: 'MARK\n}\n', replace_all: true }],
      [base.join('\r\n'), { old_string: 'MARK\r\n', new_string: '', replace_all: true }],
      [
        `${base.join('\n')}\n`,
        {
          old_string: 'MARK\n}\n\nMARK\n}\n\nMARK\n}\n\n',
          new_string: 'x\n',
        },
      ],
      [
        `x\n${'a'.repeat(3_000_000)}NEEDLE${'b'.repeat(3_000_000)}\ny\n`,
        { old_string: 'NEEDLE', new_string: 'PIN\nPIN' },
      ],
    ];
    for (const [before, args] of cases) {
      const E = env();
      E.write(before);
      const out: any = await E.gated.callTool('edit_file', { path: '/f.txt', ...args });
      if (!out.ok) {
        expect(out.error.code).toBe('edit_not_unique');
        continue;
      }
      expect(checkShown(before, E.disk(), E.payloads[0])).toEqual([]);
      cleanup();
    }
  });
});
