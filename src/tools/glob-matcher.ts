/**
 * A glob matcher whose time is bounded by the pattern's and the path's sizes: no
 * backtracking. Regex-compiled globs (picomatch, minimatch) backtrack: `*a*a*a*a*c`
 * against one file named `aaaa…a` took seconds, and with more stars minutes, blocking
 * the event loop. Here each path segment is matched against a segment pattern by a
 * set-of-positions walk (O(pattern × name)), and `**` segments by the same walk over
 * segments.
 *
 * Syntax: `*` (any characters but `/`), `?` (one character but `/`), `[abc]`, `[a-z]`,
 * `[!a]` / `[^a]` (one character of / not of a set), `{a,b}` (alternatives, nested),
 * `**` as a whole segment (any number of segments, none included). Dotfiles match.
 * Extended globs (`@(a|b)`, `!(a)`, `+(a)`, `*(a)`, `?(a)`) and POSIX classes are
 * refused by compileGlob.
 */

type Token =
  | { kind: 'char'; char: string }
  | { kind: 'any' }
  | { kind: 'star' }
  | { kind: 'set'; set: CharSet };

interface CharSet {
  negated: boolean;
  chars: Set<string>;
  ranges: Array<[number, number]>;
}

type Segment = { kind: 'globstar' } | { kind: 'glob'; test: (name: string) => boolean };

/** A star that came from inside braces (never part of a globstar segment). */
const BRACED_STAR = '\u0000';

/** Alternatives a pattern's braces may expand to, at most (a pattern is a model's few words). */
export const MAX_ALTERNATIVES = 256;

/** The alternatives of a pattern's `{a,b}` groups, expanded (undefined: more than MAX_ALTERNATIVES). */
export function expandBraces(pattern: string): string[] | undefined {
  const open = findOpenBrace(pattern);
  if (open < 0) return [pattern];
  const close = matchingBrace(pattern, open);
  if (close < 0) return [pattern]; // an unmatched brace is a literal
  const parts = splitTopLevel(pattern.slice(open + 1, close));
  if (parts.length < 2) {
    // `{a}` is a literal, as in a shell: keep it, expand what follows.
    const rest = expandBraces(pattern.slice(close + 1));
    return rest?.map((r) => pattern.slice(0, close + 1) + r);
  }
  const head = pattern.slice(0, open);
  const out: string[] = [];
  // A star from inside braces never makes a "**" segment with its neighbours (`*{*,?}` is
  // two stars in one segment, not a globstar): it is marked as a plain star.
  for (const part of parts.map((p) => p.replaceAll('*', BRACED_STAR))) {
    const expanded = expandBraces(head + part + pattern.slice(close + 1));
    if (!expanded) return undefined;
    for (const alternative of expanded) out.push(alternative);
    if (out.length > MAX_ALTERNATIVES) return undefined;
  }
  return out;
}

function findOpenBrace(p: string): number {
  let inSet = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (inSet) {
      if (c === ']') inSet = false;
    } else if (c === '[') inSet = p.indexOf(']', i + 2) > 0;
    else if (c === '{') return i;
  }
  return -1;
}

function matchingBrace(p: string, open: number): number {
  let depth = 0;
  for (let i = open; i < p.length; i++) {
    if (p[i] === '{') depth++;
    else if (p[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '{') depth++;
    else if (s[i] === '}') depth--;
    else if (s[i] === ',' && depth === 0) {
      parts.push(s.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(s.slice(from));
  return parts;
}

/** One brace-free pattern as segments. */
function parsePattern(pattern: string): Segment[] {
  return pattern
    .split('/')
    .map((s) => (s === '**' ? { kind: 'globstar' } : { kind: 'glob', test: segmentTest(parseSegment(s)) }));
}

/**
 * A segment's test: the common shapes without the general walk (a literal name, `*`,
 * `*.ts`, `test_*`, `a*b`), anything else by matchSegment.
 */
function segmentTest(tokens: readonly Token[]): (name: string) => boolean {
  const stars = tokens.filter((t) => t.kind === 'star').length;
  const literal = tokens.every((t) => t.kind === 'char' || t.kind === 'star');
  if (literal && stars <= 1) {
    const at = tokens.findIndex((t) => t.kind === 'star');
    const text = (ts: readonly Token[]) => ts.map((t) => (t as { char: string }).char).join('');
    if (at < 0) {
      const whole = text(tokens);
      return (name) => name === whole;
    }
    const head = text(tokens.slice(0, at));
    const tail = text(tokens.slice(at + 1));
    return (name) => name.length >= head.length + tail.length && name.startsWith(head) && name.endsWith(tail);
  }
  return (name) => matchSegment(tokens, name);
}

function parseSegment(s: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '*' || c === BRACED_STAR) {
      if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'any' });
    else if (c === '[') {
      const parsed = parseSet(s, i);
      if (parsed) {
        tokens.push({ kind: 'set', set: parsed.set });
        i = parsed.end;
      } else tokens.push({ kind: 'char', char: c });
    } else tokens.push({ kind: 'char', char: c });
  }
  return tokens;
}

/** A `[...]` set starting at s[at] and the index of its `]`; undefined when it does not close (a literal `[`). */
function parseSet(s: string, at: number): { set: CharSet; end: number } | undefined {
  let i = at + 1;
  const negated = s[i] === '!' || s[i] === '^';
  if (negated) i++;
  const chars = new Set<string>();
  const ranges: Array<[number, number]> = [];
  const first = i;
  for (; i < s.length; i++) {
    const c = s[i]!;
    if (c === ']' && i > first) return { set: { negated, chars, ranges }, end: i };
    if (s[i + 1] === '-' && i + 2 < s.length && s[i + 2] !== ']') {
      ranges.push([c.charCodeAt(0), s.charCodeAt(i + 2)]);
      i += 2;
    } else chars.add(c);
  }
  return undefined;
}

function inSet(set: CharSet, c: string): boolean {
  const code = c.charCodeAt(0);
  const found = set.chars.has(c) || set.ranges.some(([lo, hi]) => code >= lo && code <= hi);
  return found !== set.negated;
}

/** Two state buffers of at least `size`, reused call to call (the walks below do not nest in themselves). */
function scratch(held: { a: Uint8Array; b: Uint8Array }, size: number): [Uint8Array, Uint8Array] {
  if (held.a.length < size) {
    held.a = new Uint8Array(size * 2);
    held.b = new Uint8Array(size * 2);
  }
  return [held.a, held.b];
}
const segmentScratch = { a: new Uint8Array(64), b: new Uint8Array(64) };
const pathScratch = { a: new Uint8Array(64), b: new Uint8Array(64) };

/** Whether `name` (one path segment) matches `tokens`: the set of pattern positions, one character at a time. */
function matchSegment(tokens: readonly Token[], name: string): boolean {
  const size = tokens.length + 1;
  let [states, next] = scratch(segmentScratch, size);
  states.fill(0, 0, size);
  states[0] = 1;
  closeOverStars(tokens, states);
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!;
    next.fill(0, 0, size);
    let any = false;
    for (let p = 0; p < tokens.length; p++) {
      if (!states[p]) continue;
      const t = tokens[p]!;
      if (t.kind === 'star') {
        next[p] = 1; // a star takes this character and may take more
        any = true;
      } else if (
        t.kind === 'any' ||
        (t.kind === 'char' && t.char === c) ||
        (t.kind === 'set' && inSet(t.set, c))
      ) {
        next[p + 1] = 1;
        any = true;
      }
    }
    if (!any) return false;
    closeOverStars(tokens, next);
    [states, next] = [next, states];
  }
  return states[tokens.length] === 1;
}

/** A star may also take nothing: a position before one reaches the position after it. */
function closeOverStars(tokens: readonly Token[], states: Uint8Array): void {
  for (let p = 0; p < tokens.length; p++) if (states[p] && tokens[p]!.kind === 'star') states[p + 1] = 1;
}

/** Whether the path's segments match the pattern's, `**` taking any number of them. */
function matchSegments(pattern: readonly Segment[], path: readonly string[]): boolean {
  // reach[p]: pattern segments [0, p) have matched the path's segments so far.
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
    if (!any) return false;
    closeOverGlobstars(pattern, next);
    [reach, next] = [next, reach];
  }
  return reach[pattern.length] === 1;
}

function closeOverGlobstars(pattern: readonly Segment[], reach: Uint8Array): void {
  for (let p = 0; p < pattern.length; p++) if (reach[p] && pattern[p]!.kind === 'globstar') reach[p + 1] = 1;
}

/** A matcher of relative paths (segments joined by `/`) for already-validated, expanded alternatives. */
export function globMatcher(alternatives: readonly string[]): (relativePath: string) => boolean {
  const compiled = alternatives.map(parsePattern);
  return (relativePath) => {
    const path = relativePath.split('/');
    return compiled.some((segments) => matchSegments(segments, path));
  };
}
