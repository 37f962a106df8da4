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

function tempProject(files: Record<string, string>) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-')));
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), content);
  return dir;
}

/** read_file with hashes vs plain, whole file. */
export async function benchHashedRead(lines: number, runs: number): Promise<Row[]> {
  const dir = tempProject({ 'big.ts': sourceFile(lines) });
  const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir), {
    limits: { readMaxLines: 10_000_000, readMaxChars: 1_000_000_000 },
  });
  const plain = await median(runs, () => toolset.callTool('read_file', { path: '/big.ts' }));
  const hashed = await median(runs, () => toolset.callTool('read_file', { path: '/big.ts', hashes: true }));
  // A fresh toolset per read: no line hashes kept from an earlier read of the same content.
  let fresh = toolset;
  const firstHashed = await median(
    runs,
    () => fresh.callTool('read_file', { path: '/big.ts', hashes: true }),
    () => {
      fresh = new FileSystemToolset(Sandbox.fromDirectory(dir), {
        limits: { readMaxLines: 10_000_000, readMaxChars: 1_000_000_000 },
      });
    },
  );
  fs.rmSync(dir, { recursive: true, force: true });
  const label = `${lines.toLocaleString('en')} lines`;
  return [
    {
      name: `read_file hashes: true, ${label}`,
      ms: hashed,
      baseline: 'plain read_file',
      baselineMs: plain,
      target: '≤ 3×',
    },
    {
      name: `read_file hashes: true, first read (no cached line hashes), ${label}`,
      ms: firstHashed,
      baseline: 'plain read_file',
      baselineMs: plain,
    },
  ];
}

/** The approval payload of an overwrite (diff included) vs `git diff --no-index` on the same pair. */
export async function benchPayloadDiff(lines: number, runs: number): Promise<Row[]> {
  const original = sourceFile(lines);
  const similar = original
    .split('\n')
    .map((l, i) => (i % 97 === 0 ? `${l} // changed` : l))
    .join('\n');
  const unrelated = Array.from({ length: lines }, (_, i) => `other text ${(i * 7919) % 104729}`).join('\n');
  const rows: Row[] = [];
  for (const [label, content] of [
    ['similar', similar],
    ['unrelated', unrelated],
  ] as const) {
    const dir = tempProject({ 'a.txt': original, 'b.txt': content });
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    const ours = await median(runs, () => toolset.needsApproval('write_file', { path: '/a.txt', content }));
    const git = await median(runs, () =>
      spawnSync('git', ['diff', '--no-index', '--stat=1', 'a.txt', 'b.txt'], { cwd: dir }),
    );
    rows.push({
      name: `write payload diff, ${label} ${lines.toLocaleString('en')}-line pair`,
      ms: ours,
      baseline: 'git diff --no-index',
      baselineMs: git,
      target: '≤ 10× git, < 1 s',
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
    input.write('q');
    await done;
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
