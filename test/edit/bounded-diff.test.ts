import { applyPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedUnifiedDiff } from '../../src/edit/bounded-diff.js';

const line = fc.oneof(
  fc.constantFrom('', '}', '  return x;', 'a', 'b'),
  fc.string({ maxLength: 30 }).map((s) => s.replace(/[\r\n]/g, '')),
);

describe('boundedUnifiedDiff', () => {
  it('produces a diff that applies strictly and reproduces the new text (large and small files)', () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 0, maxLength: 400 }),
        fc.array(fc.tuple(fc.nat(400), fc.nat(3), fc.array(line, { maxLength: 4 })), { maxLength: 4 }),
        fc.boolean(),
        fc.boolean(),
        (lines, edits, finalNewline, crlf) => {
          const eol = crlf ? '\r\n' : '\n';
          const join = (ls: string[]) => (ls.length ? ls.join(eol) + (finalNewline ? eol : '') : '');
          const next = [...lines];
          for (const [at, remove, insert] of edits) next.splice(Math.min(at, next.length), remove, ...insert);
          const a = join(lines);
          const b = join(next);
          const d = boundedUnifiedDiff(a, b, { oldPath: '/f', newPath: '/f' });
          const applied =
            d.unifiedDiff === '' ? a : applyPatch(a, d.unifiedDiff, { autoConvertLineEndings: false });
          expect(applied).toBe(b);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('counts added and removed lines on the whole diff and keeps hunk numbers right on big files', () => {
    const lines = Array.from({ length: 5_000 }, (_, i) => `line ${i}`);
    const next = [...lines];
    next[4_000] = 'changed';
    const d = boundedUnifiedDiff(`${lines.join('\n')}\n`, `${next.join('\n')}\n`, {
      oldPath: '/f',
      newPath: '/f',
    });
    expect(d).toMatchObject({ added: 1, removed: 1, coarse: false });
    expect(d.unifiedDiff).toContain('@@ -3998,7 +3998,7 @@');
  });
});

/** Source-like lines: mostly distinct, with repeated structural ones. */
const sourceLines = (n: number, seed: number) =>
  Array.from({ length: n }, (_, i) =>
    i % 7 === 6 ? '}' : i % 11 === 0 ? '' : `  const v${i}_${seed} = f(${i});`,
  );

describe('boundedUnifiedDiff at scale (anchored on unique lines)', () => {
  it('stays exact and applies on big files with scattered edits (regions between anchors)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 300, max: 3_000 }),
        fc.array(fc.tuple(fc.nat(3_000), fc.nat(3), fc.array(line, { maxLength: 3 })), { maxLength: 30 }),
        (n, edits) => {
          const lines = sourceLines(n, 1);
          const next = [...lines];
          for (const [at, remove, insert] of edits) next.splice(Math.min(at, next.length), remove, ...insert);
          const a = `${lines.join('\n')}\n`;
          const b = next.length ? `${next.join('\n')}\n` : '';
          const d = boundedUnifiedDiff(a, b, { oldPath: '/f', newPath: '/f' });
          expect(d.coarse).toBe(false);
          const applied = d.unifiedDiff === '' ? a : applyPatch(a, d.unifiedDiff);
          expect(applied).toBe(b);
          // Never more than the edits touched: each removes ≤ 3 and inserts ≤ 3 lines.
          expect(d.removed).toBeLessThanOrEqual(edits.length * 3);
          expect(d.added).toBeLessThanOrEqual(edits.length * 3);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('shows a 1% change of a 100k-line file as about 1% of its lines, not the whole file', () => {
    const lines = sourceLines(100_000, 2);
    const next = lines.map((l, i) => (i % 100 === 50 ? `${l} // changed` : l));
    const d = boundedUnifiedDiff(`${lines.join('\n')}\n`, `${next.join('\n')}\n`, {
      oldPath: '/f',
      newPath: '/f',
      timeBudgetMs: 60_000,
    });
    expect(d.coarse).toBe(false);
    expect(d.removed).toBe(1_000);
    expect(d.added).toBe(1_000);
  });

  it('a region without anchors that runs out of time is coarse on its own; the rest stays exact', () => {
    // Two halves: the first changes a few unique lines; the second swaps blocks of
    // repeated lines (no unique line to anchor on) and gets no time at all.
    const first = sourceLines(2_000, 3);
    const second = Array.from({ length: 4_000 }, (_, i) => (i % 2 ? '}' : '{'));
    const firstNext = first.map((l, i) => (i === 500 ? 'changed();' : l));
    const secondNext = Array.from({ length: 4_000 }, (_, i) => (i % 3 ? '}' : '{'));
    const a = `${[...first, 'MIDDLE', ...second].join('\n')}\n`;
    const b = `${[...firstNext, 'MIDDLE', ...secondNext].join('\n')}\n`;
    const d = boundedUnifiedDiff(a, b, { oldPath: '/f', newPath: '/f', timeBudgetMs: 0 });
    expect(applyPatch(a, d.unifiedDiff)).toBe(b);
    expect(d.unifiedDiff).toContain('-  const v500_3 = f(500);\n+changed();\n');
    expect(d.removed).toBeLessThan(4_100);
  });
});

describe('boundedUnifiedDiff on big blocks (pure insertions and deletions, copied as blocks)', () => {
  it('applies strictly and reproduces the new text for any big inserted or removed block', () => {
    const bigLine = fc.oneof(
      fc.constantFrom(
        '',
        '}',
        'inserted line with some ascii text',
        '  naïve café — “quoted” 😀',
        '\t\\ tab',
      ),
      fc.string({ maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, '')),
    );
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 0, maxLength: 30 }),
        fc.nat(30),
        fc.array(bigLine, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 2_000, max: 4_000 }),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (lines, at, pattern, repeat, finalNewline, crlf, remove) => {
          const eol = crlf ? '\r\n' : '\n';
          const block = Array.from({ length: repeat }, (_, i) => pattern[i % pattern.length]!);
          const small = [...lines];
          const big = [...lines];
          big.splice(Math.min(at, big.length), 0, ...block);
          const join = (ls: string[]) => (ls.length ? ls.join(eol) + (finalNewline ? eol : '') : '');
          const [a, b] = remove ? [join(big), join(small)] : [join(small), join(big)];
          const d = boundedUnifiedDiff(a, b, { oldPath: '/f', newPath: '/f' });
          const applied =
            d.unifiedDiff === '' ? a : applyPatch(a, d.unifiedDiff, { autoConvertLineEndings: false });
          expect(applied).toBe(b);
          expect(d.diffLines).toBe(d.unifiedDiff.split('\n').length - 1);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('boundedUnifiedDiff with long lines and one-character changes', () => {
  it('applies strictly and reproduces the new text when lines are long and differ by one character', () => {
    const chunk = fc.constantFrom('a', 'é', '😀', ' ', 'x'.repeat(900), '}', '\t');
    const longLine = fc.array(chunk, { minLength: 0, maxLength: 12 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(
        fc.array(longLine, { minLength: 1, maxLength: 40 }),
        fc.array(fc.tuple(fc.nat(40), fc.nat(10_000), fc.constantFrom('b', 'ü', '😃', '')), { maxLength: 5 }),
        fc.boolean(),
        (lines, edits, finalNewline) => {
          const next = [...lines];
          for (const [at, pos, ch] of edits) {
            const k = at % next.length;
            const l = next[k]!;
            const p = Math.min(pos, l.length);
            next[k] = l.slice(0, p) + ch + l.slice(p + 1);
          }
          const join = (ls: string[]) => ls.join('\n') + (finalNewline ? '\n' : '');
          const [a, b] = [join(lines), join(next)];
          const d = boundedUnifiedDiff(a, b, { oldPath: '/f', newPath: '/f' });
          const applied =
            d.unifiedDiff === '' ? a : applyPatch(a, d.unifiedDiff, { autoConvertLineEndings: false });
          expect(applied).toBe(b);
        },
      ),
      { numRuns: 200 },
    );
  });
});
