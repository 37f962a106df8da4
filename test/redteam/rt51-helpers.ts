import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

export const sha = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');
export const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'rt51-'));

export function gnuDiff(oldT: string, newT: string, args: string[]): string {
  const d = tmp();
  fs.writeFileSync(path.join(d, 'a'), oldT);
  fs.writeFileSync(path.join(d, 'b'), newT);
  const r = spawnSync('/usr/bin/diff', [...args, 'a', 'b'], { cwd: d, encoding: 'utf8' });
  fs.rmSync(d, { recursive: true });
  return r.stdout;
}

export function gitDiff(oldT: string, newT: string, args: string[] = []): string {
  const d = tmp();
  fs.writeFileSync(path.join(d, 'a'), oldT);
  fs.writeFileSync(path.join(d, 'b'), newT);
  const r = spawnSync('git', ['diff', '--no-index', '--no-color', ...args, 'a', 'b'], {
    cwd: d,
    encoding: 'utf8',
  });
  fs.rmSync(d, { recursive: true });
  return r.stdout;
}

/** GNU patch as the oracle: the bytes it writes, or null when it fails. `binary` adds --binary (CRs kept as given). */
export function gnuPatch(oldT: string, diff: string, opts: { binary?: boolean } = {}): string | null {
  const d = tmp();
  fs.writeFileSync(path.join(d, 'f'), oldT);
  fs.writeFileSync(path.join(d, 'p'), diff);
  const args = [
    '--batch',
    '-s',
    '-N',
    '-r',
    '-',
    '-o',
    'out',
    ...(opts.binary ? ['--binary'] : []),
    'f',
    '-i',
    'p',
  ];
  const r = spawnSync('/usr/bin/patch', args, { cwd: d, encoding: 'utf8', maxBuffer: 1 << 28 });
  const out =
    r.status === 0 && fs.existsSync(path.join(d, 'out'))
      ? fs.readFileSync(path.join(d, 'out'), 'utf8')
      : null;
  fs.rmSync(d, { recursive: true });
  return out;
}

export interface Run {
  ok: boolean;
  code?: string;
  reason?: string;
  data?: Record<string, unknown>;
  after: string;
  unifiedDiff?: string;
}

async function run(
  tool: string,
  oldT: string,
  args: Record<string, unknown>,
  approval: boolean,
): Promise<Run> {
  const d = tmp();
  const f = path.join(d, 'f.txt');
  fs.writeFileSync(f, oldT);
  let unifiedDiff: string | undefined;
  let res: Awaited<ReturnType<FileSystemToolset['callTool']>>;
  if (approval) {
    const ts = new FileSystemToolset(Sandbox.fromDirectory(d, { mode: 'rw' }));
    const at = new ApprovalToolset(ts, {
      approve: (req) => {
        unifiedDiff = (req.payload as { unifiedDiff?: string }).unifiedDiff;
        return { approved: true };
      },
    });
    res = await at.callTool(tool, { path: '/f.txt', ...args });
  } else {
    const ts = new FileSystemToolset(Sandbox.fromDirectory(d, { mode: 'rw', writeApproval: false }));
    res = await ts.callTool(tool, { path: '/f.txt', ...args });
  }
  const after = fs.readFileSync(f, 'utf8');
  fs.rmSync(d, { recursive: true });
  if (res.ok) return { ok: true, data: res.data as Record<string, unknown>, after, unifiedDiff };
  const details = (res.error.details ?? {}) as { reason?: string };
  return { ok: false, code: res.error.code, reason: details.reason, after, unifiedDiff };
}

export const patchFile = (oldT: string, diff: string, approval = false): Promise<Run> =>
  run('patch_file', oldT, { unified_diff: diff, base_sha256: sha(Buffer.from(oldT, 'utf8')) }, approval);

export const editFile = (oldT: string, args: Record<string, unknown>, approval = false): Promise<Run> =>
  run('edit_file', oldT, args, approval);
