// rt65: the (before, after) pairs of the rt65 exploration, regenerated from their seeds.
import { applyEdit, type Edit, type Kind, makeText, rng, toText } from './rt64-gen.js';

/** A pure deletion (each line dropped with probability `dens`) or insertion (own lines before each with `dens`). */
export function purePair(
  kind: Kind,
  n: number,
  seed: number,
  mode: 'del' | 'ins',
): { before: string; after: string; dens: number; changed: number } {
  const r = rng(seed * 131 + n);
  const { lines, same } = makeText(kind, n, r);
  const dens = [0.001, 0.01, 0.05, 0.2][Math.floor(r() * 4)]!;
  let b: string[] = [];
  if (mode === 'del') b = lines.filter(() => r() >= dens);
  else
    for (const l of lines) {
      if (r() < dens) b.push(same());
      b.push(l);
    }
  return { before: toText(lines), after: toText(b), dens, changed: Math.abs(b.length - lines.length) };
}

/** One edit of rt64-gen's classes, seeded as the rt65 sweep seeded it (the edit's index in its list). */
export function sweepPair(kind: Kind, edit: Edit, n: number, seed: number, index: number) {
  const r = rng(seed * 7919 + n + index * 17);
  const { lines, fresh, same } = makeText(kind, n, r);
  const b = applyEdit(lines, edit, r, fresh, same);
  return { before: toText(lines), after: toText(b) };
}
