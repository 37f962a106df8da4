import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';
import { strictHunks } from './diff-harness.js';

type Op = { op: string; i: number; j: number; content: string };

/** Applies non-overlapping ops (original coordinates). Inserts at one gap keep the order given. */
function model(lines: string[], ops: Op[]): string[] | null {
  const c = (s: string) => (s === '' ? [''] : s.replace(/\n$/, '').split('\n'));
  // per original line: before-inserts, replacement (or null = keep), after-inserts
  const before: string[][] = lines.map(() => []);
  const after: string[][] = lines.map(() => []);
  const repl: Array<string[] | null> = lines.map(() => null);
  const touched = new Set<number>();
  for (const o of ops) {
    if (o.op === 'insert_before') before[o.i]!.push(...c(o.content));
    else if (o.op === 'insert_after') after[o.i]!.push(...c(o.content));
    else {
      const j = o.op.endsWith('range') ? o.j : o.i;
      for (let k = o.i; k <= j; k++) {
        if (touched.has(k)) return null;
        touched.add(k);
        repl[k] = [];
      }
      if (!o.op.startsWith('delete')) repl[o.i] = c(o.content);
    }
  }
  const out: string[] = [];
  lines.forEach((l, k) => {
    out.push(...before[k]!, ...(repl[k] ?? [l]), ...after[k]!);
  });
  return out;
}

describe('edit_lines with several operations (adjacent, same line, first/last line)', () => {
  it('lands as a plain model says, payload diff == write', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('}', '', 'a', 'b', 'é'), { minLength: 2, maxLength: 20 }),
        fc.array(
          fc.record({
            op: fc.constantFrom(
              'replace_line',
              'insert_after',
              'insert_before',
              'delete_line',
              'replace_range',
              'delete_range',
            ),
            i: fc.nat(),
            j: fc.nat(),
            content: fc.array(fc.constantFrom('}', '', 'X', 'Y'), { maxLength: 3 }).map((l) => l.join('\n')),
          }),
          { minLength: 2, maxLength: 5 },
        ),
        async (raw, rawOps) => {
          const lines = raw.map((l, k) => (l === 'a' ? `a${k}` : l));
          const n = lines.length;
          const ops = rawOps.map((o) => {
            let i = o.i % n;
            let j = o.j % n;
            if (i > j) [i, j] = [j, i];
            if (o.op.endsWith('range') && i === j) j = Math.min(n - 1, i + 1);
            return { ...o, i, j };
          });
          if (ops.some((o) => o.op.endsWith('range') && o.i === o.j)) return;
          const want = model(lines, ops);
          const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-diff-'));
          try {
            const text = `${lines.join('\n')}\n`;
            fs.writeFileSync(path.join(dir, 'f.txt'), text);
            let shown: any;
            const g = new ApprovalToolset(new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' })), {
              approve: (r) => {
                shown = structuredClone(r.payload);
                return { approved: true };
              },
            });
            const rd: any = await g.callTool('read_file', { path: '/f.txt', hashes: true });
            const an: string[] = rd.data.content
              .replace(/\n$/, '')
              .split('\n')
              .map((l: string) => l.split('|')[0]);
            const toolOps = ops.map((o) => {
              const t: any = { op: o.op };
              if (o.op.endsWith('range')) Object.assign(t, { start_hash: an[o.i], end_hash: an[o.j] });
              else t.hash = an[o.i];
              if (!o.op.startsWith('delete')) t.content = o.content;
              return t;
            });
            const res: any = await g.callTool('edit_lines', {
              path: '/f.txt',
              operations: toolOps,
              sanity: 'off',
            });
            const afterText = fs.readFileSync(path.join(dir, 'f.txt'), 'utf8');
            if (!res.ok) {
              expect(afterText).toBe(text);
              // overlapping ops may be refused; non-overlapping ones should not be
              if (want !== null && res.error.code !== 'invalid_argument')
                throw new Error(`${res.error.code}: ${res.error.message}`);
              return;
            }
            expect(
              want,
              `tool accepted overlapping ops: ${JSON.stringify(ops)} -> ${JSON.stringify(afterText)}`,
            ).not.toBeNull();
            const wantText = want!.length === 0 ? '' : `${want!.join('\n')}\n`;
            expect(afterText, JSON.stringify({ lines, ops })).toBe(wantText);
            if (!shown.diffCoarse) {
              expect(applyPatch(text, shown.unifiedDiff, { autoConvertLineEndings: false } as any)).toBe(
                afterText,
              );
              expect(strictHunks(text, shown.unifiedDiff)).toEqual([]);
            }
          } finally {
            fs.rmSync(dir, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 300 },
    );
  }, 300_000);
});
