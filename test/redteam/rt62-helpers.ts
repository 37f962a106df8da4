// rt62: shared helpers — a write_file dry-run payload on a real temp file, a Myers reference count
// (the `diff` package), and git's count.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { applyPatch, diffArrays } from 'diff';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

const dirs: string[] = [];
export function cleanupRt62(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}
export function tempDir(prefix = 'rt62-'): string {
  const d = mkdtempSync(join(os.tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** Lines as git / the diff package see them: split after each \n (a lone \r is not a line end). */
export function splitKeep(t: string): string[] {
  return t.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}
/** `ls` as a text, each line ended by \n. */
export const text = (ls: readonly string[]): string => ls.map((l) => `${l}\n`).join('');

export interface WritePayload {
  added: number;
  removed: number;
  diffCoarse?: boolean;
  unifiedDiff: string;
  ms: number;
}

/** The approval payload of `write_file` of `after` over a file holding `before` (dry run, whole diff). */
export async function writePayload(before: string, after: string): Promise<WritePayload> {
  const dir = tempDir('rt62-w-');
  writeFileSync(join(dir, 'f.txt'), before);
  const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), {
    limits: { readMaxChars: 1 << 26 },
  });
  const t0 = performance.now();
  const o = (await ts.callTool('write_file', { path: '/f.txt', content: after, dryRun: true })) as any;
  if (!o.ok) throw new Error(`write_file dry run failed: ${o.error.code} ${o.error.message}`);
  const p = o.data.payload;
  const unifiedDiff: string = p.unifiedDiff;
  return {
    added: p.added,
    removed: p.removed,
    diffCoarse: p.diffCoarse,
    unifiedDiff,
    ms: performance.now() - t0,
  };
}

/** Does the payload's diff turn `before` into `after` exactly? */
export function applies(before: string, after: string, unified: string): boolean {
  return applyPatch(before, unified, { autoConvertLineEndings: false } as any) === after;
}

/** Myers (minimal edit script) counts from the `diff` package on the same line split. */
export function myersCounts(before: string, after: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const c of diffArrays(splitKeep(before), splitKeep(after))) {
    if (c.added) added += c.count ?? c.value.length;
    else if (c.removed) removed += c.count ?? c.value.length;
  }
  return { added, removed };
}

/** `git diff --no-index --numstat` counts. */
export function gitCounts(before: string, after: string): { added: number; removed: number } {
  const d = tempDir('rt62-git-');
  writeFileSync(join(d, 'a'), before);
  writeFileSync(join(d, 'b'), after);
  let out = '';
  try {
    out = execFileSync('git', ['diff', '--no-index', '--numstat', join(d, 'a'), join(d, 'b')], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
  } catch (e: any) {
    out = e.stdout;
  }
  const [added, removed] = out.trim().split(/\s+/).map(Number);
  return { added: added!, removed: removed! };
}
