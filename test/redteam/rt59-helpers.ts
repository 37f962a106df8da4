// Red team rt59: patch_file vs GNU patch, line ends. Real temp dirs, public API only.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

export { gnuPatch } from './rt51-helpers.js';

export const sha = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');
export const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'rt59-'));
export const EMPTY = sha('');

/** diff(1) of two texts, run on files named a and b (labels as given). */
export function gnuDiff(oldT: string, newT: string, args: readonly string[] = ['-u']): string {
  const d = tmp();
  fs.writeFileSync(path.join(d, 'a'), oldT);
  fs.writeFileSync(path.join(d, 'b'), newT);
  const r = spawnSync('/usr/bin/diff', [...args, 'a', 'b'], { cwd: d, encoding: 'utf8', maxBuffer: 1 << 28 });
  fs.rmSync(d, { recursive: true });
  return r.stdout;
}

/** `git diff` of one file changed in a repository (index line, a/ b/ prefixes). */
export function gitRepoDiff(oldT: string, newT: string, args: readonly string[] = []): string {
  const d = tmp();
  const git = (...a: string[]) =>
    spawnSync('git', ['-c', 'core.autocrlf=false', '-c', 'user.email=x@y', '-c', 'user.name=x', ...a], {
      cwd: d,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
  git('init', '-q');
  fs.writeFileSync(path.join(d, 'f.txt'), oldT);
  git('add', 'f.txt');
  git('commit', '-qm', 'x');
  fs.writeFileSync(path.join(d, 'f.txt'), newT);
  const r = git('diff', '--no-color', '--no-ext-diff', ...args);
  fs.rmSync(d, { recursive: true });
  return r.stdout;
}

export interface Run {
  ok: boolean;
  code?: string;
  reason?: string;
  message?: string;
  after: string | null;
  data?: Record<string, unknown>;
}

/** patch_file on /f.txt holding `oldT` (null: no such file), based on its hash. */
export async function patchFile(oldT: string | null, diff: string, base?: string): Promise<Run> {
  const d = tmp();
  const f = path.join(d, 'f.txt');
  if (oldT !== null) fs.writeFileSync(f, oldT);
  const ts = new FileSystemToolset(Sandbox.fromDirectory(d, { mode: 'rw', writeApproval: false }));
  const res = await ts.callTool('patch_file', {
    path: '/f.txt',
    unified_diff: diff,
    base_sha256: base ?? (oldT === null ? EMPTY : sha(Buffer.from(oldT, 'utf8'))),
  });
  const after = fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : null;
  fs.rmSync(d, { recursive: true });
  if (res.ok) return { ok: true, after, data: res.data as Record<string, unknown> };
  const details = (res.error.details ?? {}) as { reason?: string };
  return { ok: false, code: res.error.code, reason: details.reason, message: res.error.message, after };
}

export const j = (s: string | null | undefined): string => JSON.stringify(s);
