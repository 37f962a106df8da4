import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

async function setup(text: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-diff-'));
  fs.writeFileSync(path.join(dir, 'f.txt'), text);
  const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), {
    limits: { readMaxLines: 1_000_000, readMaxChars: 50_000_000 },
  });
  const shown: any[] = [];
  const g = new ApprovalToolset(ts, {
    approve: (r) => {
      shown.push(structuredClone(r.payload));
      return { approved: true };
    },
  });
  const file = () => fs.readFileSync(path.join(dir, 'f.txt'), 'utf8');
  return { dir, g, shown, file, done: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

const lineArb = fc.constantFrom('}', '', '  }', 'x', 'x', 'é', '😀', '{');
const opArb = fc.record({
  op: fc.constantFrom(
    'replace_line',
    'insert_after',
    'insert_before',
    'delete_line',
    'replace_range',
    'delete_range',
  ),
  a: fc.nat(),
  b: fc.nat(),
  content: fc.array(lineArb, { minLength: 0, maxLength: 5 }).map((ls) => ls.join('\n')),
  big: fc.constantFrom(0, 0, 0, 250, 1000),
});

function model(
  lines: string[],
  o: { op: string; a: number; b: number; content: string },
  i: number,
  j: number,
): string[] {
  const c = o.content === '' ? [''] : o.content.replace(/\n$/, '').split('\n');
  const out = lines.slice();
  switch (o.op) {
    case 'replace_line':
      out.splice(i, 1, ...c);
      break;
    case 'insert_after':
      out.splice(i + 1, 0, ...c);
      break;
    case 'insert_before':
      out.splice(i, 0, ...c);
      break;
    case 'delete_line':
      out.splice(i, 1);
      break;
    case 'replace_range':
      out.splice(i, j - i + 1, ...c);
      break;
    case 'delete_range':
      out.splice(i, j - i + 1);
      break;
  }
  return out;
}

describe('edit_lines: lands as asked, payload diff == write, result-diff anchors resolve', () => {
  it('random low-entropy files', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(lineArb, { minLength: 2, maxLength: 60 }), opArb, async (ls, o) => {
        const lines = ls.map((l, k) => (l === 'x' ? `x${k % 3}` : l));
        const text = `${lines.join('\n')}\n`;
        const t = await setup(text);
        try {
          const rd: any = await t.g.callTool('read_file', { path: '/f.txt', hashes: true });
          const anchors: string[] = rd.data.content
            .replace(/\n$/, '')
            .split('\n')
            .map((l: string) => l.split('|')[0]);
          let i = o.a % lines.length;
          let j = o.b % lines.length;
          if (i > j) [i, j] = [j, i];
          if (j === i) j = Math.min(lines.length - 1, i + 1);
          if (j === i) return;
          const content = o.big
            ? Array.from({ length: o.big }, (_, k) => (k % 2 ? '}' : '')).join('\n')
            : o.content;
          const op: any = { op: o.op };
          if (o.op.endsWith('range')) Object.assign(op, { start_hash: anchors[i], end_hash: anchors[j] });
          else op.hash = anchors[i];
          if (!o.op.startsWith('delete')) op.content = content;
          const res: any = await t.g.callTool('edit_lines', {
            path: '/f.txt',
            operations: [op],
            sanity: 'off',
          });
          if (!res.ok) {
            if (res.error.code === 'invalid_argument' || res.error.code === 'safety_check_failed') return;
            throw new Error(`refused: ${res.error.code} ${res.error.message}`);
          }
          const expected = `${model(lines, { ...o, content }, i, j).join('\n')}\n`;
          const after = t.file();
          const expectedNorm = expected === '\n' && after === '' ? '' : expected;
          expect(after).toBe(expectedNorm);
          const p = t.shown.at(-1);
          if (!p.diffCoarse)
            expect(applyPatch(text, p.unifiedDiff, { autoConvertLineEndings: false } as any)).toBe(after);
          // every anchor in the result diff resolves to its line
          const afterLines = after.replace(/\n$/, '').split('\n');
          for (const dl of res.data.diff.split('\n')) {
            const m = /^[ +](\d+)#([0-9a-f]+)\|(.*)$/.exec(dl);
            if (!m) continue;
            const n = Number(m[1]);
            expect(afterLines[n - 1]).toBe(m[3]);
            const dry: any = await t.g.callTool('edit_lines', {
              path: '/f.txt',
              operations: [{ op: 'replace_line', hash: `${m[1]}#${m[2]}`, content: 'MARK' }],
              sanity: 'off',
              dryRun: true,
            });
            if (!dry.ok)
              throw new Error(
                `anchor ${m[1]}#${m[2]} from result diff refused: ${dry.error.code} ${dry.error.message}`,
              );
            const want = afterLines.slice();
            want[n - 1] = 'MARK';
            const got = applyPatch(after, dry.data.payload.unifiedDiff, {
              autoConvertLineEndings: false,
            } as any);
            expect(got).toBe(`${want.join('\n')}\n`);
          }
        } finally {
          t.done();
        }
      }),
      { numRuns: 150 },
    );
  }, 300_000);
});
