// rt63: generators of (before, after) text pairs over whole classes of shapes (see rt63-exact-prop).
import fc from 'fast-check';
import { seededRandom } from '../helpers/seeded-rng.js';

export const EOLS = ['\n', '\r\n', '\r'] as const;
const ALPHS = [
  ['}', '', '{', '  return;', 'x'],
  ['a', 'b'],
  ['a'],
  ['', ' ', '\t'],
  ['😀', '𝒳y', 'a\u0000b', '\uFEFFz'],
  ['x'.repeat(5000), 'y'.repeat(5000), 'x'.repeat(4999) + 'y'],
];

export const shape = fc.record({
  period: fc.integer({ min: 1, max: 40 }),
  alph: fc.integer({ min: 0, max: ALPHS.length - 1 }),
  n: fc.integer({ min: 1, max: 120 }),
  density: fc.constantFrom(0, 0.05, 0.2, 0.4),
  ops: fc.array(
    fc.record({
      k: fc.constantFrom('del', 'ins', 'rep', 'move', 'rev', 'dup'),
      at: fc.nat(),
      len: fc.integer({ min: 1, max: 12 }),
      to: fc.nat(),
      t: fc.constantFrom('}', '', 'x', 'new', 'a', 'b', '😀', '\u0000', 'q'.repeat(3000)),
    }),
    { maxLength: 5 },
  ),
  eolA: fc.constantFrom(...EOLS),
  eolB: fc.constantFrom(...EOLS),
  mixedB: fc.boolean(),
  finalA: fc.boolean(),
  finalB: fc.boolean(),
  bomA: fc.boolean(),
  bomB: fc.boolean(),
  seed: fc.nat(),
});
export type Shape = typeof shape extends fc.Arbitrary<infer T> ? T : never;

const rng = seededRandom;

export function build(g: Shape): { before: string; after: string; lines: number } {
  const r = rng(g.seed);
  const alph = ALPHS[g.alph]!;
  const base = Array.from({ length: g.period }, () => alph[Math.floor(r() * alph.length)]!);
  const a: string[] = Array.from({ length: g.n }, (_, i) => base[i % g.period]!);
  let b = a.flatMap((l) => {
    const x = r();
    if (x < g.density / 3) return [];
    if (x < (2 * g.density) / 3) return [alph[Math.floor(r() * alph.length)]!, l];
    if (x < g.density) return [alph[Math.floor(r() * alph.length)]!];
    return [l];
  });
  for (const op of g.ops) {
    const at = b.length ? op.at % (b.length + 1) : 0;
    if (op.k === 'del') b.splice(at, op.len);
    else if (op.k === 'ins') b.splice(at, 0, ...Array(op.len).fill(op.t));
    else if (op.k === 'rep') b.splice(at, op.len, ...Array(op.len).fill(op.t));
    else if (op.k === 'move') {
      const blk = b.splice(at, op.len);
      b.splice(b.length ? op.to % (b.length + 1) : 0, 0, ...blk);
    } else if (op.k === 'rev') b.splice(at, 0, ...b.splice(at, op.len * 3).reverse());
    else b.splice(at, 0, ...b.slice(at, at + op.len));
  }
  if (b.length === 0) b = ['only'];
  const join = (ls: string[], eol: string, fin: boolean, mixed: boolean) =>
    ls.map((l, i) => l + (i === ls.length - 1 && !fin ? '' : mixed ? EOLS[(i + g.seed) % 3] : eol)).join('');
  return {
    before: (g.bomA ? '\uFEFF' : '') + join(a, g.eolA, g.finalA, false),
    after: (g.bomB ? '\uFEFF' : '') + join(b, g.eolB, g.finalB, g.mixedB),
    lines: a.length,
  };
}
