// Red team rt56, Promise B (held): an anchor from a hashed read (or from an edit_lines result's diff)
// edits the line it named or is refused with anchor_*, through outside writes (fs.writeFileSync) of
// copies, deletions, swaps, duplicated/deleted blocks between several edit_lines calls, on files of
// repeated blocks. Judge: the line's place after each unseen change must be the same in every longest
// common subsequence alignment (else the tool must refuse); own edits are carried exactly.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { tmp, toolsetOn } from './rt56-helpers.js';

type L = { id: number; text: string };
const VOCAB = ['  x = 1;', '  y = 2;', '}', '', 'if (a) {', '  return;', '// note', 'z();'];
const Op = fc.oneof(
  fc.record({ t: fc.constant('copy' as const), src: fc.nat(), at: fc.nat() }),
  fc.record({ t: fc.constant('del' as const), i: fc.nat() }),
  fc.record({ t: fc.constant('swap' as const), i: fc.nat(), j: fc.nat() }),
  fc.record({
    t: fc.constant('dupblock' as const),
    s: fc.nat(),
    n: fc.integer({ min: 1, max: 4 }),
    at: fc.nat(),
  }),
  fc.record({ t: fc.constant('delblock' as const), s: fc.nat(), n: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ t: fc.constant('chg' as const), i: fc.nat() }),
  fc.record({ t: fc.constant('ins' as const), at: fc.nat() }),
);
let nextId = 1000;
function apply(ls: L[], op: any): L[] | undefined {
  const a = ls.slice();
  const n = a.length;
  if (n === 0) return undefined;
  switch (op.t) {
    case 'copy': {
      const s = a[op.src % n]!;
      a.splice(op.at % (n + 1), 0, { id: nextId++, text: s.text });
      return a;
    }
    case 'del': {
      if (n < 2) return undefined;
      a.splice(op.i % n, 1);
      return a;
    }
    case 'swap': {
      const i = op.i % n,
        j = op.j % n;
      if (a[i]!.text === a[j]!.text) return undefined;
      [a[i], a[j]] = [a[j]!, a[i]!];
      return a;
    }
    case 'dupblock': {
      const s = op.s % n;
      const blk = a.slice(s, s + op.n).map((l) => ({ id: nextId++, text: l.text }));
      a.splice(op.at % (n + 1), 0, ...blk);
      return a;
    }
    case 'delblock': {
      if (n - op.n < 1) return undefined;
      a.splice(op.s % n, op.n);
      return a;
    }
    case 'chg': {
      const i = op.i % n;
      a[i] = { id: nextId++, text: `changed ${nextId}` };
      return a;
    }
    case 'ins': {
      a.splice(op.at % (n + 1), 0, { id: nextId++, text: `new ${nextId}` });
      return a;
    }
  }
  return undefined;
}
function lcsTable(a: string[], b: string[]): number[][] {
  const t: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let x = a.length - 1; x >= 0; x--)
    for (let y = b.length - 1; y >= 0; y--)
      t[x]![y] = a[x] === b[y] ? t[x + 1]![y + 1]! + 1 : Math.max(t[x + 1]![y]!, t[x]![y + 1]!);
  return t;
}
function lcsPositions(a: string[], b: string[], i: number): number[] {
  const suf = lcsTable(a, b);
  const pre = lcsTable([...a].reverse(), [...b].reverse());
  const total = suf[0]![0]!;
  const res: number[] = [];
  for (let j = 0; j < b.length; j++) {
    if (a[i] !== b[j]) continue;
    if (pre[a.length - i]![b.length - j]! + 1 + suf[i + 1]![j + 1]! === total) res.push(j);
  }
  for (let j = 0; j <= b.length; j++)
    if (pre[a.length - i]![b.length - j]! + suf[i + 1]![j]! === total) {
      res.push(-1);
      break;
    }
  return res;
}
type Tr = { kind: 'own'; at: number } | { kind: 'out' };
it('edit_lines never lands on a line other than the one named (property)', async () => {
  let breaks = 0,
    strong = 0,
    oks = 0,
    refs = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom(...VOCAB), { minLength: 1, maxLength: 4 }),
      fc.integer({ min: 2, max: 4 }),
      fc.array(
        fc.record({
          ops: fc.array(Op, { maxLength: 2 }),
          src: fc.constantFrom('read', 'read', 'diff'),
          pick: fc.nat(),
          slip: fc.constantFrom(0, 0, 1, -1),
        }),
        { minLength: 1, maxLength: 4 },
      ),
      async (block, reps, steps) => {
        const texts: string[] = [];
        for (let r = 0; r < reps; r++) texts.push(...block);
        let ls: L[] = texts.map((text, i) => ({ id: i, text }));
        const dir = tmp({ 'f.txt': texts.map((t) => t + '\n').join('') });
        const ts = toolsetOn(dir);
        const rd: any = await ts.callTool('read_file', { path: '/f.txt', hashes: true });
        const readAnchors = (rd.data.content as string).split('\n').map((l) => l.split('|')[0]!);
        const versions: string[][] = [texts.slice()];
        const trans: Tr[] = [];
        let diffAnchors: { anchor: string; pos: number; ver: number; id: number }[] = [];
        const readIds = ls.map((l) => l.id);
        let k = 0;
        for (const step of steps) {
          for (const op of step.ops) {
            const n = apply(ls, op);
            if (n) ls = n;
          }
          const cur = ls.map((l) => l.text);
          if (cur.join('\n') !== versions.at(-1)!.join('\n')) {
            fs.writeFileSync(path.join(dir, 'f.txt'), cur.map((t) => t + '\n').join(''));
            versions.push(cur);
            trans.push({ kind: 'out' });
          }
          let anchor: string, pos: number, ver: number, id: number;
          if (step.src === 'diff' && diffAnchors.length) {
            const d = diffAnchors[step.pick % diffAnchors.length]!;
            ({ anchor, pos, ver, id } = d);
          } else {
            pos = step.pick % texts.length;
            anchor = readAnchors[pos]!;
            ver = 0;
            id = readIds[pos]!;
          }
          // believed position now
          let b: number | null = pos;
          for (let t = ver; t < trans.length && b !== null; t++) {
            const tr = trans[t]!;
            if (tr.kind === 'own') {
              if (tr.at === b) b = null;
            } else {
              const S = lcsPositions(versions[t]!, versions[t + 1]!, b);
              b = S.length === 1 && S[0]! >= 0 ? S[0]! : null;
            }
          }
          const [num, hash] = anchor.split('#');
          const content = `EDITED${k++}`;
          const before = fs.readFileSync(path.join(dir, 'f.txt'), 'utf8');
          const r: any = await ts.callTool('edit_lines', {
            path: '/f.txt',
            sanity: 'off',
            operations: [{ op: 'replace_line', hash: `${Number(num) + step.slip}#${hash}`, content }],
          });
          const after = fs.readFileSync(path.join(dir, 'f.txt'), 'utf8');
          if (!r.ok) {
            refs++;
            if (!String(r.error.code).startsWith('anchor_') || after !== before) {
              breaks++;
              console.log('BADREF', r.error.code, r.error.message.slice(0, 100), after === before);
            }
            continue;
          }
          oks++;
          const q = after.split('\n').indexOf(content);
          const idAt = ls[q]?.id;
          const origStill = ls.some((l) => l.id === id);
          const expect = ls.map((l, i) => (i === q ? content : l.text) + '\n').join('');
          if (after !== expect || b !== q) {
            breaks++;
            const isStrong = idAt !== id && origStill;
            if (isStrong) strong++;
            if (breaks < 10 || isStrong)
              console.log(
                'BREAK',
                JSON.stringify({
                  strong: isStrong,
                  texts,
                  versions,
                  trans,
                  anchor: `${Number(num) + step.slip}#${hash}`,
                  src: step.src,
                  pos,
                  ver,
                  believed: b,
                  q,
                  idAt,
                  id,
                }),
              );
            return;
          }
          ls = ls.slice();
          ls[q] = { id: nextId++, text: content };
          const cur2 = ls.map((l) => l.text);
          versions.push(cur2);
          trans.push({ kind: 'own', at: q });
          diffAnchors = [];
          for (const dl of String(r.data.diff).split('\n')) {
            const m = /^[ +]?(\d+)#([0-9a-f]+)\|(.*)$/.exec(dl);
            if (m) {
              const p = Number(m[1]) - 1;
              if (cur2[p] === m[3])
                diffAnchors.push({
                  anchor: `${m[1]}#${m[2]}`,
                  pos: p,
                  ver: versions.length - 1,
                  id: ls[p]!.id,
                });
            }
          }
        }
      },
    ),
    { numRuns: 400, seed: Number(process.env.SEED ?? 5) },
  );
  expect({ breaks, strong }).toEqual({ breaks: 0, strong: 0 });
  expect(oks).toBeGreaterThan(0);
}, 900000);
