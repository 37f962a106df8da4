import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { tempDir } from '../helpers/temp-project.js';

// Promise 3: hashed reads are the same whoever computed them (one process-wide cache keyed by
// content SHA-256), and edit_lines lands on the line the model read or refuses.
// Oracle: a child process (brand-new cache) reading the same bytes.

const WORKER = path.join(import.meta.dirname, 'rt53-cold-worker.ts');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const keep: string[] = [];
afterAll(() => {
  for (const d of keep) fs.rmSync(d, { recursive: true, force: true });
});

function cold(
  dir: string,
  reads: { path: string; offset?: number; limit?: number }[],
  edits: unknown[] = [],
) {
  const jobFile = path.join(dir, 'job.json');
  fs.writeFileSync(jobFile, JSON.stringify({ dir, reads, edits }));
  const out = execFileSync(process.execPath, ['--import', 'tsx', WORKER, jobFile], {
    cwd: path.join(import.meta.dirname, '..', '..'),
    maxBuffer: 1 << 28,
  });
  fs.rmSync(jobFile);
  return JSON.parse(out.toString()) as { reads: unknown[]; edits: unknown[] };
}

const LINES = [
  '}',
  '',
  '  x = 1;',
  '  x = 1;  ',
  '\tx = 1;',
  'é',
  '日本語',
  '😀 y',
  'a\rb',
  'p\u2028q',
  'if (a) {',
  '  return x;',
];
const EOLS = ['\n', '\r\n'];

const fileArb = fc.record({
  lines: fc.array(fc.tuple(fc.constantFrom(...LINES), fc.constantFrom(...EOLS)), {
    minLength: 1,
    maxLength: 30,
  }),
  bom: fc.boolean(),
  finalEol: fc.boolean(),
  tag: fc.boolean(),
});
type FileSpec = { lines: [string, string][]; bom: boolean; finalEol: boolean; tag: boolean };

let tagN = 0;
function build(spec: FileSpec): Buffer {
  const parts: string[] = spec.bom ? ['\uFEFF'] : [];
  if (spec.tag) parts.push(`// tag ${process.pid} ${tagN++} ${Date.now()}${spec.lines[0]![1]}`);
  spec.lines.forEach(([l, e], i) => {
    parts.push(l);
    if (i < spec.lines.length - 1 || spec.finalEol) parts.push(e);
  });
  return Buffer.from(parts.join(''), 'utf8');
}

const toModel = (b: Buffer) => {
  let t = b.toString('utf8');
  if (t.charCodeAt(0) === 0xfeff) t = t.slice(1);
  return t.replaceAll('\r\n', '\n');
};
const modelLines = (b: Buffer) => {
  const t = toModel(b);
  if (t === '') return [];
  const ls = t.split('\n');
  if (t.endsWith('\n')) ls.pop();
  return ls;
};
const blockLines = (content: string) => {
  const lf = content.replaceAll('\r\n', '\n');
  return (lf.endsWith('\n') ? lf.slice(0, -1) : lf).split('\n');
};
const same = (a: string, b: string) => a.trimEnd() === b.trimEnd();
const eqArr = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

const action = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('read' as const),
      t: fc.nat(),
      file: fc.nat(),
      page: fc.option(fc.tuple(fc.nat(20), fc.integer({ min: 1, max: 6 }))),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('lines' as const),
      t: fc.nat(),
      file: fc.nat(),
      op: fc.constantFrom(
        'replace_line',
        'insert_after',
        'insert_before',
        'delete_line',
        'replace_range',
        'delete_range',
      ),
      a: fc.nat(),
      b: fc.nat(),
      content: fc.constantFrom('NEW', '}', '', 'x\ny', 'é\r\n', 'z\n\n', '  x = 1;'),
      withLine: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      t: fc.nat(),
      file: fc.nat(),
      line: fc.nat(),
      rep: fc.constantFrom('E1', '', 'e\r\nf', '}'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('write' as const), t: fc.nat(), file: fc.nat(), spec: fileArb }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('patch' as const),
      t: fc.nat(),
      file: fc.nat(),
      line: fc.nat(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('foreign' as const), t: fc.nat(), file: fc.nat(), a: fc.nat() }),
  },
);

interface Tool {
  name: string;
  ts: FileSystemToolset;
  dir: string;
  prefix: string;
  ro: boolean;
  staged: boolean;
}

describe('rt53 shared line-hash cache under interleavings', () => {
  it('every hashed read equals a fresh process read; edit_lines lands on the read line or refuses', async () => {
    const oracleDir = tempDir({}, { keep: true });
    keep.push(oracleDir);
    const reads: { path: string; offset?: number; limit?: number }[] = [];
    const expected: { content: string; log: string[]; bytes: string }[] = [];
    const foreign: { path: string; readFirst: boolean; operations: unknown[] }[] = [];
    const foreignGot: { got: unknown; log: string[] }[] = [];
    const byBytes = new Map<string, string>();
    const oracleName = (b: Buffer) => {
      const k = sha(b);
      let name = byBytes.get(k);
      if (!name) {
        name = `/o${byBytes.size}.txt`;
        byBytes.set(k, name);
        fs.writeFileSync(path.join(oracleDir, name), b);
      }
      return name;
    };
    const landingFailures: string[] = [];
    const stats: Record<string, number> = {};
    const bump = (k: string) => {
      stats[k] = (stats[k] ?? 0) + 1;
    };
    const uniqFailures: string[] = [];

    await fc.assert(
      fc.asyncProperty(fileArb, fc.array(action, { minLength: 4, maxLength: 40 }), async (spec, actions) => {
        const base = build(spec);
        const flipEol = Buffer.from(
          base.toString('utf8').includes('\r\n')
            ? base.toString('utf8').replaceAll('\r\n', '\n')
            : base.toString('utf8').replaceAll('\n', '\r\n'),
        );
        const flipBom = base[0] === 0xef ? base.subarray(3) : Buffer.concat([Buffer.from('\uFEFF'), base]);
        const d1 = tempDir({ 'a.txt': base, 'b.txt': base, 'c.txt': flipEol, 'd.txt': flipBom });
        const d2 = tempDir({ 'a.txt': base, 'sub/c.txt': flipEol });
        const files = ['a.txt', 'a.txt', 'b.txt', 'c.txt', 'd.txt'];
        const rw1 = Sandbox.fromDirectory(d1, { mode: 'rw' });
        const tools: Tool[] = [
          { name: 'A', ts: new FileSystemToolset(rw1), dir: d1, prefix: '', ro: false, staged: false },
          {
            name: 'B',
            ts: new FileSystemToolset(Sandbox.fromDirectory(d1, { mode: 'rw' })),
            dir: d1,
            prefix: '',
            ro: false,
            staged: false,
          },
          {
            name: 'R',
            ts: new FileSystemToolset(Sandbox.fromDirectory(d1, { mode: 'ro' })),
            dir: d1,
            prefix: '',
            ro: true,
            staged: false,
          },
          {
            name: 'D2',
            ts: new FileSystemToolset(Sandbox.fromDirectory(d2, { mode: 'rw' })),
            dir: d2,
            prefix: '',
            ro: false,
            staged: false,
          },
          {
            name: 'M',
            ts: new FileSystemToolset(
              new Sandbox({ mounts: [{ hostPath: d1, mountPoint: '/m', mode: 'rw' }] }),
            ),
            dir: d1,
            prefix: '/m',
            ro: false,
            staged: false,
          },
          {
            name: 'S',
            ts: new FileSystemToolset(Sandbox.fromDirectory(d1, { mode: 'rw' }), { staging: true }),
            dir: d1,
            prefix: '',
            ro: false,
            staged: true,
          },
        ];
        const fileOf = (t: Tool, n: number) =>
          t.dir === d2 ? ['a.txt', 'sub/c.txt'][n % 2]! : files[n % files.length]!;
        const view = (t: Tool, f: string): Buffer | undefined => {
          if (t.staged) {
            const e = t.ts.staging!.changeSet().files.find((x) => x.path === `/${f}`);
            if (e) return e.staged.exists ? Buffer.from(e.staged.text ?? '', 'utf8') : undefined;
          }
          const p = path.join(t.dir, f);
          return fs.existsSync(p) ? fs.readFileSync(p) : undefined;
        };
        // Last hashed read per (toolset, file): bytes and anchor lines shown.
        const held = new Map<
          string,
          { bytes: Buffer; lines: { no: number; anchor: string; text: string }[] }
        >();
        const seen = new Set<string>(); // (toolset,file) pairs that ever read/edited
        const log: string[] = [`spec ${JSON.stringify(spec)}`];
        const heldBy = new Map<string, { t: Tool; f: string }>();
        for (const act of actions) {
          let t = tools[act.t % tools.length]!;
          let f = fileOf(t, act.file);
          if (act.kind === 'lines' && heldBy.size > 0) {
            // Mostly edit where a read was made (any toolset that holds one).
            const pick = [...heldBy.values()][act.t % heldBy.size]!;
            t = pick.t;
            f = pick.f;
          }
          const vp = `${t.prefix}/${f}`;
          const key = `${t.name}:${t.dir}:${f}`;
          const before = view(t, f);
          if (act.kind === 'read') {
            const args: Record<string, unknown> = { path: vp, hashes: true };
            if (act.page) Object.assign(args, { offset: act.page[0] + 1, limit: act.page[1] });
            const r = await t.ts.callTool('read_file', args);
            log.push(`${t.name} read ${vp} ${JSON.stringify(act.page)} -> ${r.ok ? 'ok' : r.error.code}`);
            if (!r.ok) {
              expect(['invalid_argument', 'not_found']).toContain(r.error.code);
              continue;
            }
            seen.add(key);
            const d = r.data as { content: string; sha256: string };
            expect(d.sha256).toBe(sha(before!));
            const name = oracleName(before!);
            reads.push({ path: name, ...(act.page ? { offset: act.page[0] + 1, limit: act.page[1] } : {}) });
            expected.push({
              content: d.content,
              log: [...log],
              bytes: JSON.stringify(before!.toString('utf8')),
            });
            const lines =
              d.content === ''
                ? []
                : d.content.split('\n').map((l) => {
                    const bar = l.indexOf('|');
                    const anchor = l.slice(0, bar);
                    return { no: Number(anchor.split('#')[0]), anchor, text: l.slice(bar + 1) };
                  });
            const anchors = lines.map((l) => l.anchor.split('#')[1]);
            if (new Set(anchors).size !== anchors.length)
              uniqFailures.push(`${d.content}\n${log.join('\n')}`);
            held.set(key, { bytes: before!, lines });
            heldBy.set(key, { t, f });
            continue;
          }
          if (act.kind === 'lines') {
            const h = held.get(key);
            if (!h || h.lines.length === 0) continue;
            const L = h.lines[act.a % h.lines.length]!;
            const M = h.lines[act.b % h.lines.length]!;
            const range = act.op === 'replace_range' || act.op === 'delete_range';
            if (range && L.no === M.no) continue;
            const op: Record<string, unknown> = range
              ? {
                  op: act.op,
                  start_hash: `${L.no}#${L.anchor.split('#')[1]}`,
                  end_hash: `${M.no}#${M.anchor.split('#')[1]}`,
                }
              : { op: act.op, hash: act.withLine ? L.anchor : L.anchor.split('#')[1] };
            if (act.op !== 'delete_line' && act.op !== 'delete_range') op.content = act.content;
            const r = await t.ts.callTool('edit_lines', { path: vp, operations: [op], sanity: 'off' });
            log.push(`${t.name} edit_lines ${vp} ${JSON.stringify(op)} -> ${r.ok ? 'ok' : r.error.code}`);
            bump(`lines:${r.ok ? 'ok' : r.error.code}`);
            if (!r.ok) {
              expect(r.error.code).not.toBe('io_error');
              continue;
            }
            seen.add(key);
            const after = view(t, f)!;
            const old = modelLines(before!);
            const now = modelLines(after);
            const block = act.op.startsWith('delete') ? [] : blockLines(act.content);
            const [lo, hi] = L.no <= M.no ? [L, M] : [M, L];
            const candidates: string[][] = [];
            for (let k = 0; k < old.length; k++) {
              if (range) {
                if (!same(old[k]!, lo.text)) continue;
                for (let j = k + 1; j < old.length; j++)
                  if (same(old[j]!, hi.text))
                    candidates.push([...old.slice(0, k), ...block, ...old.slice(j + 1)]);
                continue;
              }
              if (!same(old[k]!, L.text)) continue;
              const at = act.op === 'insert_after' ? k + 1 : k;
              const cut = act.op === 'replace_line' || act.op === 'delete_line' ? 1 : 0;
              candidates.push([...old.slice(0, at), ...block, ...old.slice(at + cut)]);
            }
            const unchanged = sha(before!) === sha(h.bytes);
            let want: string[] | undefined;
            if (unchanged) {
              const k = (range ? lo.no : L.no) - 1;
              if (range) want = [...old.slice(0, k), ...block, ...old.slice(hi.no)];
              else {
                const at = act.op === 'insert_after' ? k + 1 : k;
                const cut = act.op === 'replace_line' || act.op === 'delete_line' ? 1 : 0;
                want = [...old.slice(0, at), ...block, ...old.slice(at + cut)];
              }
            }
            // Empty-last-line subtleties: compare with a trailing empty line ignored.
            const norm = (a: string[]) => {
              // An empty last line without a line end is no line (documented phantom): ignore trailing empties.
              let k = a.length;
              while (k > 0 && a[k - 1] === '') k--;
              return a.slice(0, k);
            };
            const okLanding = want
              ? eqArr(norm(want), norm(now))
              : candidates.some((c) => eqArr(norm(c), norm(now)));
            if (!okLanding)
              landingFailures.push(
                `${unchanged ? 'UNCHANGED' : 'changed'} op=${JSON.stringify(op)}\nold=${JSON.stringify(old)}\nnow=${JSON.stringify(now)}\nwant=${JSON.stringify(want)}\n${log.join('\n')}`,
              );
            // The result's diff anchors are shown too; the next edit uses a fresh read anyway.
            continue;
          }
          if (act.kind === 'edit') {
            if (!before) continue;
            const old = modelLines(before);
            const line = old[act.line % Math.max(1, old.length)];
            if (!line) continue;
            const r = await t.ts.callTool('edit_file', {
              path: vp,
              old_string: line,
              new_string: act.rep,
              replace_all: true,
            });
            log.push(
              `${t.name} edit_file ${vp} ${JSON.stringify(line)}->${JSON.stringify(act.rep)} -> ${r.ok ? 'ok' : r.error.code}`,
            );
            if (!r.ok) expect(r.error.code).not.toBe('io_error');
            continue;
          }
          if (act.kind === 'write') {
            const content = build(act.spec).toString('utf8');
            const r = await t.ts.callTool('write_file', { path: vp, content });
            log.push(`${t.name} write ${vp} ${JSON.stringify(content)} -> ${r.ok ? 'ok' : r.error.code}`);
            if (!r.ok) expect(r.error.code).not.toBe('io_error');
            continue;
          }
          if (act.kind === 'patch') {
            if (!before) continue;
            const oldT = toModel(before);
            const ls = oldT.split('\n');
            const k = act.line % ls.length;
            ls.splice(k, 1, 'PATCHED');
            const patch = createTwoFilesPatch(vp, vp, oldT, ls.join('\n'));
            const r = await t.ts.callTool('patch_file', {
              path: vp,
              unified_diff: patch,
              base_sha256: sha(before),
            });
            log.push(`${t.name} patch ${vp} line ${k} -> ${r.ok ? 'ok' : r.error.code}`);
            if (!r.ok) expect(r.error.code).not.toBe('io_error');
            continue;
          }
          if (act.kind === 'foreign') {
            // A toolset that never showed this file uses an anchor another toolset showed.
            const other = [...held.entries()].find(
              ([k2]) => k2.endsWith(`:${t.dir}:${f}`) && !k2.startsWith(`${t.name}:`),
            );
            if (!other || !before || t.staged || t.ro) continue;
            const fresh = new FileSystemToolset(Sandbox.fromDirectory(t.dir, { mode: 'rw' }));
            const L = other[1].lines[act.a % Math.max(1, other[1].lines.length)];
            if (!L) continue;
            const operations = [{ op: 'replace_line', hash: L.anchor, content: 'FOREIGN' }];
            const r = await fresh.callTool('edit_lines', { path: `/${f}`, operations, dryRun: true });
            foreign.push({ path: oracleName(before), readFirst: false, operations });
            foreignGot.push({
              got: r.ok ? { ok: true, diff: (r.data as { diff?: string }).diff } : { error: r.error.code },
              log: [...log, `foreign ${JSON.stringify(operations)}`],
            });
          }
        }
      }),
      { numRuns: 500 },
    );

    const res = cold(oracleDir, reads, foreign);
    const mismatches: string[] = [];
    res.reads.forEach((c, i) => {
      if (c !== expected[i]!.content)
        mismatches.push(
          `read ${JSON.stringify(reads[i])} bytes=${expected[i]!.bytes}\n got: ${JSON.stringify(expected[i]!.content)}\ncold: ${JSON.stringify(c)}\n${expected[i]!.log.join('\n')}`,
        );
    });
    const foreignMismatch: string[] = [];
    res.edits.forEach((c, i) => {
      const g = foreignGot[i]!.got as { diff?: string };
      const cc = c as { diff?: string };
      // The result diff names the oracle file's path: compare without headers.
      const strip = (x: unknown) => JSON.stringify(x).replace(/\/o\d+\.txt|\/[a-d]\.txt|\/sub\/c\.txt/g, 'P');
      if (strip(g) !== strip(cc))
        foreignMismatch.push(`got ${strip(g)}\ncold ${strip(cc)}\n${foreignGot[i]!.log.join('\n')}`);
    });
    console.log(`reads checked: ${reads.length}, foreign edits: ${foreign.length}`, stats);
    expect(uniqFailures.slice(0, 2)).toEqual([]);
    expect(landingFailures.slice(0, 2)).toEqual([]);
    expect(mismatches.slice(0, 2)).toEqual([]);
    expect(foreignMismatch.slice(0, 2)).toEqual([]);
  });
});
