// rt45: generated sequences with a SECOND toolset on the same directory and writes from a separate OS
// process (child_process), while toolset 1 holds anchors from every surface it showed (whole reads, pages,
// edit_lines result diffs, multi-op calls). Each line carries a hidden id. Oracle for a successful call:
// every edited line is the line its anchor's surface showed (by id), or the line an LCS forces the shown line
// to (an outside change cannot tell identical lines apart), or the line the NEWEST surface showing the exact
// same string showed it for (documented: newest wins). Otherwise it must be refused (anchor_*), file unchanged.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { tempDir } from '../helpers/temp-project.js';

interface Line {
  id: number;
  text: string;
}
type Step =
  | { k: 'whole' }
  | { k: 'page'; at: number; n: number }
  | {
      k: 'other';
      how: 'edit_lines' | 'write_file' | 'process';
      what: 'copy' | 'del' | 'fresh' | 'dupOver';
      at: number;
      from: number;
    }
  | { k: 'edit'; picks: number[]; surface: number };

function forcedImage(a: string[], b: string[], i: number): number | null {
  const n = a.length,
    m = b.length;
  const pre = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let x = 1; x <= n; x++)
    for (let y = 1; y <= m; y++)
      pre[x]![y] =
        a[x - 1] === b[y - 1] ? pre[x - 1]![y - 1]! + 1 : Math.max(pre[x - 1]![y]!, pre[x]![y - 1]!);
  const suf = Array.from({ length: n + 2 }, () => new Array<number>(m + 2).fill(0));
  for (let x = n - 1; x >= 0; x--)
    for (let y = m - 1; y >= 0; y--)
      suf[x]![y] = a[x] === b[y] ? suf[x + 1]![y + 1]! + 1 : Math.max(suf[x + 1]![y]!, suf[x]![y + 1]!);
  const L = pre[n]![m]!;
  for (let y = 0; y <= m; y++) if (pre[i]![y]! + suf[i + 1]![y]! === L) return null;
  const js: number[] = [];
  for (let y = 0; y < m; y++) if (a[i] === b[y] && pre[i]![y]! + 1 + suf[i + 1]![y + 1]! === L) js.push(y);
  return js.length === 1 ? js[0]! : null;
}

const ALPHA = ['}', '  return 1;', 'a();', 'b();', '', '// x1', '// x2', '// x3'];
const nat = fc.nat(300);
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.constant({ k: 'whole' as const }), weight: 1 },
  {
    arbitrary: fc.record({ k: fc.constant('page' as const), at: nat, n: fc.integer({ min: 1, max: 5 }) }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      k: fc.constant('other' as const),
      how: fc.constantFrom('edit_lines' as const, 'write_file' as const, 'process' as const),
      what: fc.constantFrom('copy' as const, 'del' as const, 'fresh' as const, 'dupOver' as const),
      at: nat,
      from: nat,
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      k: fc.constant('edit' as const),
      picks: fc.array(nat, { minLength: 1, maxLength: 3 }),
      surface: nat,
    }),
    weight: 5,
  },
);

async function run(init: string[], steps: Step[]): Promise<string | null> {
  let next = 0;
  const mk = (text: string): Line => ({ id: next++, text });
  let model: Line[] = init.map(mk);
  const dir = tempDir({ 'f.txt': `${model.map((l) => l.text).join('\n')}\n` });
  const file = path.join(dir, 'f.txt');
  const t1 = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
  const t2 = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
  const render = () => `${model.map((l) => l.text).join('\n')}\n`;
  const surfaces: { anchors: { anchor: string; id: number; pos: number }[]; text: string[]; seq: number }[] =
    [];
  const log: string[] = [`init ${JSON.stringify(init)}`];
  const push = (anchors: string[], seq = surfaces.length) =>
    surfaces.push({
      anchors: anchors.map((a) => ({
        anchor: a,
        pos: Number(a.split('#')[0]) - 1,
        id: model[Number(a.split('#')[0]) - 1]!.id,
      })),
      text: model.map((l) => l.text),
      seq,
    });
  const readT1 = async (offset?: number, limit?: number) => {
    const r: any = await t1.callTool('read_file', {
      path: '/f.txt',
      hashes: true,
      ...(offset ? { offset, limit } : {}),
    });
    if (!r.ok) throw new Error(r.error.message);
    push((r.data.content as string).split('\n').map((l) => l.slice(0, l.indexOf('|'))));
  };
  await readT1();
  let fresh = 0;
  for (const s of steps) {
    if (model.length < 3) break;
    if (s.k === 'whole') {
      await readT1();
      log.push('t1 whole read');
      continue;
    }
    if (s.k === 'page') {
      const at = s.at % model.length;
      await readT1(at + 1, s.n);
      log.push(`t1 page ${at + 1}+${s.n}`);
      continue;
    }
    if (s.k === 'other') {
      const at = s.at % model.length;
      const src = model[s.from % model.length]!;
      const m2 = model.slice();
      if (s.what === 'copy') m2.splice(at, 0, mk(src.text));
      else if (s.what === 'del') m2.splice(at, 1);
      else if (s.what === 'fresh') m2[at] = mk(`// f${fresh++}`);
      else {
        if (src.text === m2[at]!.text) continue;
        m2[at] = mk(src.text);
      }
      const content = `${m2.map((l) => l.text).join('\n')}\n`;
      if (s.how === 'edit_lines') {
        // toolset 2 reads and edits with its own anchors (line `at` of its read).
        const r2: any = await t2.callTool('read_file', { path: '/f.txt', hashes: true });
        const a2 = (r2.data.content as string).split('\n').map((l: string) => l.slice(0, l.indexOf('|')));
        const op =
          s.what === 'copy'
            ? { op: 'insert_before', hash: a2[at], content: src.text }
            : s.what === 'del'
              ? { op: 'delete_line', hash: a2[at] }
              : { op: 'replace_line', hash: a2[at], content: m2[at]!.text };
        const r: any = await t2.callTool('edit_lines', { path: '/f.txt', operations: [op], sanity: 'off' });
        if (!r.ok || fs.readFileSync(file, 'utf8') !== content)
          return `t2 edit failed/mismatch ${JSON.stringify(r.error)}`;
      } else if (s.how === 'write_file') {
        const r: any = await t2.callTool('write_file', { path: '/f.txt', content });
        if (!r.ok) return `t2 write failed ${r.error.message}`;
      } else {
        fs.writeFileSync(`${file}.in`, content);
        execFileSync(process.execPath, [
          '-e',
          `const fs=require('fs');fs.writeFileSync(${JSON.stringify(file)}, fs.readFileSync(${JSON.stringify(`${file}.in`)}))`,
        ]);
        fs.rmSync(`${file}.in`);
      }
      model = m2;
      log.push(`${s.how} ${s.what} at ${at + 1} (from ${src.text})`);
      continue;
    }
    // t1 edit_lines: one or more replace_line ops with anchors of one surface
    const surf = surfaces[s.surface % surfaces.length]!;
    const picks = [...new Set(s.picks.map((p) => p % surf.anchors.length))];
    const chosen = picks.map((p) => surf.anchors[p]!);
    const before = fs.readFileSync(file, 'utf8');
    const ops = chosen.map((c, k) => ({ op: 'replace_line', hash: c.anchor, content: `// E${next}_${k}` }));
    const r: any = await t1.callTool('edit_lines', { path: '/f.txt', operations: ops, sanity: 'off' });
    const what = `t1 replace ${chosen.map((c) => `${c.anchor}(id ${c.id})`).join(', ')} from surface #${surfaces.indexOf(surf)}`;
    log.push(what);
    if (!r.ok) {
      if (!/^anchor_|^invalid_argument$/.test(r.error.code))
        return `${what}: ${r.error.code} ${r.error.message}\n${log.join('\n')}`;
      if (fs.readFileSync(file, 'utf8') !== before) return `${what}: refused but changed\n${log.join('\n')}`;
      log.push(`  refused ${r.error.code}`);
      continue;
    }
    const after = fs.readFileSync(file, 'utf8').split('\n');
    after.pop();
    // which positions changed: lines now `// E…`
    const hits: number[] = [];
    for (let i = 0; i < after.length; i++) if (after[i]!.startsWith(`// E${next}_`)) hits.push(i);
    if (hits.length !== chosen.length || after.length !== model.length)
      return `${what}: odd result\n${log.join('\n')}`;
    for (const i of hits) {
      const k = Number(after[i]!.split('_')[1]);
      const c = chosen[k]!;
      const newest = [...surfaces].reverse().find((sf) => sf.anchors.some((a) => a.anchor === c.anchor))!;
      const newestId = newest.anchors.find((a) => a.anchor === c.anchor)!.id;
      const ok =
        model[i]!.id === c.id ||
        model[i]!.id === newestId ||
        forcedImage(
          surf.text,
          model.map((l) => l.text),
          c.pos,
        ) === i ||
        forcedImage(
          newest.text,
          model.map((l) => l.text),
          newest.anchors.find((a) => a.anchor === c.anchor)!.pos,
        ) === i;
      if (!ok)
        return `${what}: op ${k} hit line ${i + 1} "${model[i]!.text}" (id ${model[i]!.id}); line shown is ${model.findIndex((l) => l.id === c.id) + 1 || 'gone'}\nbefore:\n${before}\n${log.join('\n')}`;
    }
    const keep = model;
    model = after.map((t, i) => (hits.includes(i) ? mk(t) : keep[i]!));
    push([...(r.data.diff as string).matchAll(/^[ +](\d+#[0-9a-f]{6})\|/gm)].map((m) => m[1]!));
    log.push('  ok');
  }
  return null;
}

describe('rt45: two toolsets and another process on one file', () => {
  it('anchors of toolset 1 name the line shown or are refused', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...ALPHA), { minLength: 6, maxLength: 24 }),
        fc.array(step, { minLength: 2, maxLength: 12 }),
        async (init, steps) => {
          expect(await run(init, steps)).toBeNull();
        },
      ),
      {
        numRuns: Number(process.env.RT45_RUNS ?? 120),
        ...(process.env.RT45_SEED ? { seed: Number(process.env.RT45_SEED) } : {}),
      },
    );
  }, 600_000);
});
