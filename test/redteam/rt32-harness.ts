// rt32 red-team harness: real temp dirs, public API only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { applyPatch, parsePatch } from 'diff';
import { aiSdkTools, answerApprovals } from '../../adapters/ai-sdk.js';
import { scriptedModel } from '../../examples/scripted-ai-model.js';
import type { ApprovalPayload } from '../../src/index.js';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

const made: string[] = [];
export function cleanup(): void {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}
export function tempDir(files: Record<string, string | Buffer> = {}): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt32-')));
  made.push(dir);
  for (const [k, v] of Object.entries(files)) fs.writeFileSync(path.join(dir, k), v);
  return dir;
}

export interface Run {
  payload: any;
  outcome: { ok: boolean; data?: any; error?: any };
  before: string;
  after: string;
  dir: string;
}

/** Run one tool through ApprovalToolset (approving) on a file holding `before`; capture the payload. */
export async function runGated(
  before: string,
  tool: string,
  args: Record<string, unknown> | ((anchors: string[]) => Record<string, unknown>),
  file = 'f.txt',
): Promise<Run> {
  const dir = tempDir({ [file]: before });
  const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
  let a = args;
  if (typeof a === 'function') {
    const rd: any = await toolset.callTool('read_file', { path: `/${file}`, hashes: true, limit: 2000 });
    a = a(anchorsOf(rd.data.content));
  }
  let payload: ApprovalPayload | undefined;
  const gated = new ApprovalToolset(toolset, {
    approve: (req) => {
      payload = structuredClone(req.payload);
      return { approved: true };
    },
  });
  const outcome = (await gated.callTool(tool, { path: `/${file}`, ...a })) as Run['outcome'];
  const after = fs.readFileSync(path.join(dir, file), 'utf8');
  fs.rmSync(dir, { recursive: true, force: true });
  return { payload, outcome, before, after, dir };
}

export function anchorsOf(content: string): string[] {
  return content
    .replace(/\n$/, '')
    .split('\n')
    .map((l: string) => l.split('|')[0]!);
}

/** Apply the payload's diff (no fuzz, no EOL conversion) to `before`. */
export function applyShown(before: string, unified: string): string | false {
  return applyPatch(before, unified, { autoConvertLineEndings: false, fuzzFactor: 0 } as any);
}

/**
 * The old→new line mapping a unified diff claims for lines it keeps (inside and
 * outside hunks), and the set of old lines it removes. 0-based.
 */
export function diffMapping(
  unified: string,
  oldCount: number,
): { keep: Map<number, number>; removed: Set<number> } {
  const keep = new Map<number, number>();
  const removed = new Set<number>();
  const [pp] = parsePatch(unified);
  let o = 0;
  let n = 0;
  for (const h of pp?.hunks ?? []) {
    const start = h.oldLines === 0 ? h.oldStart : h.oldStart - 1;
    while (o < start) keep.set(o++, n++);
    for (const l of h.lines) {
      if (l[0] === ' ') keep.set(o++, n++);
      else if (l[0] === '-') removed.add(o++);
      else if (l[0] === '+') n++;
    }
  }
  while (o < oldCount) keep.set(o++, n++);
  return { keep, removed };
}

/** A true change: old lines [oldFrom, oldTo) became new lines [newFrom, newTo). Regions sorted, disjoint. */
export interface Region {
  oldFrom: number;
  oldTo: number;
  newFrom: number;
  newTo: number;
}

/** Check the diff shows its changes only inside the true regions, keeping every other line in place. */
export function checkPlacement(unified: string, oldCount: number, regions: Region[]): string[] {
  const errs: string[] = [];
  const { keep, removed } = diffMapping(unified, oldCount);
  const truth = (i: number): number | 'in' => {
    let delta = 0;
    for (const r of regions) {
      if (i < r.oldFrom) return i + delta;
      if (i < r.oldTo) return 'in';
      delta += r.newTo - r.newFrom - (r.oldTo - r.oldFrom);
    }
    return i + delta;
  };
  for (let i = 0; i < oldCount; i++) {
    const t = truth(i);
    const k = keep.get(i);
    if (t === 'in') {
      if (k !== undefined) {
        const r = regions.find((r) => i >= r.oldFrom && i < r.oldTo)!;
        if (k < r.newFrom || k >= r.newTo)
          errs.push(`old line ${i + 1} (changed) shown kept at new line ${k + 1}`);
      }
    } else if (k === undefined) errs.push(`old line ${i + 1} (untouched) shown removed`);
    else if (k !== t)
      errs.push(`old line ${i + 1} (untouched, now line ${t + 1}) shown kept at new line ${k + 1}`);
  }
  void removed;
  return errs;
}

export interface NativeCall {
  name: string;
  input: Record<string, unknown>;
}

/**
 * Native mode (AI SDK): one model step issuing `calls` (all shown against the same state), all approved,
 * then executed. Returns the shown payloads (by call id order), tool outputs and final file text.
 */
export async function nativeBatch(
  dir: string,
  toolset: FileSystemToolset,
  calls: NativeCall[],
  file = 'f.txt',
): Promise<{ payloads: any[]; outputs: any[]; after: string }> {
  const tools = aiSdkTools(toolset, { approval: { mode: 'native' } });
  const m = scriptedModel([
    { calls: calls.map((c, n) => ({ id: `c${n}`, name: c.name, input: c.input })) },
    { text: 'done' },
  ]);
  const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
  const r1 = await generateText({ model: m.model as never, tools, messages, stopWhen: stepCountIs(3) });
  messages.push(...r1.response.messages);
  const payloads: any[] = [];
  messages.push(
    await answerApprovals(r1, {
      toolset,
      approve: (req: any) => {
        payloads.push(structuredClone(req.payload));
        return { approved: true };
      },
    }),
  );
  const r2 = await generateText({ model: m.model as never, tools, messages, stopWhen: stepCountIs(3) });
  const outputs: any[] = [];
  for (const msg of [...r2.response.messages, ...messages]) {
    if ((msg as any).role !== 'tool') continue;
    for (const part of (msg as any).content) if (part.type === 'tool-result') outputs.push(part);
  }
  const after = fs.readFileSync(path.join(dir, file), 'utf8');
  return { payloads, outputs, after };
}

/** A line of the true result: an original line (by index) or a new one. */
export type Tagged = { orig: number; text: string } | { orig: -1; text: string };

/** Check a diff against the true edit (the result as tagged lines): kept lines exactly where they went. */
export function checkAgainstTruth(unified: string, oldLines: string[], truth: Tagged[]): string[] {
  const errs: string[] = [];
  const { keep } = diffMapping(unified, oldLines.length);
  const where = new Map<number, number>();
  truth.forEach((t, k) => {
    if (t.orig >= 0) where.set(t.orig, k);
  });
  for (let i = 0; i < oldLines.length; i++) {
    const k = keep.get(i);
    const t = where.get(i);
    if (t !== undefined) {
      if (k === undefined) errs.push(`old line ${i + 1} (untouched) shown removed`);
      else if (k !== t) errs.push(`old line ${i + 1} (now line ${t + 1}) shown kept at line ${k + 1}`);
    } else if (k !== undefined && truth[k]?.orig !== -1)
      errs.push(`old line ${i + 1} (changed) shown kept at line ${k + 1}`);
  }
  return errs;
}

export type LineOp =
  | { kind: 'replace'; line: number; content: string }
  | { kind: 'insert_after'; line: number; content: string }
  | { kind: 'insert_before'; line: number; content: string }
  | { kind: 'delete'; line: number };

/** The true result of single-line ops in original coordinates (distinct lines). */
export function applyLineOps(lines: string[], ops: LineOp[]): Tagged[] {
  const out: Tagged[] = [];
  const by = new Map(ops.map((o) => [o.line, o]));
  lines.forEach((text, i) => {
    const o = by.get(i);
    if (o?.kind === 'insert_before') out.push({ orig: -1, text: o.content });
    if (o?.kind === 'replace') out.push({ orig: -1, text: o.content });
    else if (o?.kind !== 'delete') out.push({ orig: i, text });
    if (o?.kind === 'insert_after') out.push({ orig: -1, text: o.content });
  });
  return out;
}

export const toolLineOp = (o: LineOp, anchor: string) =>
  o.kind === 'replace'
    ? { op: 'replace_line', hash: anchor, content: o.content }
    : o.kind === 'delete'
      ? { op: 'delete_line', hash: anchor }
      : { op: o.kind, hash: anchor, content: o.content };

/** The edit script of single-line ops: ' ' kept, '-' removed, '+' added, with text. */
export function scriptOf(lines: string[], ops: LineOp[]): Array<[' ' | '-' | '+', string]> {
  const out: Array<[' ' | '-' | '+', string]> = [];
  const by = new Map(ops.map((o) => [o.line, o]));
  lines.forEach((text, i) => {
    const o = by.get(i);
    if (o?.kind === 'insert_before') out.push(['+', o.content]);
    if (o?.kind === 'replace') out.push(['-', text], ['+', o.content]);
    else if (o?.kind === 'delete') out.push(['-', text]);
    else out.push([' ', text]);
    if (o?.kind === 'insert_after') out.push(['+', o.content]);
  });
  return out;
}

/** A unified diff (correct @@ numbers) of an edit script, `context` lines around each change. */
export function unifiedOf(script: Array<[' ' | '-' | '+', string]>, context: number, file = 'f.txt'): string {
  const changed = script.map((s) => s[0] !== ' ');
  const inHunk = script.map((_, k) => {
    for (let d = -context; d <= context; d++) if (changed[k + d]) return true;
    return false;
  });
  let out = `--- a/${file}\n+++ b/${file}\n`;
  let o = 0;
  let n = 0;
  let k = 0;
  while (k < script.length) {
    if (!inHunk[k]) {
      if (script[k]![0] !== '+') o++;
      if (script[k]![0] !== '-') n++;
      k++;
      continue;
    }
    const start = k;
    const o0 = o;
    const n0 = n;
    const body: string[] = [];
    while (k < script.length && inHunk[k]) {
      const [t, s] = script[k]!;
      body.push(t + s);
      if (t !== '+') o++;
      if (t !== '-') n++;
      k++;
    }
    void start;
    const ol = o - o0;
    const nl = n - n0;
    out += `@@ -${ol === 0 ? o0 : o0 + 1},${ol} +${nl === 0 ? n0 : n0 + 1},${nl} @@\n${body.join('\n')}\n`;
  }
  return out;
}
