import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { ApprovalToolset } from '../src/approval/approval-toolset.js';
import { approveAll } from '../src/approval/policies.js';
import { Sandbox } from '../src/sandbox/sandbox.js';
import { KeyReader } from '../src/terminal/key-reader.js';
import { runPager } from '../src/terminal/pager.js';
import { renderPayload } from '../src/terminal/render-payload.js';
import { createStyle } from '../src/terminal/style.js';
import { FileSystemToolset } from '../src/tools/filesystem-toolset.js';
import { sourceFile } from './edit-tools.js';
import { median, type Row } from './measure.js';
import { medianOf, nonced, paired } from './pairs.js';

function tempProject(files: Record<string, string>) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-')));
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), content);
  return dir;
}

const BIG_LIMITS = { readMaxLines: 100_000_000, readMaxChars: 4_000_000_000, maxFileBytes: 1 << 30 };

/**
 * read_file with hashes vs plain, whole file, each on a fresh toolset (nothing the
 * toolset itself keeps). Warm: both read the same bytes again, so both take what the
 * process keeps for those bytes (read-text's decoded text; the line hashes and anchors
 * every toolset shares) and the hashed read's layout is what differs. Cold: each read
 * is of a version never read before (one line rewritten between reads, untimed), as an
 * agent's first read is: everything is computed.
 */
export async function benchHashedRead(sizes: number[], pairs: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (const lines of sizes) {
    for (const cold of [false, true]) {
      const text = sourceFile(lines);
      const dir = tempProject({ 'big.ts': text });
      const fresh = () => new FileSystemToolset(Sandbox.fromDirectory(dir), { limits: BIG_LIMITS });
      let a = fresh();
      let b = fresh();
      let version = 0;
      const r = await paired(
        pairs,
        () => a.callTool('read_file', { path: '/big.ts' }),
        () => b.callTool('read_file', { path: '/big.ts', hashes: true }),
        () => {
          a = fresh();
          b = fresh();
          if (cold) fs.writeFileSync(path.join(dir, 'big.ts'), nonced(text, version++));
        },
      );
      fs.rmSync(dir, { recursive: true, force: true });
      rows.push({
        name: cold
          ? `read_file hashes: true, first read of a version never read before (fresh toolset), ${lines.toLocaleString('en')} lines`
          : `read_file hashes: true, first read (fresh toolset), ${lines.toLocaleString('en')} lines`,
        ms: r.toolMs,
        baseline: cold ? 'plain read_file of a version never read before' : 'plain read_file',
        baselineMs: r.baselineMs,
        ratio: r.ratio,
        ...(cold ? {} : { target: '≤ 3×' }),
      });
    }
  }
  return rows;
}

/**
 * What this machine charges for memory a process touches for the first time
 * (a page fault per page) against writing memory it already has: a result the
 * size of a big file is new memory however it is built, so this sets a floor
 * under any read that returns more than the file's own text.
 */
export function benchFreshMemory(bytes: number, runs: number): Row[] {
  const again = Buffer.allocUnsafe(bytes);
  again.fill(1);
  const fresh: number[] = [];
  const reused: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < runs; i++) {
    let start = performance.now();
    again.fill(i & 0xff);
    const r = performance.now() - start;
    start = performance.now();
    Buffer.allocUnsafe(bytes).fill(i & 0xff);
    const f = performance.now() - start;
    reused.push(r);
    fresh.push(f);
    ratios.push(f / r);
  }
  return [
    {
      name: `machine: writing ${(bytes / 2 ** 20).toFixed(0)} MiB of memory the process never touched`,
      ms: medianOf(fresh),
      baseline: 'writing the same amount of memory it already has',
      baselineMs: medianOf(reused),
      ratio: medianOf(ratios),
    },
  ];
}

/**
 * Reading a file page by page (hashed, default page size) vs reading it whole
 * once with hashes; both on a fresh toolset each time, so the paging includes its
 * first read and the whole read is never served from a cache.
 */
export async function benchPaging(lines: number, pairs: number): Promise<Row[]> {
  const dir = tempProject({ 'big.ts': sourceFile(lines) });
  const bytes = fs.statSync(path.join(dir, 'big.ts')).size;
  const wholeToolset = () => new FileSystemToolset(Sandbox.fromDirectory(dir), { limits: BIG_LIMITS });
  const pagerToolset = () =>
    new FileSystemToolset(Sandbox.fromDirectory(dir), {
      limits: { maxFileBytes: 1 << 30, readMaxChars: 4_000_000_000 },
    });
  let whole = wholeToolset();
  let pager = pagerToolset();
  let pages = 0;
  const r = await paired(
    pairs,
    () => whole.callTool('read_file', { path: '/big.ts', hashes: true }),
    async () => {
      pages = 0;
      for (let offset = 1; offset <= lines; pages++) {
        const page = await pager.callTool('read_file', { path: '/big.ts', offset, hashes: true });
        if (!page.ok) return page;
        offset += String((page.data as { content: string }).content).split('\n').length;
      }
      return { ok: true };
    },
    () => {
      whole = wholeToolset();
      pager = pagerToolset();
    },
  );
  fs.rmSync(dir, { recursive: true, force: true });
  return [
    {
      name: `read_file page by page (${pages} hashed pages, fresh toolset), ${(bytes / 1e6).toFixed(1)} MB / ${lines.toLocaleString('en')} lines`,
      ms: r.toolMs,
      baseline: 'one hashed read of the whole file (fresh toolset)',
      baselineMs: r.baselineMs,
      ratio: r.ratio,
      target: '≤ 2×',
    },
  ];
}

/** Code-like lines unrelated to sourceFile's (same shape, different text). */
const otherCode = (lines: number) =>
  `${Array.from({ length: lines }, (_, i) => (i % 8 === 7 ? '  }' : `  let other${(i * 7919) % 104729} = fetch(${i % 97}, 'x${i}');`)).join('\n')}\n`;

/**
 * The approval payload of an overwrite (its diff included) vs `git diff --no-index`
 * writing the full patch of the same pair: a 1%-changed and an unrelated-code pair.
 */
export async function benchPayloadDiff(lines: number, pairs: number): Promise<Row[]> {
  const original = sourceFile(lines);
  const similar = original
    .split('\n')
    .map((l, i) => (i % 100 === 50 ? `${l} // changed` : l))
    .join('\n');
  const rows: Row[] = [];
  for (const [label, content] of [
    ['1%-changed', similar],
    ['unrelated-code', otherCode(lines)],
  ] as const) {
    const dir = tempProject({ 'a.txt': original, 'b.txt': content });
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), { limits: BIG_LIMITS });
    let shown = '';
    const r = await paired(
      pairs,
      () => spawnSync('git', ['diff', '--no-index', '--output=patch.out', 'a.txt', 'b.txt'], { cwd: dir }),
      async () => {
        const result = await toolset.needsApproval('write_file', { path: '/a.txt', content });
        const payload = (
          result as { payload?: { unifiedDiff?: string; diffLines?: number; diffCoarse?: boolean } }
        ).payload;
        // The diff's text is written when first read: read here, as a screen showing it reads it
        // (git writes its whole patch too).
        const text = payload?.unifiedDiff ?? '';
        const lines = text.split('\n').length - 1;
        if (lines !== payload?.diffLines) throw new Error(`diffLines ${payload?.diffLines}, text ${lines}`);
        shown = `${lines} diff lines${payload?.diffCoarse ? ', coarse' : ''}`;
        return result;
      },
    );
    const gitLines = fs.readFileSync(path.join(dir, 'patch.out'), 'utf8').split('\n').length - 1;
    rows.push({
      name: `write payload diff, ${label} ${lines.toLocaleString('en')}-line pair (ours: ${shown}; git: ${gitLines})`,
      ms: r.toolMs,
      baseline: 'git diff --no-index (full patch)',
      baselineMs: r.baselineMs,
      ratio: r.ratio,
      target: '≤ 3× git, < 1 s',
    });
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/** The diffs whose first pager screen is timed: each shape that once took seconds to show. */
export function pagerDiffs(lines: number, longLineBytes: number[]): Array<[string, string]> {
  const half = Math.floor(lines / 2);
  const head = (o: number, n: number) => `--- a/x\n+++ b/x\n@@ -1,${o} +1,${n} @@\n`;
  const longLine = (bytes: number) => {
    const big = 'x'.repeat(bytes);
    return `--- a/x\n+++ b/x\n@@ -1 +1 @@\n-${big}a\n+${big}b\n`;
  };
  const mb = (bytes: number) => `${(bytes / (1 << 20)).toLocaleString('en')} MB`;
  return [
    [
      `${lines.toLocaleString('en')}-line diff (removed and added lines alternating)`,
      `${head(half, lines - half)}${Array.from({ length: lines }, (_, i) => (i % 2 ? `-old ${i}` : `+new ${i}`)).join('\n')}\n`,
    ],
    [
      `${half.toLocaleString('en')} lines removed, then ${half.toLocaleString('en')} added`,
      `${head(half, half)}${Array.from({ length: half }, (_, i) => `-old line ${i}`).join('\n')}\n${Array.from({ length: half }, (_, i) => `+new line ${i}`).join('\n')}\n`,
    ],
    ...longLineBytes.map((b): [string, string] => [`one changed ${mb(b)} line`, longLine(b)]),
  ];
}

/**
 * Time from a payload's diff to the pager's first screen written (80×24, the
 * approval UI's path: renderPayload, then the pager), vs writing 24 plain lines.
 */
export async function benchPagerFirstScreen(
  lines: number,
  longLineBytes: number[],
  runs: number,
): Promise<Row[]> {
  const style = createStyle(true);
  const firstScreen = async (unifiedDiff: string) => {
    const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => input });
    let drawn = 0;
    const output = new Writable({
      write(c: Buffer, _e, done) {
        drawn += c.length;
        done();
      },
    });
    const keys = new KeyReader(input, { clock: { now: () => 0 }, armDelayMs: 0 });
    keys.open();
    const start = performance.now();
    const r = renderPayload(patchPayload(unifiedDiff), style, 77);
    const done = runPager({
      keys,
      output,
      count: r.body.count,
      line: (i, shift) => r.body.line(i, shift),
      ...(r.body.text ? { search: r.body.text } : {}),
      title: r.title,
      warnings: r.warnings,
      footer: '[y] yes  [n] no',
      rows: 24,
      width: 80,
      style,
      relayout: () => ({ count: r.body.count, line: (i, s) => r.body.line(i, s) }),
    });
    // The first screen is drawn before the pager waits for a key.
    const elapsed = performance.now() - start;
    setImmediate(() => setTimeout(() => input.write('q'), 0));
    await done;
    keys.close();
    if (drawn === 0) throw new Error('nothing drawn');
    return elapsed;
  };
  const baseline = () => {
    const start = performance.now();
    const output = new Writable({ write: (_c, _e, done) => done() });
    output.write(`${Array.from({ length: 24 }, (_, i) => `plain line ${i}`).join('\n')}\n`);
    return performance.now() - start;
  };
  const rows: Row[] = [];
  for (const [name, diff] of pagerDiffs(lines, longLineBytes)) {
    await firstScreen(diff);
    const times: number[] = [];
    const bases: number[] = [];
    for (let i = 0; i < runs; i++) {
      bases.push(baseline());
      times.push(await firstScreen(diff));
    }
    rows.push({
      name: `pager first screen, ${name}`,
      ms: medianOf(times),
      baseline: 'write 24 plain lines',
      baselineMs: medianOf(bases),
      target: '≤ 50 ms',
    });
  }
  return rows;
}

/** A patch payload carrying `unifiedDiff` (what the terminal approver renders). */
function patchPayload(unifiedDiff: string) {
  return {
    type: 'patch',
    description: 'patch /big.txt',
    path: '/big.txt',
    mount: '/',
    unifiedDiff,
    requestedDiff: '',
    diffLines: 0,
    added: 0,
    removed: 0,
    relocated: false,
    hunks: 1,
    fileExists: true,
    fileLines: 0,
    fileBytes: 0,
  } as const;
}

/** A pre-approved call through ApprovalToolset vs the same call on the toolset directly. */
export async function benchApprovalOverhead(runs: number): Promise<Row[]> {
  const dir = tempProject({ 'a.txt': 'hello\n' });
  const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir));
  const gated = new ApprovalToolset(toolset, { approve: approveAll() });
  const direct = await median(runs, () => toolset.callTool('read_file', { path: '/a.txt' }));
  const viaApproval = await median(runs, () => gated.callTool('read_file', { path: '/a.txt' }));
  fs.rmSync(dir, { recursive: true, force: true });
  return [
    {
      name: 'pre-approved read_file through ApprovalToolset',
      ms: viaApproval,
      baseline: 'toolset.callTool directly',
      baselineMs: direct,
    },
  ];
}
