// Red team rt57: property over unicode-level edit_file / patch_file requests. Oracle:
//  - every line the model kept (its new line equals an old one that stands for one file text) is the file's bytes;
//  - every changed line, folded (typography → ASCII, whitespace runs collapsed, trimmed), is the model's new line folded;
//  - the lines around the block are untouched, the line count is the model's;
//  - the dry run's unifiedDiff applied to the file gives exactly the bytes written;
//  - (strong, single insertion of fresh letters into one line, neighbours kept) the written line is the file's
//    line with the model's letters inserted at the same place.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyPatch, createTwoFilesPatch } from 'diff';
import fc from 'fast-check';
import { afterEach, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const stats = { ok: 0, strong: 0, err: {} as Record<string, number> };
const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
const CLASSES: Array<[RegExp, string]> = [
  [/[\u2018\u2019\u201A\u201B\u2032\u00B4]/g, "'"],
  [/[\u201C\u201D\u201E\u201F\u2033]/g, '"'],
  [/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, '-'],
  [/\u2026/g, '...'],
  [/[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g, ' '],
];
const fold = (s: string) => CLASSES.reduce((o, [re, a]) => o.replace(re, a), s);
const WS = /[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;
const key = (s: string) => fold(s).replace(WS, ' ').trim();

async function run(content: string, tool: string, args: Record<string, unknown>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt57-'));
  made.push(dir);
  fs.writeFileSync(path.join(dir, 'f.txt'), content);
  const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }));
  const dry: any = await ts.callTool(tool, { path: '/f.txt', ...args, dryRun: true });
  const r: any = await ts.callTool(tool, { path: '/f.txt', ...args });
  const after = fs.readFileSync(path.join(dir, 'f.txt'), 'utf8');
  return { r, dry, after };
}

const CH = [
  'a',
  'b',
  'x',
  '1',
  '(',
  ')',
  ';',
  '=',
  ',',
  '.',
  '"',
  "'",
  '-',
  ' ',
  ' ',
  '“',
  '”',
  '„',
  '‘',
  '’',
  '–',
  '—',
  '…',
  '\u00A0',
  '\u2009',
  '😀',
  '\u0301',
  '\uFEFF',
  '\u202E',
  '\u202C',
  '\t',
];
const INS = ['Z', 'QW', ' ', '  ', '"', "'", '“', '’', '—', '…', '...', '.', '\u00A0', '😁', '\u0301', '-'];

const blockArb = fc.array(
  fc.record({
    indent: fc.constantFrom('', '  ', '\t', '    '),
    body: fc.array(fc.constantFrom(...CH), { minLength: 1, maxLength: 12 }).map((c) => `k${c.join('')}k`),
  }),
  { minLength: 1, maxLength: 6 },
);
const opArb = fc.oneof(
  fc.record({ t: fc.constant('keep' as const), i: fc.nat() }),
  fc.record({
    t: fc.constant('chg' as const),
    i: fc.nat(),
    p: fc.nat(),
    ins: fc.constantFrom(...INS),
    del: fc.nat(2),
  }),
  fc.record({ t: fc.constant('new' as const), s: fc.constantFrom('new “x” line', "added 'y'", 'plain…') }),
);

function mutate(l: string, op: { p: number; ins: string; del: number }) {
  const at = 1 + (op.p % Math.max(1, l.length - 1));
  return l.slice(0, at) + op.ins + l.slice(at + op.del);
}

async function check(
  tool: 'edit_file' | 'patch_file',
  block: Array<{ indent: string; body: string }>,
  folds: boolean[],
  ops: any[],
  eol: string,
  log: (x: unknown) => void,
) {
  const file = block.map((b) => b.indent + b.body);
  if (!file.some((l) => l !== fold(l))) return;
  const needle = block.map((b, i) => b.indent + (folds[i] ? fold(b.body) : b.body));
  if (needle.every((l, i) => l === file[i])) return;
  const nw: string[] = [];
  for (const op of ops) {
    if (op.t === 'keep') nw.push(needle[op.i % needle.length]!);
    else if (op.t === 'new') nw.push(op.s);
    else nw.push(mutate(needle[op.i % needle.length]!, op));
  }
  if (nw.join('\n') === needle.join('\n')) return;
  if (nw.some((l) => l.trim() === '')) return;
  const content = ['HEAD line', ...file, 'TAIL line', ''].join(eol);
  let args: Record<string, unknown>;
  if (tool === 'edit_file') args = { old_string: needle.join('\n'), new_string: nw.join('\n') };
  else {
    const a = ['HEAD line', ...needle, 'TAIL line', ''].join('\n');
    const b = ['HEAD line', ...nw, 'TAIL line', ''].join('\n');
    args = {
      base_sha256: sha(content),
      unified_diff: createTwoFilesPatch('a/f.txt', 'b/f.txt', a, b, '', '', { context: 3 }),
    };
  }
  const { r, dry, after } = await run(content, tool, args);
  if (!r.ok) {
    stats.err[r.error.code] = (stats.err[r.error.code] ?? 0) + 1;
    if (after !== content) log({ problems: ['refused but changed'], file, needle, nw });
    return;
  }
  if (tool === 'edit_file' && r.data.match_level !== 'unicode') return;
  stats.ok++;
  const problems: string[] = [];
  const lines = after.split(eol);
  if (lines[0] !== 'HEAD line') problems.push('head');
  const got = lines.slice(1, 1 + nw.length);
  if (lines[1 + nw.length] !== 'TAIL line' || lines.length !== nw.length + 3) problems.push('count');
  nw.forEach((n, j) => {
    const idx = needle.map((l, i) => (l === n ? i : -1)).filter((i) => i >= 0);
    const texts = new Set(idx.map((i) => file[i]));
    if (idx.length > 0) {
      if (texts.size === 1 && got[j] !== file[idx[0]!]) problems.push(`kept ${j}`);
    } else if (key(got[j] ?? '') !== key(n)) problems.push(`fold ${j}`);
  });
  // strong: one changed line, in place, by inserting fresh letters; neighbours kept.
  const chg =
    ops.length === needle.length &&
    ops.every((o, k) => (o.t === 'keep' || o.t === 'chg') && o.i % needle.length === k);
  const chgs = ops.filter((o) => o.t === 'chg');
  if (chg && chgs.length === 1 && (chgs[0].ins === 'Z' || chgs[0].ins === 'QW') && chgs[0].del === 0) {
    const k = chgs[0].i % needle.length;
    const nl = needle[k]!;
    const at = 1 + (chgs[0].p % Math.max(1, nl.length - 1));
    // map needle position to file position when both sides around it are plain equal characters
    const fl = file[k]!;
    const before = nl.slice(0, at);
    const fb = [...fl];
    const nb = [...before];
    const simple = (c: string) => /^[a-z0-9();=,]$/.test(c);
    if (nl.length === fl.length && simple(nl[at - 1]!) && simple(nl[at] ?? 'k') && nb.length <= fb.length) {
      stats.strong++;
      const expected = fl.slice(0, at) + chgs[0].ins + fl.slice(at);
      if (got[k] !== expected && fold(fl) === nl)
        problems.push(`strong ${k}: want ${JSON.stringify(expected)}`);
    }
  }
  const shown = dry?.data?.payload?.unifiedDiff;
  if (typeof shown !== 'string') problems.push('no dry diff');
  else {
    const applied = applyPatch(content, shown, { autoConvertLineEndings: false } as any);
    if (applied !== after) problems.push('dry diff differs');
  }
  if (problems.length) log({ tool, problems, file, needle, nw, got, eol });
}

for (const tool of ['edit_file', 'patch_file'] as const) {
  it(`${tool}: unicode-level oracle (property)`, async () => {
    const bad: unknown[] = [];
    await fc.assert(
      fc.asyncProperty(
        blockArb,
        fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
        fc.array(opArb, { minLength: 1, maxLength: 7 }),
        fc.constantFrom('\n', '\r\n'),
        async (block, folds, ops, eol) => {
          await check(tool, block, folds, ops, eol, (x) => bad.push(x));
        },
      ),
      { numRuns: 1500, seed: Number(process.env.RT57_SEED ?? 57) },
    );
    if (process.env.RT57_STATS) console.log(JSON.stringify(stats));
    for (const b of bad.slice(0, 15)) console.log(JSON.stringify(b));
    expect(bad.length).toBe(0);
  }, 600_000);
}

// Strong oracle: one line changed in place by inserting letters the line lacks; others kept as copied.
it('edit_file: a fresh insertion keeps the rest of the line as the file has it (property)', async () => {
  const bad: unknown[] = [];
  await fc.assert(
    fc.asyncProperty(
      blockArb,
      fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
      fc.nat(),
      fc.nat(),
      fc.constantFrom('Z', 'QW', 'Z Q'),
      fc.constantFrom('\n', '\r\n'),
      async (block, folds, ki, p, ins, eol) => {
        const file = block.map((b) => b.indent + b.body);
        const needle = block.map((b, i) => b.indent + (folds[i] ? fold(b.body) : b.body));
        if (needle.every((l, i) => l === file[i])) return;
        const k = ki % needle.length;
        const nl = needle[k]!;
        const fl = file[k]!;
        if (nl.length !== fl.length) return;
        const at = 1 + (p % (nl.length - 1));
        const simple = (c: string | undefined) => c !== undefined && /^[a-z0-9();=,k]$/.test(c);
        if (!simple(nl[at - 1]) || !simple(nl[at])) return;
        const nw = needle.slice();
        nw[k] = nl.slice(0, at) + ins + nl.slice(at);
        const content = ['HEAD line', ...file, 'TAIL line', ''].join(eol);
        const { r, after } = await run(content, 'edit_file', {
          old_string: needle.join('\n'),
          new_string: nw.join('\n'),
        });
        if (!r.ok) {
          bad.push({ refused: r.error, file, needle, nw });
          return;
        }
        const want = [
          'HEAD line',
          ...file.map((l, i) => (i === k ? fl.slice(0, at) + ins + fl.slice(at) : l)),
          'TAIL line',
          '',
        ].join(eol);
        if (after !== want) bad.push({ file, needle, nw, after, want });
      },
    ),
    { numRuns: 800, seed: Number(process.env.RT57_SEED ?? 57) },
  );
  for (const b of bad.slice(0, 10)) console.log(JSON.stringify(b));
  expect(bad.length).toBe(0);
}, 600_000);
