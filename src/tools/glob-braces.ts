/**
 * Brace expansion of a list_files pattern, as bash does it: textually, before matching. A group is
 * the leftmost `{` whose matching `}` encloses a comma at its own depth; a `{` without a match, or
 * whose group has no such comma (`{a}`), is a literal and the search goes on inside and after it, so
 * `{{a,b}}` is "{a}" or "{b}" and `{{a,b}` is "{a" or "{b". Braces inside a `[...]` set are the set's.
 */

/** A star that came from inside braces (never part of a globstar segment). */
export const BRACED_STAR = '\u0000';

/** Alternatives a pattern's braces may expand to, at most (a pattern is a model's few words). */
export const MAX_ALTERNATIVES = 256;

/** The alternatives of a pattern's `{a,b}` groups, expanded (undefined: more than MAX_ALTERNATIVES). */
export function expandBraces(pattern: string): string[] | undefined {
  const group = firstGroup(pattern);
  if (!group) return [pattern];
  const head = pattern.slice(0, group.open);
  const tail = pattern.slice(group.close + 1);
  const out: string[] = [];
  let from = group.open + 1;
  for (let k = 0; k <= group.commas.length; k++) {
    const to = k < group.commas.length ? group.commas[k]! : group.close;
    // A star from inside braces never makes a "**" segment with its neighbours (`*{*,?}` is
    // two stars in one segment, not a globstar): it is marked as a plain star.
    const part = pattern.slice(from, to).replaceAll('*', BRACED_STAR);
    from = to + 1;
    const expanded = expandBraces(head + part + tail);
    if (!expanded) return undefined;
    for (const alternative of expanded) out.push(alternative);
    if (out.length > MAX_ALTERNATIVES) return undefined;
  }
  return out;
}

interface Group {
  open: number;
  close: number;
  /** The commas at the group's own depth. */
  commas: number[];
}

/** The leftmost group, in one pass: a stack of open braces, each collecting its own commas. */
function firstGroup(p: string): Group | undefined {
  const stack: Group[] = [];
  let best: Group | undefined;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '[') {
      const end = setEnd(p, i);
      if (end > 0) i = end;
    } else if (c === '{') stack.push({ open: i, close: -1, commas: [] });
    else if (c === ',') stack.at(-1)?.commas.push(i);
    else if (c === '}') {
      const group = stack.pop();
      if (group && group.commas.length > 0 && (!best || group.open < best.open)) {
        group.close = i;
        best = group;
      }
    }
  }
  return best;
}

/** The index of the `]` closing a set opened at p[at] within its segment, or -1 (a literal `[`). */
function setEnd(p: string, at: number): number {
  let i = at + 1;
  if (p[i] === '!' || p[i] === '^') i++;
  // The first character of a set is a member, even "]".
  for (let j = i + 1; j < p.length; j++) {
    if (p[j] === '/') return -1;
    if (p[j] === ']') return i < p.length && p[i] !== '/' ? j : -1;
  }
  return -1;
}
