import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import type { GoldEdit } from './corpus.js';
import { type Scenario, styleRequestLine, type ToolUnderTest } from './scenarios.js';

export type Verdict = 'correct' | 'rejected' | 'wrong' | 'n/a';

const tabify = (line: string) => {
  const m = /^( {2})+/.exec(line);
  return m ? '\t'.repeat(m[0].length / 2) + line.slice(m[0].length) : line;
};

function request(tool: ToolUnderTest, edit: GoldEdit, scenario: Scenario, anchors: string[], sha: string) {
  const lines = edit.original.split('\n');
  const t = edit.target;
  const style = scenario.request;
  const ctxBefore = style.minimal ? [] : lines.slice(t - 3, t);
  const ctxAfter = style.minimal ? [] : lines.slice(t + 1, t + 4);
  const region = [...ctxBefore, lines[t]!, ...ctxAfter];
  const indent = Math.min(...region.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  const old = (l: string) => styleRequestLine(l, style, 'old', indent);
  const neu = (l: string) => styleRequestLine(l, style, 'new', indent);
  // Drops a context line that is not next to the change and is distinctive (dropping one of two
  // identical blank lines would be no mistake at all).
  let dropAt = -1;
  if (style.dropMiddleContext) {
    dropAt =
      [1].find((i) => {
        const l = ctxBefore[i]!;
        return l.trim() !== '' && !lines.some((other, j) => j !== t - 3 + i && other === l);
      }) ?? -2;
    if (dropAt === -2) return null;
  }
  if (tool === 'edit_file') {
    const oldLines = [...ctxBefore.filter((_, i) => i !== dropAt), lines[t]!, ...ctxAfter].map(old);
    const newLines = [...ctxBefore.filter((_, i) => i !== dropAt), ...edit.replacement, ...ctxAfter].map(neu);
    return { path: '/f.js', old_string: oldLines.join('\n'), new_string: newLines.join('\n') };
  }
  if (tool === 'patch_file') {
    const body = [
      ...ctxBefore.filter((_, i) => i !== dropAt).map((l) => ` ${old(l)}`),
      `-${old(lines[t]!)}`,
      ...edit.replacement.map((l) => `+${neu(l)}`),
      ...ctxAfter.map((l) => ` ${old(l)}`),
    ];
    const start = t - ctxBefore.length + 1;
    const oldCount = body.filter((l) => !l.startsWith('+')).length;
    const newCount = body.filter((l) => !l.startsWith('-')).length;
    const header =
      style.hunkHeader === 'wrong-numbers'
        ? `@@ -${start + 37},${oldCount} +${start + 37},${newCount} @@`
        : style.hunkHeader === 'wrong-counts'
          ? `@@ -${start},${oldCount + 4} +${start},${newCount - 1} @@`
          : style.hunkHeader === 'no-numbers'
            ? '@@ @@'
            : `@@ -${start},${oldCount} +${start},${newCount} @@`;
    return {
      path: '/f.js',
      unified_diff: ['--- a/f.js', '+++ b/f.js', header, ...body, ''].join('\n'),
      base_sha256: sha,
    };
  }
  const anchor = anchors[t]!;
  const hash = anchor.slice(anchor.indexOf('#') + 1);
  return {
    path: '/f.js',
    operations: [
      {
        op: 'replace_line',
        hash,
        line: t + 1 + (style.lineHintOffset ?? 0),
        content: edit.replacement.join('\n'),
      },
    ],
  };
}

const stripTrailing = (s: string) => s.replace(/[ \t]+(?=\r?\n|$)/g, '');

/** Replays one gold edit under one mistake through one tool, and judges the outcome against the gold file. */
export async function replay(edit: GoldEdit, scenario: Scenario, tool: ToolUnderTest): Promise<Verdict> {
  const expectation = scenario.expect[tool];
  if (expectation === null) return 'n/a';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fidelity-'));
  try {
    const read = scenario.diskAtRead(edit.original.split('\n'), edit);
    const file = path.join(dir, 'f.js');
    fs.writeFileSync(file, read.lines.join(read.eol));
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), {
      limits: { readMaxLines: 1_000_000, readMaxChars: 100_000_000 },
    });
    const readOutcome = await toolset.callTool('read_file', { path: '/f.js', hashes: tool === 'edit_lines' });
    if (!readOutcome.ok) throw new Error(readOutcome.error.message);
    const data = readOutcome.data as { content: string; sha256: string };
    let lines = read.lines;
    let target = edit.target;
    let targetChanged = false;
    if (scenario.afterRead) {
      const after = scenario.afterRead(lines, target);
      ({ lines, target } = after);
      targetChanged = after.targetChanged ?? false;
      fs.writeFileSync(file, lines.join(read.eol));
    }
    const before = fs.readFileSync(file, 'utf8');
    const replacement = read.tabs ? edit.replacement.map(tabify) : edit.replacement;
    const gold = [...lines.slice(0, target), ...replacement, ...lines.slice(target + 1)].join(read.eol);
    const outcome = await toolset.callTool(
      tool,
      request(tool, edit, scenario, data.content.split('\n'), data.sha256),
    );
    const after = fs.readFileSync(file, 'utf8');
    if (!outcome.ok) return after === before ? 'rejected' : 'wrong';
    // Applying over a line the user changed after the read is always wrong; otherwise the result decides.
    if (targetChanged) return 'wrong';
    const same = scenario.trailingInsensitive ? stripTrailing(after) === stripTrailing(gold) : after === gold;
    return same ? 'correct' : 'wrong';
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
