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
