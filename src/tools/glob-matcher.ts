import { segmentTest } from './glob-segment.js';

/**
 * A glob matcher whose time is bounded by the pattern's and the path's sizes: no
 * backtracking. Regex-compiled globs (picomatch, minimatch) backtrack: `*a*a*a*a*c`
 * against one file named `aaaa…a` took seconds, and with more stars minutes, blocking
 * the event loop. Here each path segment is matched against a segment pattern
 * (glob-segment.ts), and `**` segments by a set-of-positions walk over segments.
 *
 * Syntax: `*` (any characters but `/`), `?` (one character but `/`), `[abc]`, `[a-z]`,
 * `[!a]` / `[^a]` (one character of / not of a set), `{a,b}` (alternatives, nested:
 * glob-braces.ts), `**` as a whole segment (any number of segments, none included).
 * Dotfiles match. As in a shell, a trailing `/` (or `/.`) matches directories only, and
 * empty and `.` segments inside a pattern name nothing of their own (`a//b`, `a/./b` are
 * `a/b`). Extended globs and POSIX classes are refused by compileGlob.
 */

type Segment = { kind: 'globstar' } | { kind: 'glob'; test: (name: string) => boolean };

interface Alternative {
  segments: Segment[];
  /** It ended in "/": only directories match. */
  directories: boolean;
}

/** What one brace-free alternative names, or undefined when it names nothing below the listed directory. */
function parseAlternative(pattern: string): Alternative | undefined {
  // An alternative starting with "/" (`{/a,b}`) names an absolute path, never one below `path`.
  if (pattern.startsWith('/')) return undefined;
  const names = pattern.split('/');
  let directories = false;
  while (names.length > 0 && (names.at(-1) === '' || names.at(-1) === '.')) {
    names.pop();
    directories = true;
  }
  const kept = names.filter((s) => s !== '' && s !== '.');
  if (kept.length === 0) return undefined; // the listed directory itself, which is not one of its entries
  const segments = kept.map(
    (s): Segment => (s === '**' ? { kind: 'globstar' } : { kind: 'glob', test: segmentTest(s) }),
  );
  return { segments, directories };
}

/** Two state buffers of at least `size`, reused call to call (the walks below do not nest in themselves). */
function scratch(held: { a: Uint8Array; b: Uint8Array }, size: number): [Uint8Array, Uint8Array] {
  if (held.a.length < size) {
    held.a = new Uint8Array(size * 2);
    held.b = new Uint8Array(size * 2);
  }
  return [held.a, held.b];
}
const pathScratch = { a: new Uint8Array(64), b: new Uint8Array(64) };

/**
 * The pattern positions reached after the path's segments, `**` taking any number of them
 * (reach[p]: pattern segments [0, p) have matched); undefined when none is.
 */
function reachAfter(pattern: readonly Segment[], path: readonly string[]): Uint8Array | undefined {
  const size = pattern.length + 1;
  let [reach, next] = scratch(pathScratch, size);
  reach.fill(0, 0, size);
  reach[0] = 1;
  closeOverGlobstars(pattern, reach);
  for (const name of path) {
    next.fill(0, 0, size);
    let any = false;
    for (let p = 0; p < pattern.length; p++) {
      if (!reach[p]) continue;
      const s = pattern[p]!;
      if (s.kind === 'globstar') {
        next[p] = 1;
        any = true;
      } else if (s.test(name)) {
        next[p + 1] = 1;
        any = true;
      }
    }
    if (!any) return undefined;
    closeOverGlobstars(pattern, next);
    [reach, next] = [next, reach];
  }
  return reach;
}

function closeOverGlobstars(pattern: readonly Segment[], reach: Uint8Array): void {
  for (let p = 0; p < pattern.length; p++) if (reach[p] && pattern[p]!.kind === 'globstar') reach[p + 1] = 1;
}

/** Whether the path's segments match the whole pattern. */
function matchesAll(pattern: readonly Segment[], path: readonly string[]): boolean {
  return reachAfter(pattern, path)?.[pattern.length] === 1;
}

/** Whether the path's segments match a proper prefix of the pattern (so a longer path may match it all). */
function matchesPrefix(pattern: readonly Segment[], path: readonly string[]): boolean {
  const reach = reachAfter(pattern, path);
  return reach !== undefined && reach.subarray(0, pattern.length).includes(1);
}

/** A compiled glob: a test of listed paths, and whether a directory's subtree can hold a match. */
export interface GlobMatcher {
  (relativePath: string, isDirectory?: boolean): boolean;
  /** False when no path below this directory can match, so a walk need not read it. */
  mayMatchBelow(relativeDir: string): boolean;
}

/** A matcher of relative paths (segments joined by `/`) for already-validated, expanded alternatives. */
export function globMatcher(alternatives: readonly string[]): GlobMatcher {
  const compiled: Alternative[] = [];
  for (const a of alternatives) {
    const alternative = parseAlternative(a);
    if (alternative) compiled.push(alternative);
  }
  const matches = (relativePath: string, isDirectory = false) => {
    const path = relativePath.split('/');
    return compiled.some((a) => (isDirectory || !a.directories) && matchesAll(a.segments, path));
  };
  // The listed directory itself ("") is always read.
  const mayMatchBelow = (relativeDir: string) =>
    relativeDir === '' || compiled.some((a) => matchesPrefix(a.segments, relativeDir.split('/')));
  return Object.assign(matches, { mayMatchBelow });
}

/** Whether any of the alternatives names something below the listed directory (`.`, `./` do not). */
export function namesSomething(alternatives: readonly string[]): boolean {
  return alternatives.some((a) => parseAlternative(a) !== undefined);
}
