import { describe, expect, it } from 'vitest';
import { mapLine } from '../../src/edit/map-line.js';

const h = (...xs: number[]) => Uint32Array.from(xs);

describe('mapLine', () => {
  it('follows a line through insertions, deletions and edits, and reports an edited or deleted one', () => {
    const before = h(1, 2, 3, 4, 5, 6);
    const after = h(1, 9, 9, 2, 3, 5, 7, 6);
    expect(mapLine(before, after, 0)).toBe(0); // common prefix
    expect(mapLine(before, after, 1)).toBe(3); // moved down by the insertion
    expect(mapLine(before, after, 2)).toBe(4);
    expect(mapLine(before, after, 3)).toBe('changed'); // deleted
    expect(mapLine(before, after, 4)).toBe(5);
    expect(mapLine(before, after, 5)).toBe(7); // common suffix
    // Twins: the one read is told apart by where it sits, not by its text.
    expect(mapLine(h(7, 1, 7, 1), h(7, 2, 7, 1), 1)).toBe('changed');
    expect(mapLine(h(7, 1, 7, 1), h(7, 2, 7, 1), 3)).toBe(3);
  });
});
