// rt64: helpers — approval payload diffs through the public API, git's counts as the reference, and a strict
// unified-diff applier (every context and removed line checked) that scales to millions of lines.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { cleanupRt63, gitCounts, tempDir as tempDir63 } from './rt63-helpers.js';

// Temp dirs and git's counts as rt63's helpers do them (one registry: either cleanup removes them).
export const cleanupRt64 = cleanupRt63;
export const tempDir = (prefix = 'rt64-'): string => tempDir63(prefix);
/** `git diff --no-index --text` counts (added, removed) and git's wall time: the reference. */
export const gitNumstat = gitCounts;

export const LIMITS = { readMaxChars: 1 << 27, readMaxLines: 10_000_000, maxFileBytes: 1 << 29 };

export interface Payload {
  added: number;
  removed: number;
  coarse: boolean;
  unifiedDiff: string;
  ms: number;
}

export function toolset(before: string | Buffer, limits: Record<string, number> = {}, staging = false) {
  const dir = tempDir('rt64-w-');
  writeFileSync(join(dir, 'f.txt'), before);
  const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), {
    limits: { ...LIMITS, ...limits },
    ...(staging ? { staging: true } : {}),
  });
  return { dir, ts, read: () => readFileSync(join(dir, 'f.txt')) };
}

function payloadOf(o: any, t0: number): Payload {
  if (!o.ok) throw new Error(`dry run failed: ${o.error.code} ${o.error.message}`);
  const p = o.data.payload;
  const unifiedDiff: string = p.unifiedDiff;
  return {
    added: p.added,
    removed: p.removed,
    coarse: p.diffCoarse ?? false,
    unifiedDiff,
    ms: performance.now() - t0,
  };
}

/** write_file of `after` over `before` (dry run). */
export async function writePayload(
  before: string,
  after: string,
  limits: Record<string, number> = {},
): Promise<Payload> {
  const { ts } = toolset(before, limits);
  const t0 = performance.now();
  return payloadOf(await ts.callTool('write_file', { path: '/f.txt', content: after, dryRun: true }), t0);
}

/** edit_file replacing old_string by new_string (dry run). */
export async function editPayload(
  before: string,
  oldS: string,
  newS: string,
  limits: Record<string, number> = {},
): Promise<Payload> {
  const { ts } = toolset(before, limits);
  const t0 = performance.now();
  return payloadOf(
    await ts.callTool('edit_file', { path: '/f.txt', old_string: oldS, new_string: newS, dryRun: true }),
    t0,
  );
}

/** Lines split after each \n (terminators kept). */
export function splitKeep(t: string): string[] {
  return t.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Applies a unified diff strictly (context and removed lines must match the old text); undefined when it does not. */
export function applyUnified(before: string, diff: string): string | undefined {
  if (diff === '') return before;
  const old = splitKeep(before);
  const rows = diff.split('\n');
  if (rows[rows.length - 1] === '') rows.pop();
  const out: string[] = [];
  let at = 0;
  let r = 0;
  while (r < rows.length && !rows[r]!.startsWith('@@')) r++;
  while (r < rows.length) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(rows[r]!);
    if (!m) return undefined;
    const oc = m[2] === undefined ? 1 : Number(m[2]);
    const os0 = Number(m[1]) - (oc === 0 ? 0 : 1);
    if (os0 < at) return undefined;
    while (at < os0) out.push(old[at++]!);
    r++;
    while (r < rows.length && !rows[r]!.startsWith('@@')) {
      const row = rows[r]!;
      const noEol = rows[r + 1]?.startsWith('\\');
      const body = row.slice(1) + (noEol ? '' : '\n');
      const c = row[0];
      if (c === ' ' || c === '-') {
        if (old[at] !== body) return undefined;
        at++;
        if (c === ' ') out.push(body);
      } else if (c === '+') out.push(body);
      else return undefined;
      r += noEol ? 2 : 1;
    }
  }
  while (at < old.length) out.push(old[at++]!);
  return out.join('');
}

/** Is ours within the promise: ≤ 110% of git's added+removed, plus 4 lines. */
export const nearGit = (ours: { added: number; removed: number }, git: { added: number; removed: number }) =>
  ours.added + ours.removed <= 1.1 * (git.added + git.removed) + 4;
