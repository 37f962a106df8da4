import { applyPatch } from 'diff';
import { expect } from 'vitest';
import type { KnownShared } from '../../src/edit/bounded-diff.js';

/** Old-side lines (0-based) each `-` line removes and where each `+` line goes in, from a unified diff. */
export function changedOldLines(unifiedDiff: string): { removed: number[]; insertedAt: number[] } {
  const removed: number[] = [];
  const insertedAt: number[] = [];
  let old = 0;
  for (const line of unifiedDiff.split('\n')) {
    const header = /^@@ -(\d+)(?:,(\d+))? /.exec(line);
    if (header) {
      // An empty old side names the line before it.
      old = header[2] === '0' ? Number(header[1]) : Number(header[1]) - 1;
      continue;
    }
    if (line.startsWith('---') || line.startsWith('+++')) continue;
    if (line.startsWith('-')) removed.push(old++);
    else if (line.startsWith('+')) insertedAt.push(old);
    else if (line.startsWith(' ')) old++;
  }
  return { removed, insertedAt };
}

/**
 * The diff turns `before` into `after`, and shows every change inside the lines
 * the edit touched: old lines [firstLine, endLine) (an insertion at endLine included).
 */
export function expectDiffWithin(
  before: string,
  after: string,
  unifiedDiff: string,
  firstLine: number,
  endLine: number,
): void {
  expect(unifiedDiff === '' ? before : applyPatch(before, unifiedDiff)).toBe(after);
  const { removed, insertedAt } = changedOldLines(unifiedDiff);
  for (const l of removed) expect(l, unifiedDiff).toBeGreaterThanOrEqual(firstLine);
  for (const l of removed) expect(l, unifiedDiff).toBeLessThan(endLine);
  for (const l of insertedAt) expect(l, unifiedDiff).toBeGreaterThanOrEqual(firstLine);
  for (const l of insertedAt) expect(l, unifiedDiff).toBeLessThanOrEqual(endLine);
}

/** The old lines a KnownShared leaves between its ends: [first, end). */
export function hintLines(before: string, after: string, known: KnownShared): [number, number] {
  const first = before.slice(0, known.head).split('\n').length - 1;
  const endAt = before.length - known.tail;
  const afterEnd = after.length - known.tail;
  // A tail that starts mid-line (on either side) leaves that whole line inside.
  const startsLine = (t: string, at: number) => at === 0 || t[at - 1] === '\n';
  const whole = startsLine(before, endAt) && startsLine(after, afterEnd);
  const end = before.slice(0, endAt).split('\n').length - (whole ? 1 : 0);
  return [first, end];
}
