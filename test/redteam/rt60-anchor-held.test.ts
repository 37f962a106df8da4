/** rt60: hand-picked edit_lines cases that hold (kept as regression tests). */
import { execFileSync } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  get,
  lcsPlacesMany,
  mkdir,
  parseAnchors,
  put,
  readAll,
  rm,
  rng,
  sourceFile,
  toolset,
} from './rt60-helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(rm));
const fresh = () => {
  const d = mkdir();
  dirs.push(d);
  return d;
};
const op = (a: { line: number; hash: string }, content: string) => ({
  op: 'replace_line',
  hash: `${a.line}#${a.hash}`,
  content,
});

describe('rt60 held', () => {
  it.each([
    [100_000, 500],
    [200_000, 500],
  ])(
    '%i-line source file, 20 external changes, %i operations in one call: each lands where every LCS puts it',
    async (n, ops) => {
      const dir = fresh();
      const lines = sourceFile(n, 60, 0.3, 0.01);
      put(dir, 'f.txt', `${lines.join('\n')}\n`);
      const ts = toolset(dir);
      let t = Date.now();
      const anchors = await readAll(ts, '/f.txt');
      const tRead = Date.now() - t;
      const r = rng(n);
      const now = [...lines];
      for (let q = 0; q < 20; q++) now.splice(r.int(now.length), r.int(2), `  external${q}();`);
      put(dir, 'f.txt', `${now.join('\n')}\n`);
      const targets = new Set<number>();
      while (targets.size < ops) {
        const i = r.int(n);
        if (/[a-z0-9]/i.test(lines[i]!)) targets.add(i);
      }
      const list = [...targets];
      const places = lcsPlacesMany(lines, now, list, 50);
      const sure = list.filter((_, k) => places[k]!.length === 1 && places[k]![0]! >= 0);
      const where = new Map(list.map((i, k) => [i, places[k]![0]!]));
      t = Date.now();
      const out: any = await ts.callTool('edit_lines', {
        path: '/f.txt',
        operations: sure.map((i) => op(anchors[i]!, `EDITED_${i}`)),
        sanity: 'off',
      });
      const tEdit = Date.now() - t;
      console.log(
        `rt60 ${n} lines: read (all pages) ${tRead} ms, edit_lines with ${sure.length} ops ${tEdit} ms`,
      );
      expect(out.ok).toBe(true);
      const after = get(dir, 'f.txt').split('\n');
      for (const i of sure) expect(after[where.get(i)!]).toBe(`EDITED_${i}`);
      expect(after.filter((l) => l.startsWith('EDITED_')).length).toBe(sure.length);
    },
    120_000,
  );

  it('changes 0, 1, 100, 129, 130 and 5000 lines from the anchored line (other lines) leave it followed', async () => {
    const dir = fresh();
    const lines = Array.from({ length: 12_000 }, (_, k) => `  value${k} = compute(${k});`);
    const at = 6000;
    put(dir, 'f.txt', `${lines.join('\n')}\n`);
    const ts = toolset(dir);
    const anchors = await readAll(ts, '/f.txt');
    const now = [...lines];
    // from the end backwards so indices stay valid
    for (const d of [5000, 130, 129, 100, 1]) now.splice(at + d, 1, `  changed${d}();`);
    for (const d of [1, 100, 129, 130, 5000]) now.splice(at - d, 0, `  added${d}();`);
    put(dir, 'f.txt', `${now.join('\n')}\n`);
    const out: any = await ts.callTool('edit_lines', {
      path: '/f.txt',
      operations: [op(anchors[at]!, 'NEW')],
    });
    expect(out.ok).toBe(true);
    expect(get(dir, 'f.txt').split('\n')[at + 5]).toBe('NEW');
  });

  it('a change written by another OS process between the read and the edit is followed', async () => {
    const dir = fresh();
    const lines = sourceFile(3000, 7, 0.35, 0.02);
    put(dir, 'f.txt', `${lines.join('\n')}\n`);
    const ts = toolset(dir);
    const anchors = await readAll(ts, '/f.txt');
    const i = lines.findIndex(
      (l, k) => k > 1500 && /const v/.test(l) && lines.indexOf(l) === lines.lastIndexOf(l),
    );
    execFileSync(process.execPath, [
      '-e',
      `const fs=require('fs');const p=process.argv[1];const l=fs.readFileSync(p,'utf8').split('\\n');l.splice(10,0,'// added by the editor','// and another');fs.writeFileSync(p,l.join('\\n'));`,
      join(dir, 'f.txt'),
    ]);
    const out: any = await ts.callTool('edit_lines', {
      path: '/f.txt',
      operations: [op(anchors[i]!, 'NEW')],
      sanity: 'off',
    });
    expect(out.ok).toBe(true);
    expect(get(dir, 'f.txt').split('\n')[i + 2]).toBe('NEW');
  });

  it('CRLF file without a final newline: the last line, after an external insert, keeps CRLF and no final newline', async () => {
    const dir = fresh();
    const lines = Array.from({ length: 50 }, (_, k) => `row ${k}`);
    put(dir, 'f.txt', lines.join('\r\n'));
    const ts = toolset(dir);
    const anchors = await readAll(ts, '/f.txt');
    put(dir, 'f.txt', ['top', ...lines].join('\r\n'));
    const out: any = await ts.callTool('edit_lines', {
      path: '/f.txt',
      operations: [op(anchors[49]!, 'NEW')],
    });
    expect(out.ok).toBe(true);
    expect(get(dir, 'f.txt')).toBe(['top', ...lines.slice(0, 49), 'NEW'].join('\r\n'));
  });

  it('anchors from pages 1 and 3 of one read, with page 2 changed by the user, all land in one call', async () => {
    const dir = fresh();
    const lines = Array.from({ length: 5000 }, (_, k) =>
      k % 9 === 0 ? '  return result;' : `  x${k} = f(${k});`,
    );
    put(dir, 'f.txt', `${lines.join('\n')}\n`);
    const ts = toolset(dir);
    const p1: any = await ts.callTool('read_file', { path: '/f.txt', hashes: true });
    const p2: any = await ts.callTool('read_file', {
      path: '/f.txt',
      hashes: true,
      offset: p1.data.next_offset,
    });
    const p3: any = await ts.callTool('read_file', {
      path: '/f.txt',
      hashes: true,
      offset: p2.data.next_offset,
    });
    const a1 = parseAnchors(p1.data.content);
    const a3 = parseAnchors(p3.data.content);
    const now = [...lines];
    now.splice(3000, 3, '  user1();', '  user2();', '  user3();', '  user4();'); // one line more
    put(dir, 'f.txt', `${now.join('\n')}\n`);
    const out: any = await ts.callTool('edit_lines', {
      path: '/f.txt',
      operations: [op(a1[1000]!, 'A'), op(a1[1001]!, 'B'), op(a3[500]!, 'C'), op(a3[499]!, 'D')],
      sanity: 'off',
    });
    expect(a1[1000]!.text).toBe('  x1000 = f(1000);');
    expect(out.ok).toBe(true);
    const after = get(dir, 'f.txt').split('\n');
    expect([after[1000], after[1001], after[4501], after[4500]]).toEqual(['A', 'B', 'C', 'D']);
  });

  it('a file replaced by a same-content copy (rename over it): a twin brace is edited exactly', async () => {
    const dir = fresh();
    const lines = Array.from({ length: 300 }, (_, k) => (k % 50 === 0 ? '}' : `line ${k}`));
    put(dir, 'f.txt', `${lines.join('\n')}\n`);
    const ts = toolset(dir);
    const anchors = await readAll(ts, '/f.txt');
    writeFileSync(join(dir, 'copy.tmp'), `${lines.join('\n')}\n`);
    renameSync(join(dir, 'copy.tmp'), join(dir, 'f.txt'));
    const out: any = await ts.callTool('edit_lines', {
      path: '/f.txt',
      operations: [op(anchors[150]!, 'NEW')],
      sanity: 'off',
    });
    expect(out.ok).toBe(true);
    expect(get(dir, 'f.txt').split('\n').indexOf('NEW')).toBe(150);
  });

  it('a block the user cut and pasted 500 lines away: an anchor inside it is refused, nothing changes', async () => {
    const dir = fresh();
    const lines = Array.from({ length: 1000 }, (_, k) => `line ${k}`);
    put(dir, 'f.txt', `${lines.join('\n')}\n`);
    const ts = toolset(dir);
    const anchors = await readAll(ts, '/f.txt');
    const now = [...lines];
    now.splice(600, 0, ...now.splice(100, 10));
    const text = `${now.join('\n')}\n`;
    put(dir, 'f.txt', text);
    const out: any = await ts.callTool('edit_lines', {
      path: '/f.txt',
      operations: [op(anchors[105]!, 'NEW')],
    });
    expect(out.ok).toBe(false);
    expect(out.error.code).toBe('anchor_stale');
    expect(get(dir, 'f.txt')).toBe(text);
  });

  it('read → own edit_lines → external edit → old anchor of a repeated statement: followed', async () => {
    const dir = fresh();
    const lines = Array.from({ length: 400 }, (_, k) => (k % 40 === 0 ? '  return null;' : `  s${k}();`));
    put(dir, 'f.txt', `${lines.join('\n')}\n`);
    const ts = toolset(dir);
    const anchors = await readAll(ts, '/f.txt');
    const own: any = await ts.callTool('edit_lines', {
      path: '/f.txt',
      operations: [
        {
          op: 'insert_after',
          hash: `${anchors[10]!.line}#${anchors[10]!.hash}`,
          content: '  ownA();\n  ownB();',
        },
      ],
    });
    expect(own.ok).toBe(true);
    const cur = get(dir, 'f.txt').split('\n');
    cur.splice(300, 1); // the user deletes a line far below
    put(dir, 'f.txt', cur.join('\n'));
    const out: any = await ts.callTool('edit_lines', {
      path: '/f.txt',
      operations: [op(anchors[200]!, 'NEW')],
    });
    expect(out.ok).toBe(true);
    expect(get(dir, 'f.txt').split('\n').indexOf('NEW')).toBe(202);
  });
});
