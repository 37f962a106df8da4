import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HitChanges } from '../../src/edit/hit-changes.js';

/** The changes as objects, as a replace of every hit makes them one by one. */
function expected(offsets: number[], shift: number, oldLength: number, newLength: number) {
  return offsets.map((o, k) => {
    const newFrom = shift + o + k * (newLength - oldLength);
    return { oldFrom: shift + o, oldTo: shift + o + oldLength, newFrom, newTo: newFrom + newLength };
  });
}

describe('HitChanges', () => {
  it('reads each change, negative indexes and slices as the list of objects would', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(20), { maxLength: 30 }),
        fc.nat(3),
        fc.integer({ min: 1, max: 6 }),
        fc.nat(9),
        fc.integer({ min: -35, max: 35 }),
        fc.integer({ min: -35, max: 35 }),
        (gaps, shift, oldLength, newLength, start, end) => {
          const offsets: number[] = [];
          for (const g of gaps) offsets.push((offsets.at(-1) ?? -oldLength) + oldLength + g);
          const list = new HitChanges(offsets, shift, oldLength, newLength);
          const all = expected(offsets, shift, oldLength, newLength);
          expect(list.length).toBe(all.length);
          for (let k = -all.length - 1; k <= all.length; k++) expect(list.at(k)).toEqual(all.at(k));
          const [s, e] = [Math.max(0, start), Math.max(0, end)];
          const part = list.slice(s, e);
          const want = all.slice(s, e);
          expect(part.length).toBe(want.length);
          for (let k = 0; k < want.length; k++) expect(part.at(k)).toEqual(want[k]);
          expect(part.slice(1, 3).length).toBe(want.slice(1, 3).length);
          for (let k = 0; k < want.slice(1, 3).length; k++)
            expect(part.slice(1, 3).at(k)).toEqual(want[1 + k]);
        },
      ),
    );
  });
});
