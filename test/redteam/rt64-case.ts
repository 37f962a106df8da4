// rt64: one (before, after) pair of the explored classes, by kind, edit, size and seed (the exploration's seeding).
import { applyEdit, type Edit, type Kind, makeText, rng, toText } from './rt64-gen.js';

export function casePair(kind: Kind, edit: Edit, n: number, seed = 1): { before: string; after: string } {
  const r = rng(seed * 7919 + n);
  const { lines, fresh, same } = makeText(kind, n, r);
  const b = applyEdit(lines, edit, r, fresh, same);
  return { before: toText(lines), after: toText(b) };
}
