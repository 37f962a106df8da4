// rt31: edit_lines fidelity against a simple reference: one or two anchored operations from a fresh hashed read
// on low-entropy files (lone braces, blank lines, twins) with LF / CRLF / mixed endings, BOM and no final
// newline. Lines not touched are kept byte for byte; BOM and final newline presence kept; sha256 = bytes on disk.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { cleanupAll, mkdir, sha, splitLines } from './rt31-harness.js';

afterEach(cleanupAll);
const ATOMS = ['}', '', '  }', '\t}', '} ', 'a', 'x=‘q’', 'x="q"'];

describe('rt31 edit_lines vs reference', () => {
  it('single anchored op on a fresh hashed read', async () => {
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...ATOMS), { minLength: 1, maxLength: 12 }),
        fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
        fc.constantFrom('lf', 'crlf', 'mixed'),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom('replace_line', 'insert_after', 'insert_before', 'delete_line', 'replace_range'),
        fc.nat(),
        fc.nat(),
        async (lines, bits, mode, finalNl, bom, op, i0, i1) => {
          if (failures.length > 6) return;
          const eol = (i: number) =>
            mode === 'lf' ? '\n' : mode === 'crlf' ? '\r\n' : bits[i] ? '\r\n' : '\n';
          let body = '';
          lines.forEach((l, i) => {
            body += l + (i < lines.length - 1 || finalNl ? eol(i) : '');
          });
          const split = splitLines(body);
          if (!split.length) return;
          const text = (bom ? '\uFEFF' : '') + body;
          const root = mkdir('rt31-el-');
          const f = path.join(root, 'f.txt');
          fs.writeFileSync(f, text);
          const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw', writeApproval: false }));
          const r: any = await ts.callTool('read_file', { path: '/f.txt', hashes: true });
          const anchors = String(r.data.content)
            .split('\n')
            .map((l: string) => l.slice(0, l.indexOf('|')));
          const n = split.length;
          const a = i0 % n;
          const b = Math.min(n - 1, a + (i1 % 3));
          if (op === 'replace_range' && a === b) return; // refused by design: use replace_line
          // deleting a last line (no newline) after a blank one: no answer keeps both the blank line and 'no final newline'
          if (
            op === 'delete_line' &&
            a === split.length - 1 &&
            a > 0 &&
            split[a - 1]![0] === '' &&
            split[a]![1] === ''
          )
            return;
          const opArgs =
            op === 'replace_range'
              ? { op, start_hash: anchors[a], end_hash: anchors[b], content: 'NEW' }
              : op === 'delete_line'
                ? { op, hash: anchors[a] }
                : { op, hash: anchors[a], content: 'NEW' };
          const out: any = await ts.callTool('edit_lines', {
            path: '/f.txt',
            operations: [opArgs],
            sanity: 'off',
          });
          const after = fs.readFileSync(f);
          const tag = `${JSON.stringify(text)} ${JSON.stringify(opArgs)} → ${out.ok ? 'ok' : out.error.code} ${JSON.stringify(after.toString())}`;
          if (!out.ok) return void failures.push(`refused a fresh anchor :: ${tag}`);
          if (out.data.sha256 !== sha(after)) failures.push(`sha256 :: ${tag}`);
          const s = after.toString('utf8');
          if (s.startsWith('\uFEFF') !== bom) failures.push(`BOM :: ${tag}`);
          const got = splitLines(s.replace(/^\uFEFF/, ''));
          const C = (x: [string, string]) => x[0];
          // expected contents
          const cont = split.map(C);
          const want = [...cont];
          if (op === 'replace_line') want[a] = 'NEW';
          else if (op === 'insert_after') want.splice(a + 1, 0, 'NEW');
          else if (op === 'insert_before') want.splice(a, 0, 'NEW');
          else if (op === 'delete_line') want.splice(a, 1);
          else want.splice(a, b - a + 1, 'NEW');
          const gotC = got.map(C);
          // a final empty line without newline is no line at all
          const hasFinal = /\n$/.test(body);
          if (want.length && want.at(-1) === '' && !hasFinal) want.pop();
          if (JSON.stringify(gotC) !== JSON.stringify(want))
            return void failures.push(
              `content ${JSON.stringify(gotC)} want ${JSON.stringify(want)} :: ${tag}`,
            );
          if (got.length && (got.at(-1)![1] !== '') !== hasFinal && !(op === 'delete_line' && a === n - 1))
            failures.push(`final newline :: ${tag}`);
          // untouched lines keep their line ends (lines before the op)
          const firstTouched = op === 'insert_after' ? a + 1 : a;
          for (let i = 0; i < Math.min(firstTouched, n) - 1; i++)
            if (got[i]![1] !== split[i]![1]) failures.push(`eol of line ${i + 1} :: ${tag}`);
        },
      ),
      { numRuns: Number(process.env.RT31_RUNS ?? 800), seed: Number(process.env.RT31_SEED ?? 131) },
    );
    expect(failures).toEqual([]);
  }, 300_000);
});
