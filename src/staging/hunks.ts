import { diffTexts } from './line-diff.js';

/**
 * One change region between a file's base and its staged content, with no
 * context lines: hunks never overlap, so any subset applies cleanly to the base.
 * Lines keep their terminators, so a missing final newline is a change like any other.
 */
export interface Hunk {
  /** Stable for the same file, position and content (16 hex digits). */
  id: string;
  /** 0-based index in the base's lines where the removed lines start (or the insertion point). */
  oldIndex: number;
  /** 0-based index of the same place in the staged content. */
  newIndex: number;
  removed: string[];
  added: string[];
}

/** Splits text into lines that keep their "\n" (the last may lack it). */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

export function computeHunks(path: string, base: string, staged: string): Hunk[] {
  if (base === staged) return [];
  const oldLines = splitLines(base);
  const newLines = splitLines(staged);
  return diffTexts(base, staged).map((c) =>
    makeHunk(
      path,
      c.oldIndex,
      c.newIndex,
      oldLines.slice(c.oldIndex, c.oldIndex + c.removed),
      newLines.slice(c.newIndex, c.newIndex + c.added),
    ),
  );
}

/**
 * Two 32-bit FNV-1a-style hashes (different seeds) of the hunk's path, place and
 * lines: stable for the same change and unique in practice, at a fraction of a
 * sha-256 per hunk (a review of thousands of hunks opens at once).
 */
function hunkId(parts: readonly string[]): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x5bd1e995;
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) {
      const c = part.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995) ^ (h2 >>> 15);
    }
    h1 = Math.imul(h1 ^ 0xff, 0x01000193);
    h2 = Math.imul(h2 ^ 0xff, 0x5bd1e995);
  }
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}

function makeHunk(
  path: string,
  oldIndex: number,
  newIndex: number,
  removed: string[],
  added: string[],
): Hunk {
  return {
    id: hunkId([path, String(oldIndex), '-', ...removed, '+', ...added]),
    oldIndex,
    newIndex,
    removed,
    added,
  };
}

/** The base with exactly the hunks in `accepted` applied. */
export function applyHunks(base: string, hunks: readonly Hunk[], accepted: ReadonlySet<string>): string {
  const lines = splitLines(base);
  const out: string[] = [];
  let at = 0;
  for (const h of [...hunks].sort((a, b) => a.oldIndex - b.oldIndex)) {
    for (; at < h.oldIndex; at++) out.push(lines[at]!);
    for (const line of accepted.has(h.id) ? h.added : h.removed) out.push(line);
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
    for (const line of rejected.has(h.id) ? h.removed : h.added) out.push(line);
    at = h.newIndex + h.added.length;
  }
  for (; at < lines.length; at++) out.push(lines[at]!);
  return out.join('');
}
