// rt63: shared helpers — approval payloads of write_file / edit_file / patch_file / edit_lines (dry run, on real
// temp files), staged change sets (hunks), applying a subset of hunks as a reference, and git's counts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { applyPatch } from 'diff';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { cleanupRt62, splitKeep, tempDir as tempDir62 } from './rt62-helpers.js';

// Temp dirs and line splitting as rt62's helpers do them (one registry: either cleanup removes them).
export { splitKeep } from './rt62-helpers.js';
export const cleanupRt63 = cleanupRt62;
export const tempDir = (prefix = 'rt63-'): string => tempDir62(prefix);

export const text = (ls: readonly string[], eol = '\n'): string => ls.map((l) => `${l}${eol}`).join('');

export interface Payload {
  added: number;
  removed: number;
  diffCoarse?: boolean;
  unifiedDiff: string;
  ms: number;
}

const LIMITS = { readMaxChars: 1 << 27, readMaxLines: 10_000_000, maxFileBytes: 1 << 29 };

function toolsetOn(before: string | Buffer) {
  const dir = tempDir('rt63-w-');
  writeFileSync(join(dir, 'f.txt'), before);
  const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), { limits: LIMITS });
  return { dir, ts };
}

function payloadOf(o: any, t0: number): Payload {
  if (!o.ok) throw new Error(`dry run failed: ${o.error.code} ${o.error.message}`);
  const p = o.data.payload;
  const unifiedDiff: string = p.unifiedDiff; // built on first read: time it too
  return {
    added: p.added,
    removed: p.removed,
    diffCoarse: p.diffCoarse,
    unifiedDiff,
    ms: performance.now() - t0,
  };
}

/** write_file of `after` over `before` (dry run). */
export async function writePayload(before: string, after: string): Promise<Payload> {
  const { ts } = toolsetOn(before);
  const t0 = performance.now();
  return payloadOf(await ts.callTool('write_file', { path: '/f.txt', content: after, dryRun: true }), t0);
}

/** edit_file replacing the whole text (old_string = before, new_string = after), dry run. */
export async function editPayload(
  before: string,
  after: string,
  oldS = before,
  newS = after,
): Promise<Payload> {
  const { ts } = toolsetOn(before);
  const t0 = performance.now();
  return payloadOf(
    await ts.callTool('edit_file', { path: '/f.txt', old_string: oldS, new_string: newS, dryRun: true }),
    t0,
  );
}

/** edit_lines replace_range over lines [start, end] (0-based, inclusive) with `content`, dry run. */
export async function editLinesPayload(
  before: string,
  start: number,
  end: number,
  content: string,
): Promise<Payload> {
  const { ts } = toolsetOn(before);
  const rd = (await ts.callTool('read_file', { path: '/f.txt', hashes: true })) as any;
  if (!rd.ok) throw new Error(rd.error.message);
  const rows: string[] = rd.data.content.split('\n');
  const h = (i: number) => rows[i]!.split('|')[0];
  const t0 = performance.now();
  return payloadOf(
    await ts.callTool('edit_lines', {
      path: '/f.txt',
      operations: [{ op: 'replace_range', start_hash: h(start), end_hash: h(end), content }],
      dryRun: true,
    }),
    t0,
  );
}

/** patch_file with one hunk that removes every line of `before` and adds every line of `after`, dry run. */
export async function patchPayload(before: string, after: string): Promise<Payload> {
  const { ts } = toolsetOn(before);
  const st = (await ts.callTool('read_file', { path: '/f.txt', limit: 1 })) as any;
  const a = splitKeep(before);
  const b = splitKeep(after);
  const body = (ls: string[], sign: string) =>
    ls
      .map((l) => (l.endsWith('\n') ? `${sign}${l}` : `${sign}${l}\n\\ No newline at end of file\n`))
      .join('');
  const diff = `--- a/f.txt\n+++ b/f.txt\n@@ -1,${a.length} +1,${b.length} @@\n${body(a, '-')}${body(b, '+')}`;
  const t0 = performance.now();
  return payloadOf(
    await ts.callTool('patch_file', {
      path: '/f.txt',
      unified_diff: diff,
      base_sha256: st.data.sha256,
      dryRun: true,
    }),
    t0,
  );
}

/** Does the unified diff turn `before` into `after` exactly? */
export function applies(before: string, after: string, unified: string): boolean {
  return applyPatch(before, unified, { autoConvertLineEndings: false } as any) === after;
}

/** `git diff --no-index --text -U0` counts (default heuristics; binary files as text) and the time git took. */
export function gitCounts(
  before: string | Buffer,
  after: string | Buffer,
): { added: number; removed: number; ms: number } {
  const d = tempDir('rt63-git-');
  writeFileSync(join(d, 'a'), before);
  writeFileSync(join(d, 'b'), after);
  let out: Buffer = Buffer.alloc(0);
  const t0 = performance.now();
  try {
    out = execFileSync('git', ['diff', '--no-index', '--text', '-U0', join(d, 'a'), join(d, 'b')], {
      maxBuffer: 1 << 30,
    });
  } catch (e: any) {
    out = e.stdout;
  }
  const ms = performance.now() - t0;
  let added = 0;
  let removed = 0;
  let inBody = false;
  for (const l of out.toString('latin1').split('\n')) {
    if (l.startsWith('@@')) inBody = true;
    else if (!inBody) continue;
    else if (l.startsWith('+')) added++;
    else if (l.startsWith('-')) removed++;
  }
  return { added, removed, ms };
}

// ---------------------------------------------------------------------------------------------- staging

export interface StagedFile {
  name: string;
  before: string | Buffer;
  after: string | Buffer;
}

/** Stages write_file of every `after` over its `before`, returns the toolset, its staging area and the set. */
export async function stageWrites(files: readonly StagedFile[]) {
  const dir = tempDir('rt63-s-');
  for (const f of files) writeFileSync(join(dir, f.name), f.before);
  const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), {
    staging: true,
    limits: LIMITS,
  });
  for (const f of files) {
    const content = typeof f.after === 'string' ? f.after : f.after.toString('utf8');
    const o = (await ts.callTool('write_file', { path: `/${f.name}`, content })) as any;
    if (!o.ok) throw new Error(`staged write failed: ${o.error.code} ${o.error.message}`);
  }
  const staging = ts.stage();
  const t0 = performance.now();
  const set = staging.changeSet();
  const ms = performance.now() - t0;
  return { dir, ts, staging, set, ms, read: (name: string) => readFileSync(join(dir, name)) };
}

export interface HunkLike {
  id: string;
  oldIndex: number;
  newIndex: number;
  removed: string[];
  added: string[];
}

/** Reference: the base with exactly `accepted` hunks applied (hunks are context-free, non-overlapping). */
export function applyHunksRef(
  base: string,
  hunks: readonly HunkLike[],
  accepted: ReadonlySet<string>,
): string {
  const lines = splitKeep(base);
  const out: string[] = [];
  let at = 0;
  const sorted = [...hunks].sort((x, y) => x.oldIndex - y.oldIndex);
  for (const h of sorted) {
    if (h.oldIndex < at) throw new Error(`hunks overlap at ${h.oldIndex}`);
    out.push(...lines.slice(at, h.oldIndex));
    const old = lines.slice(h.oldIndex, h.oldIndex + h.removed.length);
    if (old.join('') !== h.removed.join(''))
      throw new Error(`hunk ${h.id} removed lines differ from base at ${h.oldIndex}`);
    if (accepted.has(h.id)) out.push(...h.added);
    else out.push(...old);
    at = h.oldIndex + h.removed.length;
  }
  out.push(...lines.slice(at));
  return out.join('');
}

export function hunkCounts(hunks: readonly HunkLike[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const h of hunks) {
    added += h.added.length;
    removed += h.removed.length;
  }
  return { added, removed };
}

// ------------------------------------------------------------------------------------- real gated runs

/**
 * Runs one writing tool call through an ApprovalToolset that approves and captures the payload, on a real temp
 * file holding `before`; returns the payload and the bytes written, so the diff can be checked against what
 * was actually written.
 */
export async function gatedRun(
  before: string | Buffer,
  call: (inner: FileSystemToolset) => Promise<[string, Record<string, unknown>]>,
): Promise<{ outcome: any; payload: any; disk: Buffer; ms: number }> {
  const { ApprovalToolset } = await import('../../src/index.js');
  const dir = tempDir('rt63-g-');
  writeFileSync(join(dir, 'f.txt'), before);
  const inner = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), { limits: LIMITS });
  let payload: any;
  let ms = 0;
  const t0 = performance.now();
  const g = new ApprovalToolset(inner, {
    approve: (req: any) => {
      payload = { ...req.payload, unifiedDiff: req.payload.unifiedDiff };
      ms = performance.now() - t0;
      return { approved: true };
    },
  });
  const [name, args] = await call(inner);
  const outcome = await g.callTool(name, args);
  return { outcome, payload, disk: readFileSync(join(dir, 'f.txt')), ms };
}

/** The hashed-line anchors of the file in `inner` (read_file hashes: true). */
export async function anchors(inner: FileSystemToolset): Promise<string[]> {
  const rd = (await inner.callTool('read_file', { path: '/f.txt', hashes: true })) as any;
  if (!rd.ok) throw new Error(rd.error.message);
  return (rd.data.content as string).split('\n').map((r) => r.split('|')[0]!);
}

// ------------------------------------------------------------------------------------------- shapes

/** Each line: with probability d/3 deleted, d/3 preceded by a random alphabet line, d/3 replaced by one. */
export function denseEdit(
  a: readonly string[],
  r: () => number,
  d: number,
  alph: readonly string[],
): string[] {
  return a.flatMap((l) => {
    const x = r();
    if (x < d / 3) return [];
    if (x < (2 * d) / 3) return [alph[Math.floor(r() * alph.length)]!, l];
    if (x < d) return [alph[Math.floor(r() * alph.length)]!];
    return [l];
  });
}

/** "HEAD", n lines of period p ("L0".."L{p-1}"), "TAIL"; and the same with the middle densely edited. */
export function periodicPair(
  n: number,
  p: number,
  d: number,
  r: () => number,
): { before: string; after: string } {
  const blk = Array.from({ length: p }, (_, i) => `L${i}`);
  const mid = Array.from({ length: n }, (_, i) => blk[i % p]!);
  return {
    before: text(['HEAD', ...mid, 'TAIL']),
    after: text(['HEAD', ...denseEdit(mid, r, d, blk), 'TAIL']),
  };
}

/** write_file dry-run payload with explicit limits (e.g. a larger diffTimeBudgetMs). */
export async function writePayloadWith(
  before: string,
  after: string,
  limits: Record<string, number>,
): Promise<Payload> {
  const dir = tempDir('rt63-wl-');
  writeFileSync(join(dir, 'f.txt'), before);
  const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), {
    limits: { ...LIMITS, ...limits },
  });
  const t0 = performance.now();
  return payloadOf(await ts.callTool('write_file', { path: '/f.txt', content: after, dryRun: true }), t0);
}
