// rt35 red-team harness: real temp dirs, public API only, a strict unified-diff applier.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

export const BIG = { readMaxChars: 500_000_000, readMaxLines: 5_000_000 };

const made: string[] = [];
export function cleanup(): void {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}
export function tempDir(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt35-')));
  made.push(dir);
  return dir;
}

export interface Env {
  dir: string;
  toolset: FileSystemToolset;
  gated: ApprovalToolset;
  payloads: any[];
  write(content: string | Buffer, file?: string): void;
  disk(file?: string): string;
}

export function env(limits: Record<string, number> = BIG): Env {
  const dir = tempDir();
  const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), { limits });
  const payloads: any[] = [];
  const gated = new ApprovalToolset(toolset, {
    approve: (req) => {
      payloads.push(structuredClone(req.payload));
      return { approved: true };
    },
  });
  return {
    dir,
    toolset,
    gated,
    payloads,
    write: (c, f = 'f.txt') => fs.writeFileSync(path.join(dir, f), c),
    disk: (f = 'f.txt') => fs.readFileSync(path.join(dir, f), 'utf8'),
  };
}

interface L {
  text: string;
  nl: boolean;
}
function toLines(s: string): L[] {
  if (s === '') return [];
  const parts = s.split('\n');
  const out: L[] = parts.map((t) => ({ text: t, nl: true }));
  if (parts[parts.length - 1] === '') out.pop();
  else out[out.length - 1]!.nl = false;
  return out;
}
function fromLines(ls: L[]): string {
  return ls.map((l) => l.text + (l.nl ? '\n' : '')).join('');
}

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: Array<{ op: ' ' | '-' | '+'; text: string; nl: boolean }>;
}

export function parseHunks(udiff: string): Hunk[] {
  const raw = udiff.split('\n');
  if (raw[raw.length - 1] === '') raw.pop();
  const hunks: Hunk[] = [];
  let h: Hunk | undefined;
  for (const line of raw) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (m) {
      h = {
        oldStart: Number(m[1]),
        oldLines: m[2] === undefined ? 1 : Number(m[2]),
        newStart: Number(m[3]),
        newLines: m[4] === undefined ? 1 : Number(m[4]),
        lines: [],
      };
      hunks.push(h);
      continue;
    }
    if (!h) {
      if (
        line.startsWith('--- ') ||
        line.startsWith('+++ ') ||
        line.startsWith('Index') ||
        line.startsWith('===')
      )
        continue;
      throw new Error(`junk before first hunk: ${JSON.stringify(line.slice(0, 80))}`);
    }
    if (line.startsWith('\\')) {
      const last = h.lines[h.lines.length - 1];
      if (!last) throw new Error('no-newline marker with no line');
      last.nl = false;
      continue;
    }
    const op = line[0];
    if (op !== ' ' && op !== '-' && op !== '+')
      throw new Error(`bad diff line: ${JSON.stringify(line.slice(0, 80))}`);
    h.lines.push({ op, text: line.slice(1), nl: true });
  }
  return hunks;
}

/**
 * Applies a unified diff strictly: every hunk exactly at its header's line numbers (no search, no fuzz),
 * header counts equal to the hunk's lines, new-side numbers consistent with the old side.
 * Throws with a description on any inconsistency.
 */
export function strictApply(before: string, udiff: string): string {
  const old = toLines(before);
  const hunks = parseHunks(udiff);
  const out: L[] = [];
  let cursor = 0; // old index consumed
  let delta = 0;
  for (const [k, h] of hunks.entries()) {
    const o = h.lines.filter((l) => l.op !== '+').length;
    const n = h.lines.filter((l) => l.op !== '-').length;
    if (o !== h.oldLines || n !== h.newLines)
      throw new Error(`hunk ${k}: header counts -${h.oldLines} +${h.newLines} but body has -${o} +${n}`);
    const at = h.oldLines === 0 ? h.oldStart : h.oldStart - 1;
    if (at < cursor) throw new Error(`hunk ${k}: starts at old line ${h.oldStart}, overlapping/out of order`);
    if (at > old.length) throw new Error(`hunk ${k}: starts past the end (${h.oldStart} > ${old.length})`);
    for (let i = cursor; i < at; i++) out.push(old[i]!);
    const newAt = out.length;
    const expectNewStart = h.newLines === 0 ? newAt : newAt + 1;
    if (h.newStart !== expectNewStart)
      throw new Error(
        `hunk ${k}: new start ${h.newStart}, expected ${expectNewStart} (old start ${h.oldStart})`,
      );
    let i = at;
    for (const l of h.lines) {
      if (l.op === '+') {
        out.push({ text: l.text, nl: l.nl });
        continue;
      }
      const have = old[i];
      if (!have || have.text !== l.text || have.nl !== l.nl)
        throw new Error(
          `hunk ${k}: old line ${i + 1} is ${JSON.stringify(have)} but diff says ${l.op}${JSON.stringify(l)}`,
        );
      if (l.op === ' ') out.push(have);
      i++;
    }
    cursor = i;
    delta += n - o;
  }
  for (let i = cursor; i < old.length; i++) out.push(old[i]!);
  void delta;
  return fromLines(out);
}

export function counts(udiff: string): { added: number; removed: number; lines: number } {
  let added = 0;
  let removed = 0;
  for (const h of parseHunks(udiff))
    for (const l of h.lines) {
      if (l.op === '+') added++;
      if (l.op === '-') removed++;
    }
  const lines = udiff === '' ? 0 : udiff.replace(/\n$/, '').split('\n').length;
  return { added, removed, lines };
}

/** The model's view of a file: no BOM, LF. */
export function view(s: string): string {
  return s.replace(/^\ufeff/, '').replace(/\r\n/g, '\n');
}

/**
 * Checks "what is shown is what runs": payload.unifiedDiff strictly applied to the old bytes gives the
 * new bytes; added/removed/diffLines agree with it. Returns a list of problems (empty = fine).
 */
export function checkShown(before: string, after: string, payload: any): string[] {
  const bad: string[] = [];
  if (!payload) return ['no payload'];
  let applied: string | undefined;
  try {
    applied = strictApply(before, payload.unifiedDiff);
  } catch (e) {
    bad.push(`payload diff does not apply strictly: ${(e as Error).message}`);
  }
  if (applied !== undefined && applied !== after) bad.push('payload diff applied != disk after');
  try {
    const c = counts(payload.unifiedDiff);
    if (c.added !== payload.added) bad.push(`added ${payload.added} != ${c.added}`);
    if (c.removed !== payload.removed) bad.push(`removed ${payload.removed} != ${c.removed}`);
    if (payload.diffLines !== undefined && c.lines !== payload.diffLines)
      bad.push(`diffLines ${payload.diffLines} != ${c.lines}`);
  } catch {
    /* reported above */
  }
  return bad;
}

/** Checks a tool result's `diff` when it is not abbreviated: on the bytes, or on the model view (LF, no BOM). */
export function checkResultDiff(before: string, after: string, diff: string | undefined): string[] {
  if (diff === undefined) return ['no result diff'];
  if (/omitted|leaves out|more (added |removed )?lines/i.test(diff)) return [];
  let raw = '';
  try {
    if (strictApply(before, diff) === after) return [];
    raw = 'applied != after';
  } catch (e) {
    raw = (e as Error).message;
  }
  try {
    const got = strictApply(view(before), diff);
    return got === view(after) ? [] : [`result diff applied != disk after (bytes: ${raw})`];
  } catch (e) {
    return [`result diff does not apply strictly: bytes: ${raw}; view: ${(e as Error).message}`];
  }
}

/** Parses a hashed read page into [line, hash, text]. */
export function parseHashed(content: string): Array<{ line: number; hash: string; text: string }> {
  const raw = content.split('\n');
  if (raw[raw.length - 1] === '') raw.pop();
  return raw.map((l) => {
    const m = /^(\d+)#([0-9a-zA-Z]+)\|/.exec(l);
    if (!m) throw new Error(`bad hashed line: ${JSON.stringify(l.slice(0, 80))}`);
    return { line: Number(m[1]), hash: m[2]!, text: l.slice(m[0].length) };
  });
}
