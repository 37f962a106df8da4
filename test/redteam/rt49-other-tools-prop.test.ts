// rt49 held: the payload diff of write_file, patch_file and edit_lines, applied strictly to the old
// file, gives the bytes written (CRLF, BOM, no final newline, runs of equal lines, a small diff time
// budget forcing coarse blocks, texts over 64 KiB).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createPatch } from 'diff';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';
import { checkPayload, cleanup, runGated, tempDir } from './rt49-harness.js';

afterEach(cleanup);

describe('rt49 held: write_file / patch_file / edit_lines payload diff is what is written', () => {
  it('write_file over an existing file, up to 240k lines, diff budget 1 ms or 300 ms', async () => {
    const L = fc.constantFrom('}', '', 'a', 'b', ' x', 'x\r', '\u2028', '😀', 'uniq');
    await fc.assert(
      fc.asyncProperty(
        fc.array(L, { minLength: 0, maxLength: 40 }),
        fc.constantFrom(1, 50, 2000, 6000),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom('del', 'ins', 'rep', 'dup'), L), { maxLength: 30 }),
        fc.constantFrom(1, 300),
        fc.boolean(),
        fc.boolean(),
        async (unit, rep, eol, finalNl, bom, edits, budget, uniqify, newFinal) => {
          const lines: string[] = [];
          for (let i = 0; i < rep; i++)
            for (const u of unit) lines.push(u === 'uniq' || (uniqify && i % 3 === 0) ? `${u}${i}` : u);
          const before = (bom ? '\uFEFF' : '') + lines.join(eol) + (finalNl && lines.length ? eol : '');
          const nl = lines.slice();
          for (const [p, op, t] of edits) {
            const at = nl.length ? p % nl.length : 0;
            if (op === 'del') nl.splice(at, 1);
            else if (op === 'ins') nl.splice(at, 0, t);
            else if (op === 'rep') nl[at] = t;
            else nl.splice(at, 0, ...nl.slice(at, at + 5));
          }
          const content = nl.join('\n') + (newFinal ? '\n' : '');
          const r = await runGated(
            before,
            'write_file',
            { content },
            { limits: { diffTimeBudgetMs: budget } },
          );
          const errs = checkPayload(r);
          cleanup();
          expect(errs, JSON.stringify({ unit, rep, eol, finalNl, bom, edits, budget })).toEqual([]);
        },
      ),
      { numRuns: 50, seed: 4903 },
    );
  }, 60_000);

  it('patch_file with a diff made by jsdiff, up to 90k lines', async () => {
    const L = fc.constantFrom('}', '', 'a', 'b', ' x', '\tx', 'x  ', 'uniq');
    await fc.assert(
      fc.asyncProperty(
        fc.array(L, { minLength: 1, maxLength: 30 }),
        fc.constantFrom(1, 20, 400, 3000),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom('del', 'ins', 'rep'), L), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.boolean(),
        async (unit, rep, eol, finalNl, bom, edits, uniqify) => {
          const lines: string[] = [];
          for (let i = 0; i < rep; i++)
            for (const u of unit) lines.push(u === 'uniq' || (uniqify && i % 2 === 0) ? `${u}${i}` : u);
          const lf = lines.join('\n') + (finalNl ? '\n' : '');
          const before = (bom ? '\uFEFF' : '') + lines.join(eol) + (finalNl ? eol : '');
          const nl = lines.slice();
          for (const [p, op, t] of edits) {
            const at = p % Math.max(1, nl.length);
            if (op === 'del') nl.splice(at, 1);
            else if (op === 'ins') nl.splice(at, 0, `${t}new`);
            else nl[at] = `${t}chg`;
          }
          const target = nl.join('\n') + (finalNl ? '\n' : '');
          if (target === lf) return;
          const patch = createPatch('f.txt', lf, target).split('\n').slice(2).join('\n');
          const sha = crypto.createHash('sha256').update(Buffer.from(before, 'utf8')).digest('hex');
          const r = await runGated(before, 'patch_file', { unified_diff: patch, base_sha256: sha });
          const errs = checkPayload(r);
          cleanup();
          expect(errs, JSON.stringify({ unit, rep, eol, finalNl, bom, edits })).toEqual([]);
        },
      ),
      { numRuns: 60, seed: 4904 },
    );
  }, 60_000);

  it('edit_lines with anchors from a hashed read, up to 30k lines', async () => {
    const L = fc.constantFrom('}', '', 'a', 'b', ' x', 'uniq');
    await fc.assert(
      fc.asyncProperty(
        fc.array(L, { minLength: 1, maxLength: 20 }),
        fc.constantFrom(1, 100, 1500),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.boolean(),
        fc.array(
          fc.tuple(
            fc.nat(),
            fc.constantFrom(
              'replace_line',
              'insert_after',
              'insert_before',
              'delete_line',
              'replace_range',
              'delete_range',
            ),
            fc.nat({ max: 4 }),
            fc.constantFrom('', 'z', 'z\n', 'z\ny', '}', 'a\n\n'),
          ),
          { minLength: 1, maxLength: 4 },
        ),
        async (unit, rep, eol, finalNl, bom, ops) => {
          const lines: string[] = [];
          for (let i = 0; i < rep; i++) for (const u of unit) lines.push(u === 'uniq' ? `${u}${i}` : u);
          const before = (bom ? '\uFEFF' : '') + lines.join(eol) + (finalNl ? eol : '');
          const dir = tempDir({ 'f.txt': before });
          const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), {
            limits: { readMaxLines: 100_000, readMaxChars: 10_000_000 },
          });
          let payload: any;
          const g = new ApprovalToolset(ts, {
            approve: (req) => {
              payload = req.payload;
              return { approved: true };
            },
          });
          const rd: any = await g.callTool('read_file', { path: '/f.txt', hashes: true });
          const shown: string[] = rd.data.content.split('\n');
          const used = new Set<number>();
          const operations: any[] = [];
          for (const [p, op, span, content] of ops) {
            const i = p % shown.length;
            const j = Math.min(shown.length - 1, i + span);
            const last = op.endsWith('range') ? j : i;
            let clash = false;
            for (let k = i; k <= last; k++) if (used.has(k)) clash = true;
            if (clash) continue;
            for (let k = i; k <= last; k++) used.add(k);
            const anchor = (k: number) => shown[k]!.split('|')[0];
            if (op.endsWith('range')) {
              if (j === i) continue;
              operations.push({
                op,
                start_hash: anchor(i),
                end_hash: anchor(j),
                ...(op === 'replace_range' ? { content } : {}),
              });
            } else operations.push({ op, hash: anchor(i), ...(op === 'delete_line' ? {} : { content }) });
          }
          if (!operations.length) return;
          const out: any = await g.callTool('edit_lines', { path: '/f.txt', operations, sanity: 'off' });
          const after = fs.readFileSync(path.join(dir, 'f.txt'), 'utf8');
          const errs = checkPayload({ payload, outcome: out, before, after, dir });
          cleanup();
          expect(errs, JSON.stringify({ unit, rep, eol, finalNl, bom, operations })).toEqual([]);
        },
      ),
      { numRuns: 60, seed: 4905 },
    );
  }, 60_000);
});
