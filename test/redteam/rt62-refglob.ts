// rt62: a reference glob matcher (bash-like: globstar on, dotglob on, extglob off; braces expanded first,
// textually, a group needing a top-level comma; code-point semantics) to compare list_files against.
// Reference glob: bash-like (extglob off, dotglob on, globstar on), code-point semantics.
export function expandBraces(p: string): string[] {
  // find first top-level-expandable brace group (leftmost '{' having matching '}' with a top-level comma)
  const cs = [...p];
  for (let i = 0; i < cs.length; i++) {
    if (cs[i] !== '{') continue;
    let depth = 0;
    const commas: number[] = [];
    let end = -1;
    for (let j = i; j < cs.length; j++) {
      if (cs[j] === '{') depth++;
      else if (cs[j] === '}') {
        depth--;
        if (depth === 0) {
          end = j;
          break;
        }
      } else if (cs[j] === ',' && depth === 1) commas.push(j);
    }
    if (end < 0 || commas.length === 0) continue;
    const pre = cs.slice(0, i).join(''),
      post = cs.slice(end + 1).join('');
    const parts: string[] = [];
    let s = i + 1;
    for (const c of [...commas, end]) {
      parts.push(cs.slice(s, c).join(''));
      s = c + 1;
    }
    return parts.flatMap((x) => expandBraces(pre + x + post));
  }
  return [p];
}
type Tok =
  | { k: 'star' }
  | { k: 'q' }
  | { k: 'lit'; c: string }
  | { k: 'set'; neg: boolean; items: [string, string][] };
function tokens(seg: string): Tok[] {
  const cs = [...seg];
  const out: Tok[] = [];
  for (let i = 0; i < cs.length; i++) {
    const c = cs[i]!;
    if (c === '*') {
      out.push({ k: 'star' });
      continue;
    }
    if (c === '?') {
      out.push({ k: 'q' });
      continue;
    }
    if (c === '[') {
      let j = i + 1;
      let neg = false;
      if (cs[j] === '!' || cs[j] === '^') {
        neg = true;
        j++;
      }
      const items: [string, string][] = [];
      let first = true;
      let closed = -1;
      while (j < cs.length) {
        if (cs[j] === ']' && !first) {
          closed = j;
          break;
        }
        first = false;
        if (cs[j + 1] === '-' && cs[j + 2] !== undefined && cs[j + 2] !== ']') {
          items.push([cs[j]!, cs[j + 2]!]);
          j += 3;
        } else {
          items.push([cs[j]!, cs[j]!]);
          j++;
        }
      }
      if (closed >= 0) {
        out.push({ k: 'set', neg, items });
        i = closed;
        continue;
      }
    }
    out.push({ k: 'lit', c });
  }
  return out;
}
function segMatch(seg: string, name: string): boolean {
  const t = tokens(seg);
  const n = [...name];
  let cur = new Set<number>([0]);
  const close = (s: Set<number>) => {
    for (const i of [...s].sort((a, b) => a - b)) {
      let k = i;
      while (t[k]?.k === 'star') {
        s.add(k + 1);
        k++;
      }
    }
    return s;
  };
  cur = close(cur);
  for (const ch of n) {
    const nx = new Set<number>();
    for (const i of cur) {
      const tk = t[i];
      if (!tk) continue;
      if (tk.k === 'star') nx.add(i);
      else if (tk.k === 'q') nx.add(i + 1);
      else if (tk.k === 'lit') {
        if (tk.c === ch) nx.add(i + 1);
      } else {
        const cp = ch.codePointAt(0)!;
        const hit = tk.items.some(([a, b]) => a.codePointAt(0)! <= cp && cp <= b.codePointAt(0)!);
        if (hit !== tk.neg) nx.add(i + 1);
      }
    }
    cur = close(nx);
  }
  return cur.has(t.length);
}
function pathMatch(segs: string[], names: string[]): boolean {
  if (segs.length === 0) return names.length === 0;
  const [s, ...rest] = segs;
  if (s === '**') {
    for (let k = 0; k <= names.length; k++) if (pathMatch(rest, names.slice(k))) return true;
    return false;
  }
  if (names.length === 0) return false;
  return segMatch(s!, names[0]!) && pathMatch(rest, names.slice(1));
}
/**
 * An alternative as a shell resolves it against the listed directory: a trailing "/" (or "/.") keeps
 * directories only (as `ls -d` of "*" and a slash), empty and "." segments name nothing of their own (`a//b`, `a/./b` are
 * `a/b`), and one starting with "/" is absolute (never below the listed directory). Undefined: it names
 * no entry (`.`, `./`, ``, `/x`).
 */
function resolveAlt(alt: string): { segs: string[]; dirOnly: boolean } | undefined {
  if (alt.startsWith('/')) return undefined;
  const segs = alt.split('/');
  let dirOnly = false;
  while (segs.length > 0 && (segs.at(-1) === '' || segs.at(-1) === '.')) {
    segs.pop();
    dirOnly = true;
  }
  const kept = segs.filter((s) => s !== '' && s !== '.');
  return kept.length > 0 ? { segs: kept, dirOnly } : undefined;
}
function body(pattern: string): { p: string; neg: boolean } {
  let p = pattern;
  let neg = false;
  if (p.startsWith('!')) {
    neg = true;
    p = p.slice(1);
  }
  while (p.startsWith('./')) p = p.slice(2);
  return { p, neg };
}
/** A pattern none of whose alternatives names an entry (list_files refuses it: invalid_argument). */
export function refNamesNothing(pattern: string): boolean {
  return expandBraces(body(pattern).p).every((alt) => resolveAlt(alt) === undefined);
}
export function refMatch(pattern: string, rel: string, isDir = false): boolean {
  const { p, neg } = body(pattern);
  const names = rel.split('/');
  const hit = expandBraces(p).some((alt) => {
    const r = resolveAlt(alt);
    return r !== undefined && (isDir || !r.dirOnly) && pathMatch(r.segs, names);
  });
  return hit !== neg;
}
