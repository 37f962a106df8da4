// Red team (rt30b): read_file(hashes: true) anchors on files of many identical lines (blank, "}", twins with
// twin surroundings), CRLF / BOM / mixed line ends, lines cut by readMaxChars, read in pages (offset/limit,
// head, tail), sometimes with another page read in between. Promise: every anchor shown names exactly the
// line shown; edit_lines with it edits exactly that line or refuses.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, approveAll, FileSystemToolset, Sandbox } from '../../src/index.js';

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

const POOL = [
  '',
  '}',
  '  }',
  'x = 1',
  'x = 1',
  'return;',
  '\t',
  ' ',
  'y',
  '{',
  'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  'aaaaaaaaaaaaaaaaaaaa',
];

describe('anchors of paged / cut / CRLF reads name exactly the line shown', () => {
  for (let seed = 1; seed <= Number(process.env.RT_SEEDS ?? 6); seed++) {
    it(`seed ${seed}`, async () => {
      const r = rng(seed * 7919);
      const pick = <T>(a: T[]) => a[Math.floor(r() * a.length)]!;
      const problems: string[] = [];
      for (let trial = 0; trial < 40; trial++) {
        const n = 5 + Math.floor(r() * 40);
        const lines = Array.from({ length: n }, () => pick(POOL));
        const eolKind = pick(['lf', 'crlf', 'mixed']);
        const eols = lines.map(() =>
          eolKind === 'lf' ? '\n' : eolKind === 'crlf' ? '\r\n' : pick(['\n', '\r\n']),
        );
        const bom = r() < 0.3 ? '\uFEFF' : '';
        const finalNl = r() < 0.8;
        const text = bom + lines.map((l, i) => l + (i < n - 1 || finalNl ? eols[i] : '')).join('');
        const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt30b-ap-')));
        fs.writeFileSync(path.join(root, 'f.txt'), text);
        const readMaxChars = pick([10, 30, 50_000]);
        const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' }), {
          limits: { readMaxChars, readMaxLines: 2000 },
        });
        const g = new ApprovalToolset(ts, { approve: approveAll() });
        const shape = pick(['page', 'head', 'tail', 'all']);
        let args: any = { path: '/f.txt', hashes: true };
        if (shape === 'page')
          args = { ...args, offset: 1 + Math.floor(r() * n), limit: 1 + Math.floor(r() * 10) };
        if (shape === 'head') args = { ...args, head: 1 + Math.floor(r() * n) };
        if (shape === 'tail') args = { ...args, tail: 1 + Math.floor(r() * n) };
        const rd: any = await g.callTool('read_file', args);
        if (!rd.ok) {
          fs.rmSync(root, { recursive: true, force: true });
          continue;
        }
        const shown = (rd.data.content as string).split('\n').filter((l) => /^\d+#/.test(l));
        if (shown.length === 0) {
          fs.rmSync(root, { recursive: true, force: true });
          continue;
        }
        const s = pick(shown);
        const m = /^(\d+)#([0-9a-f]+)\|(.*)$/s.exec(s);
        if (!m) {
          problems.push(`unparsable ${JSON.stringify(s)}`);
          fs.rmSync(root, { recursive: true, force: true });
          continue;
        }
        const lineNo = Number(m[1]);
        const shownText = m[3]!;
        const actual = lines[lineNo - 1];
        if (actual === undefined || !actual.startsWith(shownText.replace(/\r$/, '')))
          problems.push(
            `seed ${seed}/${trial}: line ${lineNo} shown ${JSON.stringify(shownText)} is ${JSON.stringify(actual)}`,
          );
        // Sometimes read another page in between (the anchors shown must still name the lines shown).
        if (r() < 0.5)
          await g.callTool('read_file', {
            path: '/f.txt',
            hashes: true,
            offset: 1 + Math.floor(r() * n),
            limit: 3,
          });
        const anchor = `${m[1]}#${m[2]}`;
        const ed: any = await g.callTool('edit_lines', {
          path: '/f.txt',
          sanity: 'off',
          operations: [{ op: 'replace_line', hash: anchor, content: 'EDITED' }],
        });
        const after = fs.readFileSync(path.join(root, 'f.txt'), 'utf8');
        fs.rmSync(root, { recursive: true, force: true });
        const expected =
          bom +
          lines
            .map((l, i) => (i === lineNo - 1 ? 'EDITED' : l) + (i < n - 1 || finalNl ? eols[i] : ''))
            .join('');
        // The edited line may take the file's dominant line end in a mixed file; every other line is byte for byte.
        const chunks = (t: string) => t.match(/[^\n]*\n|[^\n]+$/g) ?? [];
        const same = (a: string, b: string) => {
          const x = chunks(a),
            y = chunks(b);
          return (
            x.length === y.length &&
            x.every((c, i) =>
              i === lineNo - 1 ? c.replace(/\r?\n$/, '') === y[i]!.replace(/\r?\n$/, '') : c === y[i],
            )
          );
        };
        if (ed.ok && !same(after, expected))
          problems.push(
            `seed ${seed}/${trial} ${eolKind} bom=${!!bom} max=${readMaxChars} ${JSON.stringify(args)} anchor ${anchor}: wrote ${JSON.stringify(after)} expected ${JSON.stringify(expected)} from ${JSON.stringify(text)}`,
          );
        if (!ed.ok && after !== text) problems.push(`seed ${seed}/${trial}: refused but changed the file`);
        if (!ed.ok && !/anchor|invalid/.test(ed.error.code))
          problems.push(`seed ${seed}/${trial}: refused with ${ed.error.code}: ${ed.error.message}`);
      }
      expect(problems.slice(0, 5).join('\n\n'), '').toBe('');
    }, 120_000);
  }
});

describe('all operations by anchors shown on twin-heavy files, paged', () => {
  for (let seed = 1; seed <= Number(process.env.RT_SEEDS ?? 6); seed++) {
    it(`ops seed ${seed}`, async () => {
      const r = rng(seed * 104729);
      const pick = <T>(a: T[]) => a[Math.floor(r() * a.length)]!;
      const problems: string[] = [];
      for (let trial = 0; trial < 40; trial++) {
        const n = 4 + Math.floor(r() * 30);
        const lines = Array.from({ length: n }, () => pick(['', '}', 'x', 'x', 'x', '  x', 'end;', '{']));
        const crlf = r() < 0.4;
        const eol = crlf ? '\r\n' : '\n';
        const bom = r() < 0.3 ? '\uFEFF' : '';
        const text = bom + lines.map((l) => l + eol).join('');
        const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt30b-ao-')));
        fs.writeFileSync(path.join(root, 'f.txt'), text);
        const g = new ApprovalToolset(
          new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' }), {
            limits: { readMaxLines: 2000 },
          }),
          { approve: approveAll() },
        );
        const offset = 1 + Math.floor(r() * n);
        const rd: any = await g.callTool('read_file', {
          path: '/f.txt',
          hashes: true,
          offset,
          limit: 1 + Math.floor(r() * 12),
        });
        const shown = (rd.data.content as string)
          .split('\n')
          .filter((l) => /^\d+#/.test(l))
          .map((l) => {
            const m = /^(\d+)#([0-9a-f]+)\|(.*)$/.exec(l)!;
            return { line: Number(m[1]), anchor: `${m[1]}#${m[2]}` };
          });
        if (r() < 0.5)
          await g.callTool('read_file', {
            path: '/f.txt',
            hashes: true,
            offset: 1 + Math.floor(r() * n),
            limit: 2,
          });
        const a = pick(shown);
        const b = pick(shown);
        const [s, e] = a.line <= b.line ? [a, b] : [b, a];
        const op = pick([
          'replace_line',
          'delete_line',
          'insert_after',
          'insert_before',
          'replace_range',
          'delete_range',
        ]);
        let operation: any;
        const exp = [...lines];
        if (op === 'replace_line') {
          operation = { op, hash: a.anchor, content: 'NEW' };
          exp.splice(a.line - 1, 1, 'NEW');
        }
        if (op === 'delete_line') {
          operation = { op, hash: a.anchor };
          exp.splice(a.line - 1, 1);
        }
        if (op === 'insert_after') {
          operation = { op, hash: a.anchor, content: 'NEW' };
          exp.splice(a.line, 0, 'NEW');
        }
        if (op === 'insert_before') {
          operation = { op, hash: a.anchor, content: 'NEW' };
          exp.splice(a.line - 1, 0, 'NEW');
        }
        if (op === 'replace_range') {
          if (s.line === e.line) {
            fs.rmSync(root, { recursive: true, force: true });
            continue;
          }
          operation = { op, start_hash: s.anchor, end_hash: e.anchor, content: 'NEW' };
          exp.splice(s.line - 1, e.line - s.line + 1, 'NEW');
        }
        if (op === 'delete_range') {
          if (s.line === e.line) {
            fs.rmSync(root, { recursive: true, force: true });
            continue;
          }
          operation = { op, start_hash: s.anchor, end_hash: e.anchor };
          exp.splice(s.line - 1, e.line - s.line + 1);
        }
        const ed: any = await g.callTool('edit_lines', {
          path: '/f.txt',
          sanity: 'off',
          operations: [operation],
        });
        const after = fs.readFileSync(path.join(root, 'f.txt'), 'utf8');
        fs.rmSync(root, { recursive: true, force: true });
        const expected = bom + exp.map((l) => l + eol).join('');
        if (ed.ok && after !== expected)
          problems.push(
            `${seed}/${trial} ${JSON.stringify(operation)} on ${JSON.stringify(text)}: got ${JSON.stringify(after)} want ${JSON.stringify(expected)}`,
          );
        if (!ed.ok && after !== text) problems.push(`${seed}/${trial}: refused yet changed`);
        if (!ed.ok)
          problems.push(
            `${seed}/${trial}: refused ${ed.error.code} for ${JSON.stringify(operation)} right after the read: ${ed.error.message.slice(0, 150)}`,
          );
      }
      expect(problems.slice(0, 4).join('\n\n'), '').toBe('');
    }, 120_000);
  }
});
