// rt43: over-refusals. An anchor from the very latest hashed read (whole or page) of a file nobody changed
// since must be accepted and name the line shown — whatever history came before (outside writes,
// write_file, earlier reads, earlier edit_lines calls). Likewise an anchor from the latest edit_lines result
// diff, and a read's anchor for a line above the last edit (before must_refresh_from_line).
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { tempDir } from '../helpers/temp-project.js';

const ALPHA = ['  return 1;', '}', '', 'a();', 'b();', '// x1', '// x2', '// x3'];
type H =
  | { k: 'outside'; at: number; text: number; insert: boolean }
  | { k: 'page'; at: number; n: number }
  | { k: 'whole' }
  | { k: 'editRead'; at: number };
const hist: fc.Arbitrary<H> = fc.oneof(
  fc.record({
    k: fc.constant('outside' as const),
    at: fc.nat(200),
    text: fc.nat(ALPHA.length - 1),
    insert: fc.boolean(),
  }),
  fc.record({ k: fc.constant('page' as const), at: fc.nat(200), n: fc.integer({ min: 1, max: 5 }) }),
  fc.record({ k: fc.constant('whole' as const) }),
  fc.record({ k: fc.constant('editRead' as const), at: fc.nat(200) }),
);
type Final =
  | { k: 'whole'; pick: number }
  | { k: 'page'; at: number; n: number; pick: number }
  | { k: 'result'; at: number; pick: number }
  | { k: 'above'; at: number; pick: number }
  | { k: 'range'; a: number; b: number; del: boolean };
const final: fc.Arbitrary<Final> = fc.oneof(
  fc.record({ k: fc.constant('whole' as const), pick: fc.nat(200) }),
  fc.record({
    k: fc.constant('page' as const),
    at: fc.nat(200),
    n: fc.integer({ min: 1, max: 6 }),
    pick: fc.nat(200),
  }),
  fc.record({ k: fc.constant('result' as const), at: fc.nat(200), pick: fc.nat(200) }),
  fc.record({ k: fc.constant('above' as const), at: fc.nat(200), pick: fc.nat(200) }),
  fc.record({ k: fc.constant('range' as const), a: fc.nat(200), b: fc.nat(200), del: fc.boolean() }),
);

async function run(init: string[], history: H[], fin: Final, crlf: boolean): Promise<string | null> {
  const lines = init.slice();
  const eol = crlf ? '\r\n' : '\n';
  const render = () => `${lines.join(eol)}${eol}`;
  const dir = tempDir({ 'f.txt': render() });
  const file = path.join(dir, 'f.txt');
  const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
  const log: string[] = [`initial ${JSON.stringify(render())}`];
  const read = async (offset?: number, limit?: number) => {
    const r: any = await ts.callTool('read_file', {
      path: '/f.txt',
      hashes: true,
      ...(offset ? { offset, limit } : {}),
    });
    if (!r.ok) throw new Error(r.error.message);
    return (r.data.content as string).split('\n').map((l) => l.slice(0, l.indexOf('|')));
  };
  let held: string[] = await read();
  log.push('whole read');
  let n = 0;
  for (const h of history) {
    if (h.k === 'outside') {
      const at = h.at % (lines.length + (h.insert ? 1 : 0));
      if (h.insert) lines.splice(at, 0, ALPHA[h.text]!);
      else if (lines.length > 2) lines[at % lines.length] = ALPHA[h.text]!;
      fs.writeFileSync(file, render());
      log.push(`outside ${h.insert ? 'insert' : 'set'} line ${at + 1} ${JSON.stringify(ALPHA[h.text])}`);
    } else if (h.k === 'page') {
      await read((h.at % lines.length) + 1, h.n);
      log.push(`page ${(h.at % lines.length) + 1}+${h.n}`);
    } else if (h.k === 'whole') {
      held = await read();
      log.push('whole read');
    } else {
      const anchor = held[h.at % held.length]!;
      const r: any = await ts.callTool('edit_lines', {
        path: '/f.txt',
        operations: [{ op: 'replace_line', hash: anchor, content: `// e${n++}` }],
        sanity: 'off',
      });
      log.push(`edit_lines ${anchor} → ${r.ok ? 'ok' : r.error.code}`);
      lines.splice(0, lines.length, ...fs.readFileSync(file, 'utf8').split(eol).slice(0, -1));
    }
  }
  // Final: the latest surface, file unchanged since.
  let anchor: string;
  if (fin.k === 'whole') {
    const a = await read();
    anchor = a[fin.pick % a.length]!;
    log.push(`whole read, pick ${anchor}`);
  } else if (fin.k === 'page') {
    const off = (fin.at % lines.length) + 1;
    const a = await read(off, fin.n);
    anchor = a[fin.pick % a.length]!;
    log.push(`page ${off}+${fin.n}, pick ${anchor}`);
  } else if (fin.k === 'range') {
    const a = await read();
    const i = fin.a % a.length;
    const j = fin.b % a.length;
    if (i === j) return null;
    const [lo, hi] = i < j ? [i, j] : [j, i];
    const before = fs.readFileSync(file, 'utf8');
    const r: any = await ts.callTool('edit_lines', {
      path: '/f.txt',
      operations: [
        fin.del
          ? { op: 'delete_range', start_hash: a[lo], end_hash: a[hi] }
          : { op: 'replace_range', start_hash: a[lo], end_hash: a[hi], content: 'FINAL' },
      ],
      sanity: 'off',
    });
    if (!r.ok)
      return `fresh range ${a[lo]}..${a[hi]} refused: ${r.error.code}: ${r.error.message}\nfile: ${JSON.stringify(before)}\n${log.join('\n')}`;
    const want = lines.slice();
    want.splice(lo, hi - lo + 1, ...(fin.del ? [] : ['FINAL']));
    const got = fs.readFileSync(file, 'utf8');
    if (got !== (want.length ? `${want.join(eol)}${eol}` : ''))
      return `fresh range ${a[lo]}..${a[hi]} wrong: ${JSON.stringify(got)}\n${log.join('\n')}`;
    return null;
  } else if (fin.k === 'above') {
    const a = await read();
    const k = fin.at % a.length;
    if (k === 0) return null;
    const r: any = await ts.callTool('edit_lines', {
      path: '/f.txt',
      operations: [{ op: 'replace_line', hash: a[k], content: `// r${n++}` }],
      sanity: 'off',
    });
    log.push(`whole read; edit_lines ${a[k]} → ${r.ok ? 'ok' : r.error.code}`);
    if (!r.ok)
      return `fresh anchor of the latest whole read refused: ${r.error.code}: ${r.error.message}\n${log.join('\n')}`;
    lines.splice(0, lines.length, ...fs.readFileSync(file, 'utf8').split(eol).slice(0, -1));
    anchor = a[fin.pick % k]!;
    log.push(
      `then the read's ${anchor} (above the edit, before must_refresh_from_line ${r.data.must_refresh_from_line})`,
    );
  } else {
    const a = await read();
    const target = a[fin.at % a.length]!;
    const r: any = await ts.callTool('edit_lines', {
      path: '/f.txt',
      operations: [{ op: 'replace_line', hash: target, content: `// r${n++}` }],
      sanity: 'off',
    });
    log.push(`whole read; edit_lines ${target} → ${r.ok ? 'ok' : `${r.error.code} ${r.error.message}`}`);
    if (!r.ok)
      return `fresh anchor of the latest whole read refused: ${r.error.code}: ${r.error.message}\n${log.join('\n')}`;
    lines.splice(0, lines.length, ...fs.readFileSync(file, 'utf8').split(eol).slice(0, -1));
    const res = [...(r.data.diff as string).matchAll(/^[ +](\d+#[0-9a-f]+)\|/gm)].map((m) => m[1]!);
    if (res.length === 0) return null;
    anchor = res[fin.pick % res.length]!;
    log.push(`pick result anchor ${anchor}\n${r.data.diff}`);
  }
  const at = Number(anchor.split('#')[0]) - 1;
  const before = fs.readFileSync(file, 'utf8');
  const r: any = await ts.callTool('edit_lines', {
    path: '/f.txt',
    operations: [{ op: 'replace_line', hash: anchor, content: 'FINAL' }],
    sanity: 'off',
  });
  if (!r.ok)
    return `fresh ${anchor} refused: ${r.error.code}: ${r.error.message}\nfile: ${JSON.stringify(before)}\n${log.join('\n')}`;
  const got = fs.readFileSync(file, 'utf8').split(eol).indexOf('FINAL');
  if (got !== at) return `fresh ${anchor} edited line ${got + 1}\n${log.join('\n')}`;
  return null;
}

describe('rt43: a fresh anchor on an unchanged file is accepted', () => {
  it('latest whole read, page read or result', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...ALPHA), { minLength: 3, maxLength: 25 }),
        fc.array(hist, { maxLength: 10 }),
        final,
        fc.boolean(),
        async (init, history, fin, crlf) => {
          expect(await run(init, history, fin, crlf)).toBeNull();
        },
      ),
      {
        numRuns: Number(process.env.RT43_RUNS ?? 300),
        ...(process.env.RT43_SEED ? { seed: Number(process.env.RT43_SEED) } : {}),
        // Three identical lines: edit line 2, then the read's anchor of line 1 (valid per the result) is refused.
        examples: [
          [['  return 1;', '  return 1;', '  return 1;'], [], { k: 'above', at: 34, pick: 0 }, false],
        ],
      },
    );
  }, 300_000);
});
