import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

describe('edit_lines result diff for big regions: shown lines, the "N more" line and its line range are exact', () => {
  it('generated replace_range / insert / delete sizes around 200', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 5, max: 700 }),
        fc.nat(),
        fc.nat(),
        fc.constantFrom(0, 1, 99, 100, 101, 199, 200, 201, 202, 450),
        fc.constantFrom('\n', '\r\n'),
        fc.constantFrom('}', '', 'v'),
        async (n, x, y, addCount, eol, fill) => {
          const lines = Array.from({ length: n }, (_, k) => (k % 4 === 0 ? `L${k}` : fill));
          let i = x % n;
          let j = y % n;
          if (i > j) [i, j] = [j, i];
          if (i === j) return;
          const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-diff-'));
          try {
            fs.writeFileSync(path.join(dir, 'f.txt'), lines.join(eol) + eol);
            const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), {
              limits: { readMaxLines: 100000, readMaxChars: 10_000_000 },
            });
            const g = new ApprovalToolset(ts, { approve: () => ({ approved: true }) });
            const rd: any = await g.callTool('read_file', { path: '/f.txt', hashes: true });
            const an = rd.data.content
              .replace(/\n$/, '')
              .split('\n')
              .map((l: string) => l.split('|')[0]);
            const content = Array.from({ length: addCount }, (_, k) => (k % 3 ? fill : `N${k}`)).join('\n');
            const op =
              addCount === 0
                ? { op: 'delete_range', start_hash: an[i], end_hash: an[j] }
                : { op: 'replace_range', start_hash: an[i], end_hash: an[j], content };
            const res: any = await g.callTool('edit_lines', {
              path: '/f.txt',
              operations: [op],
              sanity: 'off',
            });
            expect(res.ok, res.error?.message).toBe(true);
            const rd2: any = await g.callTool('read_file', { path: '/f.txt', hashes: true });
            const now = rd2.data.content.replace(/\n$/, '').split('\n');
            const text = new Map<number, string>(
              now.map((l: string) => [Number(l.split('#')[0]), l.slice(l.indexOf('|') + 1)]),
            );
            const d: string[] = res.data.diff.split('\n');
            const plus = d.filter((l) => /^\+\d+#/.test(l)).map((l) => Number(/^\+(\d+)/.exec(l)![1]));
            const minus = d.filter((l) => l.startsWith('-') && !l.startsWith('-…'));
            const moreAdd = d.find((l) => l.startsWith('+…'));
            const moreRem = d.find((l) => l.startsWith('-…'));
            const removed = j - i + 1;
            const added = addCount === 0 ? 0 : content.replace(/\n$/, '').split('\n').length; // a trailing newline ends the last line
            // the region has at most `removed` removed and `added` added lines (a diff may keep equal ones)
            const shownAdd = plus.length + (moreAdd ? Number(/(\d+) more/.exec(moreAdd)![1]) : 0);
            const shownRem = minus.length + (moreRem ? Number(/(\d+) more/.exec(moreRem)![1]) : 0);
            expect(shownAdd - shownRem).toBe(added - removed);
            if (moreAdd) {
              const m = /\+… (\d+) more added lines \(lines (\d+)–(\d+);/.exec(moreAdd)!;
              expect(m, moreAdd).not.toBeNull();
              const [, cnt, A, B] = m.map(Number);
              expect(B! - A! + 1).toBe(cnt);
              expect(plus).toContain(A! - 1);
              expect(plus).toContain(B! + 1);
              expect(plus.filter((p) => p >= A! && p <= B!)).toEqual([]);
              expect(plus.filter((p) => p < A!).length).toBe(100);
              expect(plus.filter((p) => p > B!).length).toBe(100);
            } else expect(plus.length).toBeLessThanOrEqual(200);
            if (moreRem) expect(minus.length).toBe(200);
            for (const l of d) {
              const m = /^[ +](\d+)#([0-9a-f]+)\|(.*)$/.exec(l);
              if (m) expect(text.get(Number(m[1])), l).toBe(m[3]);
            }
          } finally {
            fs.rmSync(dir, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 120 },
    );
  }, 300_000);
});
