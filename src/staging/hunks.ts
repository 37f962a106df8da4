import { createHash } from 'node:crypto';
import { diffLines } from 'diff';

/**
 * One change region between a file's base and its staged content, with no
 * context lines: hunks never overlap, so any subset applies cleanly to the base.
 * Lines keep their terminators, so a missing final newline is a change like any other.
 */
export interface Hunk {
  /** Stable for the same file, position and content (sha-256 prefix). */
  id: string;
  /** 0-based index in the base's lines where the removed lines start (or the insertion point). */
  oldIndex: number;
  /** 0-based index of the same place in the staged content. */
  newIndex: number;
  removed: string[];
  added: string[];
}

/** Diffs that take longer than this become one whole-file hunk (huge or pathological inputs). */
const DIFF_TIMEOUT_MS = 500;

/** Splits text into lines that keep their "\n" (the last may lack it). */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

export function computeHunks(path: string, base: string, staged: string): Hunk[] {
  if (base === staged) return [];
  const changes = diffLines(base, staged, { timeout: DIFF_TIMEOUT_MS });
  if (!changes) return [makeHunk(path, 0, 0, splitLines(base), splitLines(staged))];
  const hunks: Hunk[] = [];
  let oldIndex = 0;
  let newIndex = 0;
  let open: { oldIndex: number; newIndex: number; removed: string[]; added: string[] } | undefined;
  const close = () => {
    if (open) hunks.push(makeHunk(path, open.oldIndex, open.newIndex, open.removed, open.added));
    open = undefined;
  };
  for (const change of changes) {
    const lines = splitLines(change.value);
    if (!change.added && !change.removed) {
      close();
      oldIndex += lines.length;
      newIndex += lines.length;
      continue;
    }
    open ??= { oldIndex, newIndex, removed: [], added: [] };
    if (change.removed) {
      open.removed.push(...lines);
      oldIndex += lines.length;
    } else {
      open.added.push(...lines);
      newIndex += lines.length;
    }
  }
  close();
  return hunks;
}

function makeHunk(
  path: string,
  oldIndex: number,
  newIndex: number,
  removed: string[],
  added: string[],
): Hunk {
  const id = createHash('sha256')
    .update(`${path}\0${oldIndex}\0${removed.join('')}\0${added.join('')}`)
    .digest('hex')
    .slice(0, 12);
  return { id, oldIndex, newIndex, removed, added };
}

/** The base with exactly the hunks in `accepted` applied. */
export function applyHunks(base: string, hunks: readonly Hunk[], accepted: ReadonlySet<string>): string {
  const lines = splitLines(base);
  const out: string[] = [];
  let at = 0;
  for (const h of [...hunks].sort((a, b) => a.oldIndex - b.oldIndex)) {
    for (; at < h.oldIndex; at++) out.push(lines[at]!);
    out.push(...(accepted.has(h.id) ? h.added : h.removed));
    at = h.oldIndex + h.removed.length;
  }
  for (; at < lines.length; at++) out.push(lines[at]!);
  return out.join('');
}

/** The staged content with the hunks in `rejected` undone (the same result from the other side). */
export function revertHunks(staged: string, hunks: readonly Hunk[], rejected: ReadonlySet<string>): string {
  const lines = splitLines(staged);
  const out: string[] = [];
  let at = 0;
  for (const h of [...hunks].sort((a, b) => a.newIndex - b.newIndex)) {
    for (; at < h.newIndex; at++) out.push(lines[at]!);
    out.push(...(rejected.has(h.id) ? h.removed : h.added));
    at = h.newIndex + h.added.length;
  }
  for (; at < lines.length; at++) out.push(lines[at]!);
  return out.join('');
}
