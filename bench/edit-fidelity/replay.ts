import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import type { GoldEdit } from './corpus.js';
import { type RequestStyle, type Scenario, styleRequestLine, type ToolUnderTest } from './scenarios.js';

export type Verdict = 'correct' | 'rejected' | 'wrong' | 'n/a';

const tabify = (line: string) => {
  const m = /^( {2})+/.exec(line);
  return m ? '\t'.repeat(m[0].length / 2) + line.slice(m[0].length) : line;
};

/** The change the model means to make: replace `remove` lines at `at` with `insert`. */
interface Intent {
  at: number;
  remove: number;
  insert: string[];
  op: 'replace_line' | 'insert_after';
}

const isBlank = (l: string) => l.trim() === '';
const isBrace = (l: string) => l.trim() === '}';
const lowEntropy = (l: string) => l.trim() !== '' && !/[\p{L}\p{N}]/u.test(l);

/** The line nearest to `from` (after it first) that satisfies `ok`, or -1 (`lines` holds real lines only). */
function nearest(lines: string[], from: number, ok: (i: number) => boolean): number {
  for (let d = 1; d < lines.length; d++) {
    if (from + d < lines.length && ok(from + d)) return from + d;
    if (from - d >= 0 && ok(from - d)) return from - d;
  }
  return -1;
}

/**
 * The intended edit. The usual one replaces the gold target line; the anchor rows of
 * edit_lines pick a low-entropy line near it (blank, a lone "}", or a symbol-only line whose
 * hash is unique in the file) and insert after it or change it. Null when the file has none.
 */
function intentFor(edit: GoldEdit, style: RequestStyle, lines: string[], anchors: string[]): Intent | null {
  if (!style.anchorOn) return { at: edit.target, remove: 1, insert: edit.replacement, op: 'replace_line' };
  const hashOf = (i: number) => anchors[i]!.slice(anchors[i]!.indexOf('#') + 1);
  // The text after the final newline is no line (read_file shows no anchor for it).
  lines = lines.slice(0, anchors.length);
  const n = edit.target + 1;
  if (style.anchorOn === 'unique-hash') {
    const at = nearest(
      lines,
      edit.target,
      (i) => lowEntropy(lines[i]!) && !anchors.some((_, j) => j !== i && hashOf(j) === hashOf(i)),
    );
    return at === -1 ? null : { at, remove: 1, insert: [`${lines[at]} // edited ${n}`], op: 'replace_line' };
  }
  const at = nearest(lines, edit.target, (i) => (style.anchorOn === 'blank' ? isBlank : isBrace)(lines[i]!));
  if (at === -1) return null;
  return {
    at: at + 1,
    remove: 0,
    insert: [`void ${n}; // inserted after line ${at + 1}`],
    op: 'insert_after',
  };
}

function request(
  tool: ToolUnderTest,
  edit: GoldEdit,
  scenario: Scenario,
  intent: Intent,
  anchors: string[],
  sha: string,
) {
  const lines = edit.original.split('\n');
  const t = edit.target;
  const style = scenario.request;
  const ctxBefore = style.minimal ? [] : lines.slice(t - 3, t);
  const ctxAfter = style.minimal ? [] : lines.slice(t + 1, t + 4);
  const region = [...ctxBefore, lines[t]!, ...ctxAfter];
  const indent = Math.min(...region.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  // Every line the model writes carries its slip: copied ones and new ones alike.
  const slip = (l: string) => styleRequestLine(l, style, indent);
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
    const oldLines = [...ctxBefore.filter((_, i) => i !== dropAt), lines[t]!, ...ctxAfter].map(slip);
    const newLines = [...ctxBefore.filter((_, i) => i !== dropAt), ...edit.replacement, ...ctxAfter].map(
      slip,
    );
    return { path: '/f.js', old_string: oldLines.join('\n'), new_string: newLines.join('\n') };
  }
  if (tool === 'patch_file') {
    const body = [
      ...ctxBefore.filter((_, i) => i !== dropAt).map((l) => ` ${slip(l)}`),
      `-${slip(lines[t]!)}`,
      ...edit.replacement.map((l) => `+${slip(l)}`),
      ...ctxAfter.map((l) => ` ${slip(l)}`),
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
  const anchorLine = intent.op === 'insert_after' ? intent.at - 1 : intent.at;
  const anchor = anchors[anchorLine]!;
  const hash = anchor.slice(anchor.indexOf('#') + 1);
  const line = anchorLine + 1 + (style.lineHintOffset ?? 0);
  return {
    path: '/f.js',
    operations: [
      style.lineInAnchor
        ? { op: intent.op, hash: `${line}#${hash}`, content: intent.insert.join('\n') }
        : { op: intent.op, hash, line, content: intent.insert.join('\n') },
    ],
  };
}

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
    const anchors = data.content.split('\n').map((l) => l.slice(0, l.indexOf('|')));
    const intent = intentFor(edit, scenario.request, read.lines, anchors);
    if (!intent) return 'n/a';
    let lines = read.lines;
    let target = intent.at;
    let targetChanged = false;
    if (scenario.afterRead) {
      const after = scenario.afterRead(lines, target);
      ({ lines, target } = after);
      targetChanged = after.targetChanged ?? false;
      fs.writeFileSync(file, lines.join(read.eol));
    }
    const before = fs.readFileSync(file, 'utf8');
    const replacement = read.tabs ? intent.insert.map(tabify) : intent.insert;
    const gold = [...lines.slice(0, target), ...replacement, ...lines.slice(target + intent.remove)].join(
      read.eol,
    );
    const args = request(tool, edit, scenario, intent, anchors, data.sha256);
    if (args === null) return 'n/a';
    const outcome = await toolset.callTool(tool, args);
    const after = fs.readFileSync(file, 'utf8');
    if (!outcome.ok) return after === before ? 'rejected' : 'wrong';
    // Applying over a line the user changed after the read is always wrong; otherwise the result
    // decides, byte for byte: a slip the tool let through into an unchanged line is an error too.
    if (targetChanged) return 'wrong';
    return after === gold ? 'correct' : 'wrong';
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
