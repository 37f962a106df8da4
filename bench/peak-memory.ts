import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Peak memory (max RSS, from /usr/bin/time -v, of a fresh child process) of one
 * operation on a large file, as a multiple of the file's size: the child's
 * baseline (process started, modules loaded, file not read) is subtracted so the
 * ratio is what the operation itself holds. `npx tsx bench/peak-memory.ts [lines]`.
 */
const OPS = [
  'floor',
  'read_file',
  'read_file hashed',
  'edit_file',
  'edit_lines',
  'patch_file',
  'write_file',
  'approval edit_file',
  'approval edit_lines',
  'approval patch_file',
  'approval write_file',
  'edit_file replace_all (9 lines in 10)',
  'approval edit_file replace_all (9 lines in 10)',
  'approval edit_file replace_all (9 lines in 10), by a policy (diff never read)',
] as const;
type Op = (typeof OPS)[number] | 'baseline' | 'baseline with argument';

const sourceLine = (i: number) => `  const value${i} = compute(${i}, "item-${i}");`;

async function child(op: Op, dir: string, lines: number): Promise<void> {
  const { Sandbox } = await import('../src/sandbox/sandbox.js');
  const { FileSystemToolset } = await import('../src/tools/filesystem-toolset.js');
  const { ApprovalToolset } = await import('../src/approval/approval-toolset.js');
  const { approveAll } = await import('../src/approval/policies.js');
  // Approvals read the payload's diff as a person's screen does (it is written when first read);
  // the policy row approves without reading it.
  const { readingApproval } = await import('./pairs.js');
  const limits = { readMaxLines: 100_000_000, readMaxChars: 4_000_000_000, maxFileBytes: 1 << 30 };
  const plain = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }), {
    limits,
  });
  const gated = new ApprovalToolset(
    new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), { limits }),
    {
      approve: readingApproval(),
    },
  );
  const file = path.join(dir, 'f.txt');
  const m = Math.floor(lines / 2);
  const [o, w] = [sourceLine(m), sourceLine(m).replace('compute(', 'compute2(')];
  let r: unknown = { ok: true };
  if (op === 'baseline') return;
  if (op === 'baseline with argument') {
    // What a write_file caller holds before the call: the new content, built from the file.
    const content = fs.readFileSync(file, 'utf8').replace(o, () => w);
    if (content.length === 0) throw new Error('empty');
    return;
  }
  if (op === 'floor') {
    const text = fs.readFileSync(file, 'utf8');
    createHash('sha256').update(text).digest('hex');
    fs.writeFileSync(
      `${file}.tmp`,
      text.replace(o, () => w),
    );
    fs.renameSync(`${file}.tmp`, file);
  } else if (op === 'read_file') r = await plain.callTool('read_file', { path: '/f.txt' });
  else if (op === 'read_file hashed') r = await plain.callTool('read_file', { path: '/f.txt', hashes: true });
  else if (op === 'edit_file')
    r = await plain.callTool('edit_file', { path: '/f.txt', old_string: o, new_string: w });
  else if (op === 'edit_lines' || op === 'approval edit_lines') {
    const t = op === 'edit_lines' ? plain : gated;
    const read = await t.callTool('read_file', { path: '/f.txt', offset: m + 1, limit: 1, hashes: true });
    const anchor = String((read as { data: { content: string } }).data.content).split('|')[0]!;
    r = await t.callTool('edit_lines', {
      path: '/f.txt',
      operations: [{ op: 'replace_line', hash: anchor, content: w }],
    });
  } else if (op === 'patch_file' || op === 'approval patch_file') {
    const t = op === 'patch_file' ? plain : gated;
    const sha = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    r = await t.callTool('patch_file', {
      path: '/f.txt',
      base_sha256: sha,
      unified_diff: `@@ -${m + 1},1 +${m + 1},1 @@\n-${o}\n+${w}\n`,
    });
  } else if (op === 'write_file' || op === 'approval write_file') {
    const content = fs.readFileSync(file, 'utf8').replace(o, () => w);
    const t = op === 'write_file' ? plain : gated;
    r = await t.callTool('write_file', { path: '/f.txt', content });
  } else if (op === 'approval edit_file')
    r = await gated.callTool('edit_file', { path: '/f.txt', old_string: o, new_string: w });
  else if (op.includes('replace_all')) {
    // Every line but the `}` ones matches: a million-change edit. Shipped read limits: the
    // result's diff is then cut as a model gets it (readMaxChars raised would return it whole).
    const shipped = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), {
      limits: { maxFileBytes: limits.maxFileBytes },
    });
    const t = op.startsWith('approval')
      ? new ApprovalToolset(shipped, { approve: op.includes('policy') ? approveAll() : readingApproval() })
      : new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }), {
          limits: { maxFileBytes: limits.maxFileBytes },
        });
    r = await t.callTool('edit_file', {
      path: '/f.txt',
      old_string: ' = compute(',
      new_string: ' = compute2(',
      replace_all: true,
    });
  }
  if ((r as { ok?: boolean }).ok === false)
    throw new Error(`${op} failed: ${JSON.stringify(r).slice(0, 300)}`);
}

function maxRss(op: Op, dir: string, lines: number): number {
  const self = fileURLToPath(import.meta.url);
  const out = spawnSync(
    '/usr/bin/time',
    ['-v', process.execPath, '--import', 'tsx', self, '--child', op, dir, String(lines)],
    {
      encoding: 'utf8',
    },
  );
  if (out.status !== 0) throw new Error(`${op}: ${out.stderr.slice(-800)}`);
  const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(out.stderr);
  return Number(kb![1]) * 1024;
}

if (process.argv[2] === '--child') {
  await child(process.argv[3] as Op, process.argv[4]!, Number(process.argv[5]));
} else {
  const lines = Number(process.argv[2] ?? 1_000_000);
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-mem-')));
  const text = `${Array.from({ length: lines }, (_, i) => (i % 10 === 9 ? '}' : sourceLine(i))).join('\n')}\n`;
  const size = Buffer.byteLength(text);
  const reset = () => fs.writeFileSync(path.join(dir, 'f.txt'), text);
  reset();
  const base = maxRss('baseline', dir, lines);
  // write_file's caller builds a whole new content before the call: that argument is the
  // caller's memory, shown apart (the last column leaves it out).
  const withArgument = maxRss('baseline with argument', dir, lines);
  console.log(
    `| operation (${lines.toLocaleString('en')} lines, ${(size / 2 ** 20).toFixed(1)} MiB) | peak RSS above baseline | × file size | × file size, the caller's argument left out | target |`,
  );
  console.log('|---|---:|---:|---:|---|');
  // PEAK_ONLY=text measures only the operations whose name contains it.
  for (const op of OPS.filter((o) => !process.env.PEAK_ONLY || o.includes(process.env.PEAK_ONLY))) {
    reset();
    const rss = maxRss(op, dir, lines);
    const peak = rss - base;
    const own = op.endsWith('write_file') ? rss - withArgument : peak;
    console.log(
      `| ${op} | ${(peak / 2 ** 20).toFixed(0)} MiB | ${(peak / size).toFixed(1)}× | ${(own / size).toFixed(1)}× | ≤ 6× |`,
    );
  }
  console.log(
    `(baseline: a child that loads the modules and does nothing, ${(base / 2 ** 20).toFixed(0)} MiB; with write_file's argument built: ${(withArgument / 2 ** 20).toFixed(0)} MiB)`,
  );
  fs.rmSync(dir, { recursive: true, force: true });
}
