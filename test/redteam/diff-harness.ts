import fs from 'node:fs';
import path from 'node:path';
import { applyPatch } from 'diff';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';
import type { ApprovalPayload } from '../../src/index.js';
import os from 'node:os';

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
export async function runGated(before: string, tool: string, args: Record<string, unknown>, file = 'f.txt', limits?: Record<string, number>): Promise<Run> {
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
  else if (applied !== r.after) errs.push(`diff applied != written: ${JSON.stringify(applied).slice(0, 300)} vs ${JSON.stringify(r.after).slice(0, 300)}`);
  const lines = p.unifiedDiff.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let add = 0;
  let rem = 0;
  for (const l of lines) {
    if (l.startsWith('+++') || l.startsWith('---')) continue;
    if (l.startsWith('+')) add++;
    else if (l.startsWith('-')) rem++;
  }
  if (add !== p.added || rem !== p.removed) errs.push(`counts added ${p.added}/${add} removed ${p.removed}/${rem}`);
  if (p.diffLines !== lines.length && p.diffLines !== p.unifiedDiff.split('\n').length) errs.push(`diffLines ${p.diffLines} vs ${lines.length}`);
  return errs;
}
