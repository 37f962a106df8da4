// rt31 red-team harness: one real temp dir per call, public API only.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

const made: string[] = [];
export function cleanupAll(): void {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}
export function mkdir(prefix = 'rt31-'): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}
export const sha = (b: Buffer | string) => crypto.createHash('sha256').update(b).digest('hex');

export interface Out {
  outcome: { ok: boolean; data?: any; error?: any };
  before: string;
  after: string;
  afterBytes: Buffer;
}

/** Run one tool on a file holding `before` (through ApprovalToolset approving everything when gated). */
export async function runTool(
  before: string | Buffer,
  tool: string,
  args: Record<string, unknown>,
  opts: { gated?: boolean; file?: string } = {},
): Promise<Out> {
  const dir = mkdir();
  const file = opts.file ?? 'f.txt';
  fs.writeFileSync(path.join(dir, file), before);
  const toolset = new FileSystemToolset(
    Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: !!opts.gated }),
  );
  const t = opts.gated ? new ApprovalToolset(toolset, { approve: () => ({ approved: true }) }) : toolset;
  const outcome = (await t.callTool(tool, { path: `/${file}`, ...args })) as Out['outcome'];
  const afterBytes = fs.readFileSync(path.join(dir, file));
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    outcome,
    before: typeof before === 'string' ? before : before.toString('utf8'),
    after: afterBytes.toString('utf8'),
    afterBytes,
  };
}

/** Split into [content, eol] pairs; only \n and \r\n end a line. */
export function splitLines(body: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const re = /\r?\n/g;
  let last = 0;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    out.push([body.slice(last, m.index), m[0]]);
    last = m.index + m[0].length;
  }
  if (last < body.length) out.push([body.slice(last), '']);
  return out;
}

export const fold = (s: string) =>
  s
    .replace(/[\u2018\u2019\u201A\u201B\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F\u2033]/g, '"')
    .replace(/[\u2012\u2013\u2014\u2015]/g, '-')
    .replace(/\u2026/g, '...')
    .replace(/\u00A0/g, ' ');

export type Level = 'trailing_whitespace' | 'indentation' | 'unicode';
export const LEVELS: Level[] = ['trailing_whitespace', 'indentation', 'unicode'];
export function key(level: Level, s: string): string {
  if (level === 'trailing_whitespace') return s.replace(/[ \t]+$/, '');
  if (level === 'indentation') return s.replace(/^[ \t]+/, '').replace(/[ \t]+$/, '');
  return fold(s)
    .replace(/^[ \t]+/, '')
    .replace(/[ \t]+$/, '');
}

/** Brute force: slide a window; first level with any match; all (overlapping) window starts (0-based). */
export function refMatch(fileLines: string[], oldLines: string[]): { level: Level; starts: number[] } | null {
  for (const level of LEVELS) {
    const starts: number[] = [];
    for (let i = 0; i + oldLines.length <= fileLines.length; i++) {
      let ok = true;
      for (let j = 0; j < oldLines.length && ok; j++)
        ok = key(level, fileLines[i + j]!) === key(level, oldLines[j]!);
      if (ok) starts.push(i);
    }
    if (starts.length) return { level, starts };
  }
  return null;
}

/** old_string → its lines as a line-wise matcher sees them (one final newline ends the last line). */
export function oldLinesOf(old: string): string[] {
  let s = old.replace(/\r\n/g, '\n');
  if (s.endsWith('\n')) s = s.slice(0, -1);
  return s.split('\n');
}
