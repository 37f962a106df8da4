import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixUnifiedDiff } from '../../src/edit/fix-unified-diff.js';

/**
 * A person's own diff (their edited patch_file call) is applied verbatim: the lines
 * it adds land exactly as written, whatever indentation slip its context had; the
 * context lines stay the file's own.
 */
describe('fixUnifiedDiff verbatim', () => {
  it("adds the person's lines exactly as written; context and the rest of the file are the file's", () => {
    const indent = fc.constantFrom('', '\t', '\t\t', '  ', '    ');
    const word = fc.constantFrom('a()', 'b = 1;', 'return “3”;', '}', 'if (x) {', 'é ok');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(indent, word), { minLength: 3, maxLength: 12 }),
        fc.nat(),
        fc.array(fc.tuple(indent, word), { minLength: 1, maxLength: 4 }),
        fc.constantFrom('\t', '  ', '    '),
        (fileLines, at, added, slip) => {
          // Lines made unique by their number, so the hunk has one place.
          const lines = fileLines.map(([i, w], n) => `${i}${w} // ${n}`);
          const text = `${lines.join('\n')}\n`;
          const k = at % (lines.length - 1);
          // Context written with the person's indentation (tabs ↔ spaces), the line after it replaced.
          const context = lines[k]!.replace(/^\s*/, (ws) => ws.replaceAll('\t', slip));
          const addedLines = added.map(([i, w]) => `${i}${w}`);
          const diff = `@@ -${k + 1},2 +${k + 1},${1 + addedLines.length} @@\n ${context}\n-${lines[k + 1]}\n${addedLines.map((l) => `+${l}`).join('\n')}\n`;
          const r = fixUnifiedDiff(text, diff, undefined, undefined, true);
          if (!r.ok) return; // a context that no longer locates one place may be refused
          const want = [...lines.slice(0, k + 1), ...addedLines, ...lines.slice(k + 2)];
          expect(r.newText).toBe(`${want.join('\n')}\n`);
        },
      ),
      { numRuns: 500 },
    );
  });
});
