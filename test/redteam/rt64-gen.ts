// rt64: generators of (before, after) line arrays over whole classes of text kinds and edit patterns, seeded.
import { seededRandom } from '../helpers/seeded-rng.js';

export type Rng = () => number;
export const rng = seededRandom;
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

const IDS = ['x', 'y', 'i', 'n', 'count', 'value', 'result', 'item', 'node', 'buf', 'err', 'ctx'];
const CODE_FIXED = [
  '}',
  '',
  '  }',
  '    }',
  '{',
  '  return;',
  '  return null;',
  '    break;',
  '} else {',
  '  });',
];

/** One line of code-like text: many `}` and blank lines, some idioms, some near-unique statements. */
function codeLine(r: Rng, uniq: () => number): string {
  const x = r();
  if (x < 0.45) return pick(r, CODE_FIXED);
  if (x < 0.7) return `  ${pick(r, IDS)} = ${pick(r, IDS)} + ${int(r, 0, 9)};`;
  if (x < 0.85) return `  if (${pick(r, IDS)} > ${int(r, 0, 99)}) {`;
  return `  call_${uniq()}(${pick(r, IDS)});`;
}

export type Kind =
  | { k: 'periodic'; p: number }
  | { k: 'few'; n: number }
  | { k: 'distinct' }
  | { k: 'code' }
  | { k: 'mix' }
  | { k: 'sections' };

export function kindName(k: Kind): string {
  return k.k === 'periodic' ? `periodic${k.p}` : k.k === 'few' ? `few${k.n}` : k.k;
}

/** The text's lines, and a source of "new" lines of the same kind (fresh or from its alphabet). */
export function makeText(
  kind: Kind,
  n: number,
  r: Rng,
): { lines: string[]; fresh: () => string; same: () => string } {
  let u = 0;
  const uniq = () => u++;
  const blk =
    kind.k === 'periodic'
      ? Array.from({ length: kind.p }, (_, i) => `block line ${i} ${'·'.repeat(i % 5)}`)
      : [];
  const alph = kind.k === 'few' ? Array.from({ length: kind.n }, (_, i) => `tok${i}`) : [];
  const gen = (k: Kind, i: number): string => {
    switch (k.k) {
      case 'periodic':
        return blk[i % k.p]!;
      case 'few':
        return pick(r, alph);
      case 'distinct':
        return `distinct ${uniq()} ${Math.floor(r() * 1e9).toString(36)}`;
      case 'code':
        return codeLine(r, uniq);
      default:
        return '';
    }
  };
  const lines: string[] = [];
  if (kind.k === 'mix') {
    for (let i = 0; i < n; i++) {
      const x = r();
      lines.push(
        x < 0.4 ? codeLine(r, uniq) : x < 0.7 ? pick(r, ['a', 'b', 'c']) : x < 0.85 ? '}' : `d ${uniq()}`,
      );
    }
  } else if (kind.k === 'sections') {
    const kinds: Kind[] = [
      { k: 'periodic', p: 3 },
      { k: 'periodic', p: 17 },
      { k: 'few', n: 4 },
      { k: 'distinct' },
      { k: 'code' },
    ];
    const pAlph = ['a', 'b', 'c', 'd'];
    while (lines.length < n) {
      const sk = pick(r, kinds);
      const len = Math.min(n - lines.length, int(r, 50, Math.max(60, Math.floor(n / 8))));
      const p = sk.k === 'periodic' ? sk.p : 0;
      const sblk = Array.from({ length: p }, (_, i) => `sec${lines.length} ${i}`);
      for (let i = 0; i < len; i++)
        lines.push(
          sk.k === 'periodic'
            ? sblk[i % p]!
            : sk.k === 'few'
              ? pick(r, pAlph)
              : sk.k === 'distinct'
                ? `u ${uniq()}`
                : codeLine(r, uniq),
        );
    }
  } else for (let i = 0; i < n; i++) lines.push(gen(kind, i));
  const fresh = () => `new ${uniq()} ${Math.floor(r() * 1e9).toString(36)}`;
  const same = () => (lines.length ? lines[Math.floor(r() * lines.length)]! : 'x');
  return { lines, fresh, same };
}

export type Edit =
  | { e: 'dense'; d: number; src: 'fresh' | 'same' | 'both' }
  | { e: 'move'; m: number; len: number }
  | { e: 'rev'; m: number; len: number }
  | { e: 'dup'; m: number; len: number }
  | { e: 'bigins'; len: number; src: 'fresh' | 'same' }
  | { e: 'bigdel'; len: number }
  | { e: 'blocks'; m: number; len: number; src: 'fresh' | 'same' | 'del' };

export function editName(e: Edit): string {
  switch (e.e) {
    case 'dense':
      return `dense${e.d}-${e.src}`;
    case 'bigins':
      return `bigins${e.len}-${e.src}`;
    case 'bigdel':
      return `bigdel${e.len}`;
    case 'blocks':
      return `blocks${e.m}x${e.len}-${e.src}`;
    default:
      return `${e.e}${e.m}x${e.len}`;
  }
}

export function applyEdit(
  a: readonly string[],
  e: Edit,
  r: Rng,
  fresh: () => string,
  same: () => string,
): string[] {
  const src = (s: 'fresh' | 'same' | 'both') =>
    s === 'fresh' ? fresh() : s === 'same' ? same() : r() < 0.5 ? fresh() : same();
  let b = a.slice();
  const at = () => Math.floor(r() * (b.length + 1));
  switch (e.e) {
    case 'dense':
      b = [];
      for (const l of a) {
        const x = r();
        if (x < e.d / 4) continue; // deleted
        if (x < e.d / 2)
          b.push(src(e.src), l); // inserted before
        else if (x < (3 * e.d) / 4)
          b.push(src(e.src)); // replaced
        else if (x < e.d)
          b.push(l, src(e.src), src(e.src)); // two inserted after
        else b.push(l);
      }
      return b;
    case 'move':
      for (let k = 0; k < e.m; k++) {
        const blk = b.splice(Math.floor(r() * Math.max(1, b.length - e.len)), e.len);
        b.splice(at(), 0, ...blk);
      }
      return b;
    case 'rev':
      for (let k = 0; k < e.m; k++) {
        const p = Math.floor(r() * Math.max(1, b.length - e.len));
        b.splice(p, 0, ...b.splice(p, e.len).reverse());
      }
      return b;
    case 'dup':
      for (let k = 0; k < e.m; k++) {
        const p = Math.floor(r() * Math.max(1, b.length - e.len));
        const blk = b.slice(p, p + e.len);
        b.splice(at(), 0, ...blk);
      }
      return b;
    case 'bigins': {
      const blk = Array.from({ length: e.len }, () => src(e.src));
      b.splice(at(), 0, ...blk);
      return b;
    }
    case 'bigdel':
      b.splice(Math.floor(r() * Math.max(1, b.length - e.len)), e.len);
      return b;
    case 'blocks':
      for (let k = 0; k < e.m; k++) {
        const p = at();
        if (e.src === 'del') b.splice(p, e.len);
        else
          b.splice(
            p,
            r() < 0.5 ? 0 : e.len,
            ...Array.from({ length: e.len }, () => src(e.src as 'fresh' | 'same')),
          );
      }
      return b;
  }
}

export const toText = (ls: readonly string[], eol = '\n'): string => ls.map((l) => l + eol).join('');
