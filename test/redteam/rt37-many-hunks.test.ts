// rt37: patch_file with more than 8 hunks (located through lines grouped by hash) must give exactly what
// the same hunks give with few hunks: same bytes, same refusals. Differential fuzz: a target diff applied
// alone to a file whose 10 prefix lines were already changed, against nine prefix hunks + the target diff
// applied in one call to the file before that change.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EMPTY_SHA256, FileSystemToolset, Sandbox } from '../../src/index.js';
import { seededRandom } from '../helpers/seeded-rng.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt37-mh-')));
dirs.push(root);
const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw', writeApproval: false }));
let n = 0;

async function patch(content: string, diff: string) {
  const name = `f${n++}.txt`;
  fs.writeFileSync(path.join(root, name), content);
  const read: any = await ts.callTool('read_file', { path: `/${name}` });
  const sha = read.ok ? read.data.sha256 : EMPTY_SHA256;
  const out: any = await ts.callTool('patch_file', {
    path: `/${name}`,
    unified_diff: diff,
    base_sha256: sha,
  });
  const after = fs.readFileSync(path.join(root, name), 'utf8');
  return out.ok
    ? { ok: true as const, after }
    : {
        ok: false as const,
        code: out.error.code,
        reason: out.error.details?.reason,
        hunk: out.error.details?.hunk,
        after,
      };
}

const rng = seededRandom;

const POOL = [
  '',
  '',
  '}',
  '{',
  '  foo();',
  'foo();',
  '\tfoo();',
  '    foo();',
  'foo();  ',
  'bar("x");',
  'bar(“x”);',
  '  return 1;',
  '  return 1;\t',
  'x = a - b;',
  'x = a – b;',
  '    }',
  '  }',
  'end',
];
const PREFIX = 10;
const prefixLines = (upper: boolean) =>
  Array.from({ length: PREFIX }, (_, i) => (upper ? `PREFIX LINE NUMBER ${i}` : `prefix line number ${i}`));

function drift(r: () => number, line: string): string {
  const c = r();
  if (c < 0.15) return `${line}  `;
  if (c < 0.25) return `  ${line}`;
  if (c < 0.3) return line.replace(/"/g, '”');
  if (c < 0.35) return line.trimStart();
  return line;
}

function makeCase(seed: number) {
  const r = rng(seed);
  const pick = <T>(a: readonly T[]) => a[Math.floor(r() * a.length)]!;
  const body = Array.from({ length: 4 + Math.floor(r() * 14) }, () => pick(POOL));
  const eol = r() < 0.3 ? '\r\n' : '\n';
  const bom = r() < 0.2 ? '\uFEFF' : '';
  const finalNl = r() < 0.8;
  const file = (upper: boolean) => {
    const lines = [...prefixLines(upper), ...body];
    return bom + lines.join(eol) + (finalNl ? eol : '');
  };
  // target hunks over the body
  const hunks: string[] = [];
  const count = 1 + Math.floor(r() * 2);
  let pos = 0;
  for (let h = 0; h < count; h++) {
    let s = r() < 0.15 ? Math.floor(r() * body.length) : pos + Math.floor(r() * 3);
    if (s >= body.length) s = body.length - 1;
    const len = Math.min(body.length - s, 1 + Math.floor(r() * 4));
    const lines: string[] = [];
    let oldCount = 0;
    let newCount = 0;
    for (let k = s; k < s + len; k++) {
      const c = r();
      if (c < 0.45) {
        lines.push(` ${drift(r, body[k]!)}`);
        oldCount++;
        newCount++;
      } else if (c < 0.75) {
        lines.push(`-${drift(r, body[k]!)}`);
        lines.push(`+${pick(POOL)}NEW${h}`);
        oldCount++;
        newCount++;
      } else if (c < 0.9) {
        lines.push(`-${drift(r, body[k]!)}`);
        oldCount++;
      } else {
        lines.push(` ${body[k]!}`);
        lines.push(`+inserted ${h}`);
        oldCount++;
        newCount += 2;
      }
    }
    if (!lines.some((l) => l[0] !== ' ')) lines.push(`+added ${h}`), newCount++;
    const start = PREFIX + s + 1;
    hunks.push(`@@ -${start},${oldCount} +${start},${newCount} @@\n${lines.join('\n')}`);
    pos = s + len;
  }
  if (r() < 0.1 && hunks.length > 0) hunks.push(hunks[0]!); // a repeated identical hunk
  const prefixHunks = prefixLines(false)
    .slice(0, 9)
    .map((l, i) => `@@ -${i + 1},1 +${i + 1},1 @@\n-${l}\n+${prefixLines(true)[i]}`);
  const head = '--- a/f.txt\n+++ b/f.txt\n';
  return {
    // the reference file has 9 of the 10 prefix lines already changed
    refFile: file(false).replace(/prefix line number ([0-8])\b/g, (_, i) => `PREFIX LINE NUMBER ${i}`),
    refDiff: `${head}${hunks.join('\n')}\n`,
    manyFile: file(false),
    manyDiff: `${head}${[...prefixHunks, ...hunks].join('\n')}\n`,
  };
}

describe('rt37: patch_file with more than 8 hunks behaves as with few', () => {
  it('differential fuzz: 9 prefix hunks + target hunks == target hunks alone', async () => {
    const problems: string[] = [];
    const stats: Record<string, number> = {};
    for (let seed = 1; seed <= 400 && problems.length < 5; seed++) {
      const c = makeCase(seed);
      const few = await patch(c.refFile, c.refDiff);
      const many = await patch(c.manyFile, c.manyDiff);
      const k = few.ok ? 'ok' : String(few.reason);
      stats[k] = (stats[k] ?? 0) + 1;
      const same = few.ok
        ? many.ok && many.after === few.after
        : !many.ok &&
          many.code === few.code &&
          many.reason === few.reason &&
          many.hunk === (few.hunk ?? 0) + 9;
      if (!same)
        problems.push(
          `seed ${seed}: few=${JSON.stringify({ ...few, after: undefined })} many=${JSON.stringify({ ...many, after: undefined })}\n` +
            `file=${JSON.stringify(c.refFile)}\ndiff=${JSON.stringify(c.refDiff)}\nfewAfter=${JSON.stringify(few.after)}\nmanyAfter=${JSON.stringify(many.after)}`,
        );
    }
    expect(problems).toEqual([]);
    expect(Object.keys(stats).length).toBeGreaterThan(2); // both applied and refused patches were tried
    console.log(stats);
  }, 60_000);
});
