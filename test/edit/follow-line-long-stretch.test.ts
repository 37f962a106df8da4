import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { followLine } from '../../src/edit/follow-line.js';
import { LineIndex } from '../../src/edit/resolve-anchor.js';

// A file of distinct lines changed elsewhere (lines inserted, deleted, rewritten) has one
// longest alignment: every line not touched is followed to where it is now, however far
// it sits from the changes (a kept stretch of more than 4,096 lines beside an insertion
// once made every line in it 'unsure').
const text = (lines: readonly string[]) => `${lines.join('\n')}\n`;

describe('followLine over long kept stretches', () => {
  it('follows every untouched line of a big file of distinct lines', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4_000, max: 12_000 }),
        fc.array(
          fc.record({
            kind: fc.constantFrom('ins', 'del', 'mod'),
            at: fc.nat(),
            count: fc.integer({ min: 1, max: 3 }),
          }),
          { minLength: 1, maxLength: 3 },
        ),
        fc.array(fc.nat(), { minLength: 20, maxLength: 20 }),
        (n, changes, picks) => {
          const read = Array.from({ length: n }, (_, i) => `  const v${i} = f(${i});`);
          const now = read.map((t, id) => ({ t, id }));
          let fresh = 0;
          for (const c of changes) {
            const at = c.at % now.length;
            if (c.kind === 'ins')
              now.splice(at, 0, ...Array.from({ length: c.count }, () => ({ t: `new ${fresh++}`, id: -1 })));
            else if (c.kind === 'del' && now.length > c.count) now.splice(at, c.count);
            else now[at] = { t: `rewritten ${fresh++}`, id: -1 };
          }
          const before = LineIndex.of(text(read));
          const after = LineIndex.of(text(now.map((x) => x.t)));
          const where = new Map(now.map((x, j) => [x.id, j]));
          for (const p of picks) {
            const at = p % n;
            expect({ at, to: followLine(before, after, at) }).toEqual({ at, to: where.get(at) ?? 'changed' });
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('follows a line 8,000 lines after a single insertion', () => {
    const read = Array.from({ length: 10_000 }, (_, i) => `line ${i}`);
    const now = [...read.slice(0, 100), 'inserted', ...read.slice(100)];
    expect(followLine(LineIndex.of(text(read)), LineIndex.of(text(now)), 8_100)).toBe(8_101);
  });
});
