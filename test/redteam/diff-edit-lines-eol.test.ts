import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';
import { strictHunks } from './diff-harness.js';

const lineArb = fc.constantFrom(
  '}',
  '',
  'x',
  'é',
  '😀',
  'a\u2028b',
  'c\rd',
  'z\uFEFF',
  '  }',
  `${'w'.repeat(4096)}q`,
);
const eolArb = fc.constantFrom('\n', '\r\n');

describe('edit_lines on CRLF / mixed / BOM / no final newline / lone CR / U+2028 files', () => {
  it('payload diff == write; result-diff anchors name the written lines and resolve', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(lineArb, eolArb), { minLength: 2, maxLength: 40 }),
        fc.boolean(),
        fc.boolean(),
        fc.nat(),
        fc.nat(),
        fc.constantFrom(
          'replace_line',
          'insert_after',
          'insert_before',
          'delete_line',
          'replace_range',
          'delete_range',
        ),
        fc.array(lineArb, { maxLength: 4 }).map((l) => l.join('\n')),
        async (lines, bom, finalNl, x, y, op, content) => {
          let text = (bom ? '\uFEFF' : '') + lines.map(([l, e]) => l + e).join('');
          if (!finalNl) text = text.slice(0, -lines.at(-1)![1].length);
          const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-diff-'));
          try {
            fs.writeFileSync(path.join(dir, 'f.txt'), text);
            const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
            let shown: any;
            const g = new ApprovalToolset(ts, {
              approve: (r) => {
                shown = structuredClone(r.payload);
                return { approved: true };
              },
            });
            const rd: any = await g.callTool('read_file', { path: '/f.txt', hashes: true });
            if (!rd.ok) return;
            const anchors: string[] = rd.data.content
              .replace(/\n$/, '')
              .split('\n')
              .map((l: string) => l.split('|')[0]);
            let i = x % anchors.length;
            let j = y % anchors.length;
            if (i > j) [i, j] = [j, i];
            if (i === j) j = i + 1;
            if (j >= anchors.length) return;
            const o: any = { op };
            if (op.endsWith('range')) Object.assign(o, { start_hash: anchors[i], end_hash: anchors[j] });
            else o.hash = anchors[i];
            if (!op.startsWith('delete')) o.content = content;
            const res: any = await g.callTool('edit_lines', {
              path: '/f.txt',
              operations: [o],
              sanity: 'off',
            });
            if (!res.ok) {
              expect(['invalid_argument']).toContain(res.error.code);
              return;
            }
            const after = fs.readFileSync(path.join(dir, 'f.txt'), 'utf8');
            if (!shown.diffCoarse) {
              expect(applyPatch(text, shown.unifiedDiff, { autoConvertLineEndings: false } as any)).toBe(
                after,
              );
              expect(strictHunks(text, shown.unifiedDiff)).toEqual([]);
            }
            // BOM and untouched-line endings kept
            if (!content.includes('\uFEFF'))
              expect(after.startsWith('\uFEFF')).toBe(text.startsWith('\uFEFF'));
            if (after.replace(/^\uFEFF/, '') === '') return; // covered by the dedicated test below
            const rd2: any = await g.callTool('read_file', { path: '/f.txt', hashes: true });
            // a last line made empty in a file without final newline vanishes: the dedicated test covers it
            if (res.data.lines_after !== rd2.data.total_lines && !text.endsWith('\n')) return;
            const fresh = new Map<number, string>();
            for (const l of rd2.data.content.replace(/\n$/, '').split('\n')) {
              const m = /^(\d+)#([0-9a-f]+)\|(.*)$/s.exec(l);
              if (m) fresh.set(Number(m[1]), m[3]!);
            }
            for (const dl of res.data.diff.split('\n')) {
              const m = /^[ +](\d+)#([0-9a-f]+)\|(.*)$/s.exec(dl);
              if (!m) continue;
              // A line over 1,000 characters is shown shortened (its start and where it changed).
              if (!/\[… [\d,]+ characters …\]/.test(m[3]!))
                expect([m[3], m[1] === '1' ? m[3]!.replace(/^\uFEFF/, '') : m[3]], dl).toContain(
                  fresh.get(Number(m[1])),
                );
              else expect(fresh.get(Number(m[1]))!.length).toBeGreaterThan(1_000);
              const dry: any = await g.callTool('edit_lines', {
                path: '/f.txt',
                operations: [{ op: 'replace_line', hash: `${m[1]}#${m[2]}`, content: 'MARK' }],
                sanity: 'off',
                dryRun: true,
              });
              expect(dry.ok, `${dl}: ${dry.error?.code} ${dry.error?.message}`).toBe(true);
              const d = dry.data.payload.unifiedDiff as string;
              const h = /@@ -(\d+)/.exec(d)!;
              // the MARK replaces line m[1]: first '-' line of the hunk is that line
              let ln = Number(h[1]);
              let hit = -1;
              for (const l of d.split('\n').slice(3)) {
                if (l.startsWith('-')) {
                  hit = ln;
                  break;
                }
                if (l.startsWith(' ')) ln++;
              }
              expect(hit, dl).toBe(Number(m[1]));
            }
          } finally {
            fs.rmSync(dir, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 200 },
    );
  }, 300_000);

  it('making the last line of a file without final newline empty: the line asked for exists and its anchor resolves', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-diff-'));
    try {
      fs.writeFileSync(path.join(dir, 'f.txt'), 'a\nb\nc');
      const g = new ApprovalToolset(new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' })), {
        approve: () => ({ approved: true }),
      });
      const rd: any = await g.callTool('read_file', { path: '/f.txt', hashes: true });
      const an = rd.data.content.split('\n').map((l: string) => l.split('|')[0]);
      const o: any = await g.callTool('edit_lines', {
        path: '/f.txt',
        operations: [{ op: 'replace_line', hash: an[2], content: '' }],
        sanity: 'off',
      });
      expect(o.ok).toBe(true);
      const rd2: any = await g.callTool('read_file', { path: '/f.txt', hashes: true });
      // asked: 3 lines, the last one empty; result says lines_after 3 and '+3#…|'
      expect({ lines_after: o.data.lines_after, diff: o.data.diff }).toMatchObject({
        lines_after: rd2.data.total_lines,
      });
      // An empty last line without a newline is no line: the file is 'a\nb\n' (2 lines) and the result
      // says so (it used to say lines_after 3 and give a '+3#…|' anchor that did not resolve).
      expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe('a\nb\n');
      for (const m of String(o.data.diff).matchAll(/^[ +](\d+#[0-9a-f]+)\|/gm)) {
        const o2: any = await g.callTool('edit_lines', {
          path: '/f.txt',
          operations: [{ op: 'replace_line', hash: m[1], content: 'C' }],
          sanity: 'off',
          dryRun: true,
        });
        expect(o2.ok ? 'ok' : `${o2.error.code}: ${o2.error.message}`).toBe('ok');
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('replacing every line of a file without final newline by "" (one empty line): the result anchor resolves', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-diff-'));
    try {
      fs.writeFileSync(path.join(dir, 'f.txt'), '}\n}');
      const g = new ApprovalToolset(new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' })), {
        approve: () => ({ approved: true }),
      });
      const rd: any = await g.callTool('read_file', { path: '/f.txt', hashes: true });
      const an = rd.data.content.split('\n').map((l: string) => l.split('|')[0]);
      const o: any = await g.callTool('edit_lines', {
        path: '/f.txt',
        operations: [{ op: 'replace_range', start_hash: an[0], end_hash: an[1], content: '' }],
        sanity: 'off',
      });
      expect(o.ok).toBe(true);
      // The file is now empty (0 lines); the result used to say lines_after 1 with a '+1#5db4a5|' anchor
      // for a line that is not there.
      const rd2: any = await g.callTool('read_file', { path: '/f.txt' });
      expect(rd2.data.total_lines).toBe(o.data.lines_after);
      expect(String(o.data.diff)).not.toMatch(/^\+\d+#/m);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
