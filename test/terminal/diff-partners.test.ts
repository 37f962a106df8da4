import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffPartners } from '../../src/terminal/diff-view.js';

// Row kinds as diff-view numbers them.
const [HUNK, CONTEXT, ADD, DEL, NOTE] = [1, 2, 3, 4, 5];

/** The definition: the i-th removed row of a block (one removed run, then as many added) with the i-th added. */
function partnerByDefinition(kinds: Uint8Array, row: number): number | undefined {
  const kind = kinds[row];
  if (kind !== DEL && kind !== ADD) return undefined;
  const inBlock = (k: number | undefined) => k === DEL || k === ADD || k === NOTE;
  let first = row;
  while (first > 0 && inBlock(kinds[first - 1])) first--;
  let end = row;
  while (end < kinds.length && inBlock(kinds[end])) end++;
  const block = Array.from(kinds.subarray(first, end));
  const dels = block.flatMap((k, i) => (k === DEL ? [first + i] : []));
  const adds = block.flatMap((k, i) => (k === ADD ? [first + i] : []));
  const lastDel = dels.at(-1) ?? -1;
  if (dels.length === 0 || dels.length !== adds.length || adds.some((a) => a < lastDel)) return undefined;
  return kind === DEL ? adds[dels.indexOf(row)] : dels[adds.indexOf(row)];
}

describe('word-highlight partners of changed rows', () => {
  it('pair the i-th removed row with the i-th added row of a block, as defined, in any order of asking', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(HUNK, CONTEXT, ADD, DEL, NOTE, ADD, DEL), { maxLength: 80 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        (raw, asks) => {
          const kinds = Uint8Array.from(raw);
          const partnerOf = diffPartners(kinds, kinds.length);
          const rows = kinds.length === 0 ? [] : [...asks.map((a) => a % kinds.length), ...kinds.keys()];
          for (const row of rows) expect(partnerOf(row), `row ${row}`).toBe(partnerByDefinition(kinds, row));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
