// Red team (rt30a): hashed reads whose output is over 1 MiB (laid out in a kept, reused buffer), one after
// another, of different files (ASCII, Latin-1 range, CJK, astral/emoji, CRLF, BOM), bigger then smaller,
// interleaved with edit_lines through the approval layer and with outside writes. Promise: the content and
// anchors are always exactly those of the file read (never bytes of an earlier read), and edit_lines with
// those anchors edits exactly the lines shown.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, approveAll, FileSystemToolset, Sandbox } from '../../src/index.js';
import { seededRandom } from '../helpers/seeded-rng.js';

const LIMITS = { readMaxChars: 50_000_000, readMaxLines: 2_000_000, maxReadBytes: 200_000_000 };

const rng = seededRandom;

type Kind = 'ascii' | 'latin' | 'cjk' | 'emoji' | 'crlf' | 'bom' | 'mixed';
const ALPH: Record<Kind, string[]> = {
  ascii: ['alpha', 'beta', 'gamma', '{', '}', '  return x;', 'const y = 1;', '#', '|', '\t'],
  latin: ['café', 'naïve', 'ÿ', 'ß', 'é', 'x', '}', 'à la'],
  cjk: ['漢字', 'かな', '한국어', '文', 'x', '}'],
  emoji: ['😀', '𝔘', '\u{1F468}\u200D\u{1F469}', 'e\u0301', 'x', '}', '\u202e', '\u200b'],
  crlf: ['alpha', 'beta', '}', 'x = 1;'],
  bom: ['alpha', 'beta', '}', 'x = 1;'],
  mixed: ['alpha', '😀', 'é', '}', 'x', '漢'],
};

/** The file's lines as the model sees them (LF, no BOM), and its bytes on disk. */
function makeFile(kind: Kind, lines: number, r: () => number): { model: string[]; disk: string } {
  const pool = ALPH[kind];
  const model: string[] = [];
  for (let i = 0; i < lines; i++) {
    const roll = r();
    if (roll < 0.05) model.push('');
    else if (roll < 0.1) model.push('}');
    else if (roll < 0.13) model.push('  return x;');
    else {
      const n = 2 + Math.floor(r() * 8);
      const parts: string[] = [];
      for (let k = 0; k < n; k++) parts.push(pool[Math.floor(r() * pool.length)]!);
      model.push(`${parts.join(' ')} ${i % 97}`);
    }
  }
  const eol = kind === 'crlf' ? '\r\n' : '\n';
  return { model, disk: `${kind === 'bom' ? '\ufeff' : ''}${model.join(eol)}${eol}` };
}

/** Parses a hashed page: [line number, anchor, text] per line. */
function parse(content: string): Array<[number, string, string]> {
  return content.split('\n').map((l) => {
    const m = /^(\d+)#([0-9a-f]{6})\|/.exec(l);
    if (!m) throw new Error(`bad hashed line: ${JSON.stringify(l.slice(0, 80))}`);
    return [Number(m[1]), `${m[1]}#${m[2]}`, l.slice(m[0].length)];
  });
}

/** Anchors of a file from a fresh toolset, read in small pages (under 1 MiB each: the other layout path). */
async function referenceAnchors(root: string, p: string, total: number): Promise<string[]> {
  const fresh = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'ro' }), { limits: LIMITS });
  const out: string[] = [];
  for (let offset = 1; offset <= total; offset += 3000) {
    const r: any = await fresh.callTool('read_file', { path: p, hashes: true, offset, limit: 3000 });
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    for (const [, a] of parse(r.data.content)) out.push(a);
  }
  return out;
}

const KINDS: Kind[] = ['ascii', 'latin', 'cjk', 'emoji', 'crlf', 'bom', 'mixed'];

describe('big hashed reads in a row, with edits in between', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: every read shows exactly its file; edit_lines edits exactly the lines shown`, async () => {
      const r = rng(seed);
      const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt30-hashed-')));
      const files = new Map<string, { kind: Kind; model: string[] }>();
      KINDS.forEach((kind, i) => {
        const lines = 45_000 + Math.floor(r() * 50_000);
        const f = makeFile(kind, lines, r);
        const p = `/f${i}-${kind}.txt`;
        fs.writeFileSync(path.join(root, p), f.disk);
        files.set(p, { kind, model: f.model });
      });
      const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' }), { limits: LIMITS });
      const g = new ApprovalToolset(ts, { approve: approveAll() });
      const names = [...files.keys()];
      const lastRead = new Map<string, Array<[number, string, string]>>();
      for (let step = 0; step < 40; step++) {
        const p = names[Math.floor(r() * names.length)]!;
        const f = files.get(p)!;
        const action = r();
        if (action < 0.55 || !lastRead.has(p)) {
          const res: any = await g.callTool('read_file', { path: p, hashes: true });
          expect(res.ok, JSON.stringify(res.error)).toBe(true);
          const rows = parse(res.data.content);
          expect(res.data.total_lines).toBe(f.model.length);
          expect(rows.length, `${p} step ${step}`).toBe(f.model.length);
          const bad = rows.findIndex(([n, , text], i) => n !== i + 1 || text !== f.model[i]);
          expect(
            bad,
            `${p} step ${step}: line ${bad + 1} ${JSON.stringify(rows[bad]?.[2]?.slice(0, 60))}`,
          ).toBe(-1);
          expect(res.data.content.length).toBeGreaterThan(1 << 20);
          const ref = await referenceAnchors(root, p, f.model.length);
          const anchors = rows.map(([, a]) => a);
          const diffAt = anchors.findIndex((a, i) => a !== ref[i]);
          expect(diffAt, `${p} step ${step}: anchor of line ${diffAt + 1}`).toBe(-1);
          lastRead.set(p, rows);
        } else if (action < 0.85) {
          // edit_lines with the anchors of this file's last read (other files may have been read since)
          const rows = lastRead.get(p)!;
          const picks = new Set<number>();
          while (picks.size < 3) picks.add(Math.floor(r() * rows.length));
          const sorted = [...picks].sort((a, b) => a - b);
          const ops = sorted.map((i, k) => {
            const op = k === 0 ? 'replace_line' : k === 1 ? 'insert_after' : 'delete_line';
            return op === 'delete_line'
              ? { op, hash: rows[i]![1] }
              : { op, hash: rows[i]![1], content: `EDIT ${step}.${k} é😀 ${p}` };
          });
          const res: any = await g.callTool('edit_lines', { path: p, operations: ops, sanity: 'off' });
          expect(res.ok, `${p} step ${step}: ${JSON.stringify(res.error)}`).toBe(true);
          const m = [...f.model];
          // apply bottom-up: delete (k=2), insert_after (k=1), replace (k=0)
          m.splice(sorted[2]!, 1);
          m.splice(sorted[1]! + 1, 0, `EDIT ${step}.1 é😀 ${p}`);
          m[sorted[0]!] = `EDIT ${step}.0 é😀 ${p}`;
          f.model = m;
          const disk = fs.readFileSync(path.join(root, p), 'utf8');
          const eol = f.kind === 'crlf' ? '\r\n' : '\n';
          expect(
            disk === `${f.kind === 'bom' ? '\ufeff' : ''}${m.join(eol)}${eol}`,
            `${p} step ${step}`,
          ).toBe(true);
          lastRead.delete(p);
        } else {
          // outside write: same length, one line changed in place (same inode)
          const i = Math.floor(r() * f.model.length);
          const line = f.model[i]!;
          const swapped = line.length > 0 ? line.split('').reverse().join('') : line;
          if (swapped === line || /[\ud800-\udfff]/.test(line)) continue;
          f.model[i] = swapped;
          const eol = f.kind === 'crlf' ? '\r\n' : '\n';
          const fd = fs.openSync(path.join(root, p), 'r+');
          fs.writeSync(fd, `${f.kind === 'bom' ? '\ufeff' : ''}${f.model.join(eol)}${eol}`, 0);
          fs.closeSync(fd);
          lastRead.delete(p);
        }
      }
      fs.rmSync(root, { recursive: true, force: true });
    }, 300_000);
  }
});
