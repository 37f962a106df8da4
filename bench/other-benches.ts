import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { ApprovalToolset } from '../src/approval/approval-toolset.js';
import { approveAll } from '../src/approval/policies.js';
import { Sandbox } from '../src/sandbox/sandbox.js';
import { diffLineSource } from '../src/terminal/diff-view.js';
import { KeyReader } from '../src/terminal/key-reader.js';
import { runPager } from '../src/terminal/pager.js';
import { createStyle } from '../src/terminal/style.js';
import { FileSystemToolset } from '../src/tools/filesystem-toolset.js';
import { sourceFile } from './edit-tools.js';
import { median, type Row } from './measure.js';
import { paired } from './pairs.js';

function tempProject(files: Record<string, string>) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-')));
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), content);
  return dir;
}

const BIG_LIMITS = { readMaxLines: 100_000_000, readMaxChars: 4_000_000_000, maxFileBytes: 1 << 30 };

/** read_file with hashes vs plain, whole file, each on a fresh toolset (no line hashes kept). */
export async function benchHashedRead(sizes: number[], pairs: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (const lines of sizes) {
    const dir = tempProject({ 'big.ts': sourceFile(lines) });
    const fresh = () => new FileSystemToolset(Sandbox.fromDirectory(dir), { limits: BIG_LIMITS });
    let a = fresh();
    let b = fresh();
    const r = await paired(
      pairs,
      () => a.callTool('read_file', { path: '/big.ts' }),
      () => b.callTool('read_file', { path: '/big.ts', hashes: true }),
      () => {
        a = fresh();
        b = fresh();
      },
    );
    fs.rmSync(dir, { recursive: true, force: true });
    rows.push({
      name: `read_file hashes: true, first read (fresh toolset), ${lines.toLocaleString('en')} lines`,
      ms: r.toolMs,
      baseline: 'plain read_file',
      baselineMs: r.baselineMs,
      ratio: r.ratio,
      target: '≤ 3×',
    });
  }
  return rows;
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
        const payload = (result as { payload?: { diffLines?: number; diffCoarse?: boolean } }).payload;
        shown = `${payload?.diffLines ?? '?'} diff lines${payload?.diffCoarse ? ', coarse' : ''}`;
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

/** Time from a 100,000-line diff to the pager's first screen written, vs writing 40 plain lines. */
export async function benchPagerFirstScreen(lines: number, runs: number): Promise<Row[]> {
  const diff = `--- a/x\n+++ b/x\n@@ -1,${lines} +1,${lines} @@\n${Array.from({ length: lines }, (_, i) => (i % 2 ? `-old ${i}` : `+new ${i}`)).join('\n')}\n`;
  const style = createStyle(true);
  const firstScreen = async () => {
    const input = Object.assign(new (await import('node:stream')).PassThrough(), {
      isTTY: true,
      setRawMode: () => undefined,
    });
    let written = false;
    const output = new Writable({
      write(_c, _e, done) {
        written = true;
        done();
      },
    });
    const keys = new KeyReader(input, { armDelayMs: 0 }); // the bench types its q at once
    keys.open();
    const body = diffLineSource(diff, style, 80);
    const done = runPager({
      keys,
      output,
      count: body.count,
      line: (i) => body.line(i),
      title: 'bench',
      footer: '',
      rows: 40,
      style,
    });
    // Keys typed before the pager is armed are dropped by design: keep typing q until it quits.
    const typing = setInterval(() => input.write('q'), 1);
    await done;
    clearInterval(typing);
    keys.close();
    return written;
  };
  const baseline = async () => {
    const output = new Writable({ write: (_c, _e, done) => done() });
    output.write(`${Array.from({ length: 40 }, (_, i) => `plain line ${i}`).join('\n')}\n`);
  };
  const pager = await median(runs, firstScreen);
  const plain = await median(runs, baseline);
  return [
    {
      name: `pager first screen, ${lines.toLocaleString('en')}-line diff`,
      ms: pager,
      baseline: 'write 40 plain lines',
      baselineMs: plain,
      target: '≤ 50 ms',
    },
  ];
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
