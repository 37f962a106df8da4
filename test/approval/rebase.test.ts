import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineMovesOf, mapLine } from '../../src/approval/rebase.js';
import { boundedUnifiedDiff } from '../../src/edit/bounded-diff.js';

/** A unified diff of two texts, exactly as the payloads carry them. */
function diffOf(a: string, b: string): string {
  return boundedUnifiedDiff(a, b, { oldPath: '/f', newPath: '/f', timeBudgetMs: 1000 }).unifiedDiff;
}

describe('an applied step of the native chain', () => {
  it("keeps where the diff's lines go (positions and kinds), not the diff's text", () => {
    const before = Array.from({ length: 20_000 }, (_, i) => `line ${i} of a longer text here`);
    const after = before.map((l, i) => (i % 2 === 0 ? `${l} changed` : l));
    const diff = diffOf(`${before.join('\n')}\n`, `${after.join('\n')}\n`);
    const moves = lineMovesOf(diff)!;
    const kinds = moves.map((h) => h.kinds).join('');
    expect(kinds.length).toBe(
      diff.split('\n').filter((l) => /^[ +-]/.test(l) && !/^(---|\+\+\+) /.test(l)).length,
    );
    expect(JSON.stringify(moves).length).toBeLessThan(diff.length / 20);
    expect(mapLine(2, moves)).toBe(2);
    expect(mapLine(1, moves)).toBeUndefined();
  });
});

describe('mapLine (where an old line is after a change)', () => {
  it('follows insertions and deletions, and loses lines that were removed or replaced', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join('\n');
    const after = ['new', 'a', 'b', 'C', 'd', 'e', 'f', 'g', 'i', 'j'].join('\n');
    const hunks = lineMovesOf(diffOf(`${before}\n`, `${after}\n`))!;
    expect(mapLine(1, hunks)).toBe(2);
    expect(mapLine(3, hunks)).toBeUndefined(); // "c" was replaced
    expect(mapLine(4, hunks)).toBe(5);
    expect(mapLine(8, hunks)).toBeUndefined(); // "h" was removed
    expect(mapLine(10, hunks)).toBe(10);
  });

  it('agrees with the texts on random edits: a mapped line is that same line, moved', () => {
    const op = fc.constantFrom('keep', 'keep', 'drop', 'replace', 'insert');
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), (ops) => {
        // Unique old lines, so equal content means the same line.
        const a = ops.map((_, i) => `old ${i + 1}`);
        const b: string[] = [];
        ops.forEach((o, i) => {
          if (o === 'insert') b.push(`new ${i}`, a[i]!);
          else if (o === 'replace') b.push(`changed ${i}`);
          else if (o === 'keep') b.push(a[i]!);
        });
        const text = (lines: string[]) => lines.map((l) => `${l}\n`).join('');
        const hunks = lineMovesOf(diffOf(text(a), text(b)))!;
        for (let i = 1; i <= a.length; i++) {
          const to = mapLine(i, hunks);
          if (to !== undefined) expect(b[to - 1]).toBe(a[i - 1]);
          else expect(b).not.toContain(a[i - 1]);
        }
      }),
      { numRuns: 500 },
    );
  });
});
