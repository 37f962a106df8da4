// rt37: edit_lines with more than 8 anchor lookups (anchors found through lines grouped by hash) must give
// exactly what the same operations give with few lookups: same bytes, same refusals.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { seededRandom } from '../helpers/seeded-rng.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt37-mo-')));
dirs.push(root);
const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw', writeApproval: false }));
let n = 0;

const rng = seededRandom;
const POOL = ['', '', '}', '{', '  foo();', 'foo();', '\tfoo();', 'bar("x");', '  return 1;', '    }', 'end'];
const PREFIX = 10;

async function run(content: string, build: (anchors: string[]) => unknown[], changed?: string) {
  const name = `f${n++}.txt`;
  fs.writeFileSync(path.join(root, name), content);
  const read: any = await ts.callTool('read_file', { path: `/${name}`, hashes: true });
  const anchors = read.data.content
    .split('\n')
    .filter((l: string) => l.includes('|'))
    .map((l: string) => l.split('|')[0]);
  if (changed !== undefined) fs.writeFileSync(path.join(root, name), changed); // changed since the read
  const operations = build(anchors);
  if (operations.length === 0) return undefined; // the target line was the phantom line after a final newline
  const out: any = await ts.callTool('edit_lines', { path: `/${name}`, operations, sanity: 'off' });
  const after = fs.readFileSync(path.join(root, name), 'utf8');
  return out.ok
    ? { ok: true as const, after }
    : { ok: false as const, code: out.error.code as string, after };
}

describe('rt37: edit_lines with many operations behaves as with few', () => {
  it('differential fuzz: 9 prefix operations + target operations == target operations alone', async () => {
    const problems: string[] = [];
    const stats: Record<string, number> = {};
    for (let seed = 1; seed <= 500 && problems.length < 5; seed++) {
      const r = rng(seed);
      const pick = <T>(a: readonly T[]) => a[Math.floor(r() * a.length)]!;
      const body = Array.from({ length: 4 + Math.floor(r() * 14) }, () => pick(POOL));
      const eol = r() < 0.3 ? '\r\n' : '\n';
      const bom = r() < 0.2 ? '\uFEFF' : '';
      const prefix = Array.from({ length: PREFIX }, (_, i) => `prefix line number ${i}`);
      const finalNl = r() < 0.8 ? eol : '';
      const content = bom + [...prefix, ...body].join(eol) + finalNl;
      let changed: string | undefined;
      if (r() < 0.5) {
        const b2 = [...body];
        const at = Math.floor(r() * b2.length);
        const c = r();
        if (c < 0.4) b2.splice(at, 0, pick(POOL));
        else if (c < 0.7) b2.splice(at, 1);
        else b2[at] = `${b2[at]} changed`;
        changed = bom + [...prefix, ...b2].join(eol) + finalNl;
      }
      // target ops on distinct body lines, in random order
      const count = 1 + Math.floor(r() * 3);
      const targets = [
        ...new Set(Array.from({ length: count }, () => PREFIX + Math.floor(r() * body.length))),
      ];
      const forms = targets.map(() => r());
      const kinds = targets.map(() => pick(['replace_line', 'delete_line', 'insert_after', 'insert_before']));
      const target = (anchors: string[]) =>
        targets
          .filter((line) => anchors[line] !== undefined)
          .map((line, k) => {
            const a = anchors[line]!;
            const hash = a.split('#')[1]!;
            const f = forms[k]!;
            const anchor =
              f < 0.4
                ? a
                : f < 0.6
                  ? hash
                  : f < 0.8
                    ? `${line + 3}#${hash}`
                    : `${line + 1}#${hash}|${body[line - PREFIX]}`;
            const op: Record<string, unknown> = { op: kinds[k], hash: anchor };
            if (kinds[k] !== 'delete_line') op.content = `new ${k}`;
            return op;
          });
      const dummies = (anchors: string[]) =>
        Array.from({ length: 9 }, (_, i) => ({
          op: 'replace_line',
          hash: anchors[i],
          content: `PREFIX LINE ${i}`,
        }));
      const few = await run(content, target, changed);
      if (!few) continue;
      const many = (await run(content, (a) => [...dummies(a), ...target(a)], changed))!;
      const k = few.ok ? 'ok' : few.code;
      stats[k] = (stats[k] ?? 0) + 1;
      const expected = few.after.replace(/prefix line number ([0-8])\b/g, (_, i) => `PREFIX LINE ${i}`);
      const same = few.ok ? many.ok && many.after === expected : !many.ok && many.code === few.code;
      if (!same)
        problems.push(
          `seed ${seed}: few=${few.ok ? 'ok' : few.code} many=${many.ok ? 'ok' : many.code}\ncontent=${JSON.stringify(content)}\nops=${JSON.stringify(target(Array.from({ length: 40 }, (_, i) => `${i + 1}#??????`)))}\nfew=${JSON.stringify(expected)}\nmany=${JSON.stringify(many.after)}`,
        );
    }
    console.log(stats);
    expect(problems).toEqual([]);
  }, 60_000);
});
