import type { ChangeSetFile } from './change-set.js';
import { splitLines } from './hunks.js';

/** Unchanged lines shown around a change. */
const CONTEXT = 2;

/**
 * A base's lines, split once per change set: every review surface renders each
 * hunk of a file, and splitting the whole base per hunk made a review cost
 * hunks × file lines.
 */
const baseLines = new WeakMap<ChangeSetFile['base'], string[]>();

function linesOf(origin: ChangeSetFile['base']): string[] {
  let lines = baseLines.get(origin);
  if (!lines) {
    lines = splitLines(origin.text ?? '');
    baseLines.set(origin, lines);
  }
  return lines;
}

/** One hunk as a small unified diff (with a little context), for the shared diff renderer. */
export function hunkDiff(file: ChangeSetFile, index: number, context = CONTEXT): string {
  const lines = linesOf(file.sourceBase ?? file.base);
  const h = file.hunks[index]!;
  const before = lines.slice(Math.max(0, h.oldIndex - context), h.oldIndex);
  const after = lines.slice(h.oldIndex + h.removed.length, h.oldIndex + h.removed.length + context);
  const out = [`--- a${file.movedFrom ?? file.path}`, `+++ b${file.path}`];
  const oldCount = before.length + h.removed.length + after.length;
  const newCount = before.length + h.added.length + after.length;
  const oldStart = h.oldIndex - before.length + (oldCount ? 1 : 0);
  const newStart = h.newIndex - before.length + (newCount ? 1 : 0);
  out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
  const put = (sign: string, line: string) => {
    out.push(sign + line.replace(/\n$/, ''));
    if (!line.endsWith('\n')) out.push('\\ No newline at end of file');
  };
  for (const l of before) put(' ', l);
  for (const l of h.removed) put('-', l);
  for (const l of h.added) put('+', l);
  for (const l of after) put(' ', l);
  return `${out.join('\n')}\n`;
}
