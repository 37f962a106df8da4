import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyPatch, parsePatch } from 'diff';
import type { ApprovalPayload } from '../../src/index.js';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

const made: string[] = [];
export function cleanup(): void {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}
function tempDir(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-diff-'));
  made.push(dir);
  for (const [k, v] of Object.entries(files)) fs.writeFileSync(path.join(dir, k), v);
  return dir;
}

export interface Run {
  payload: ApprovalPayload | undefined;
  outcome: { ok: boolean; data?: any; error?: any };
  before: string;
  after: string;
  dir: string;
}

/** Run one tool through ApprovalToolset on a file holding `before`; capture the payload shown. */
export async function runGated(
  before: string,
  tool: string,
  args: Record<string, unknown>,
  file = 'f.txt',
  limits?: Record<string, number>,
): Promise<Run> {
  const dir = tempDir({ [file]: before });
  const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), limits ? { limits } : {});
  let payload: ApprovalPayload | undefined;
  const gated = new ApprovalToolset(toolset, {
    approve: (req) => {
      payload = structuredClone(req.payload);
      return { approved: true };
    },
  });
  const outcome = (await gated.callTool(tool, { path: `/${file}`, ...args })) as Run['outcome'];
  const after = fs.readFileSync(path.join(dir, file), 'utf8');
  return { payload, outcome, before, after, dir };
}

/** Problems with the payload diff vs the real write; [] when the promise held. */
export function checkDiff(r: Run): string[] {
  const errs: string[] = [];
  const p = r.payload as any;
  if (!r.outcome.ok) return errs;
  if (r.after === r.before) return errs;
  if (!p) return ['no approval asked for a write'];
  if (p.diffCoarse) return errs;
  if (typeof p.unifiedDiff !== 'string') return ['no unifiedDiff'];
  const applied = applyPatch(r.before, p.unifiedDiff, { autoConvertLineEndings: false } as any);
  if (applied === false) errs.push('diff does not apply to the old file');
  else if (applied !== r.after)
    errs.push(
      `diff applied != written: ${JSON.stringify(applied).slice(0, 300)} vs ${JSON.stringify(r.after).slice(0, 300)}`,
    );
  const lines = p.unifiedDiff.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let add = 0;
  let rem = 0;
  for (const l of lines) {
    if (l.startsWith('+++') || l.startsWith('---')) continue;
    if (l.startsWith('+')) add++;
    else if (l.startsWith('-')) rem++;
  }
  if (add !== p.added || rem !== p.removed)
    errs.push(`counts added ${p.added}/${add} removed ${p.removed}/${rem}`);
  if (p.diffLines !== lines.length && p.diffLines !== p.unifiedDiff.split('\n').length)
    errs.push(`diffLines ${p.diffLines} vs ${lines.length}`);
  const dm = /\(\+(\d+) −(\d+)\)/.exec(p.description ?? '');
  if (dm && (Number(dm[1]) !== p.added || Number(dm[2]) !== p.removed))
    errs.push(`description ${p.description} vs +${p.added} −${p.removed}`);
  errs.push(...strictHunks(r.before, p.unifiedDiff));
  return errs;
}

/** Lines of a text as the diff package sees them (split after each \n). */
function splitKeep(t: string): string[] {
  const out = t.split('\n');
  return out;
}

/** Each hunk's header names exactly the lines it covers (no offset search, no fuzz). */
export function strictHunks(before: string, unified: string): string[] {
  const errs: string[] = [];
  const [pp] = parsePatch(unified);
  if (!pp) return ['unparseable'];
  const old = splitKeep(before);
  let delta = 0;
  let prevEnd = 0;
  for (const h of pp.hunks) {
    const ctxOld = h.lines.filter((l) => l[0] === ' ' || l[0] === '-').map((l) => l.slice(1));
    const nNew = h.lines.filter((l) => l[0] === ' ' || l[0] === '+').length;
    if (ctxOld.length !== h.oldLines) errs.push(`hunk old count ${h.oldLines} vs ${ctxOld.length}`);
    if (nNew !== h.newLines) errs.push(`hunk new count ${h.newLines} vs ${nNew}`);
    const start = h.oldLines === 0 ? h.oldStart : h.oldStart - 1;
    if (start < prevEnd) errs.push('overlapping hunks');
    for (let k = 0; k < ctxOld.length; k++) {
      if (old[start + k] !== ctxOld[k]) {
        errs.push(
          `hunk @@ -${h.oldStart} line ${start + k + 1}: file has ${JSON.stringify(old[start + k])?.slice(0, 80)}, hunk says ${JSON.stringify(ctxOld[k]).slice(0, 80)}`,
        );
        break;
      }
    }
    const expNewStart = (h.oldLines === 0 ? h.oldStart : h.oldStart) + delta;
    const gotNewStart = h.newLines === 0 ? h.newStart : h.newStart;
    if (h.oldLines !== 0 && h.newLines !== 0 && gotNewStart !== expNewStart)
      errs.push(`newStart ${gotNewStart} expected ${expNewStart}`);
    delta += h.newLines - h.oldLines;
    prevEnd = start + ctxOld.length;
  }
  return errs;
}
