import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffForModel } from '../../src/edit/diff-for-model.js';

const header = '--- /f.txt\n+++ /f.txt\n@@ -1,3 +1,3 @@\n';

describe('diffForModel', () => {
  it('returns a small diff as it is', () => {
    const diff = `${header} a\n-b\n+c\n d\n`;
    expect(diffForModel(diff, 50_000)).toBe(diff);
  });

  it('shows a long changed line by its start and the stretch where it changed, counting the rest', () => {
    const old = `${'a'.repeat(5_000_000)}NEEDLE${'b'.repeat(5_000_000)}`;
    const diff = `${header} first\n-${old}\n+${old.replace('NEEDLE', 'PIN')}\n last\n`;
    const shown = diffForModel(diff, 50_000);
    expect(shown.length).toBeLessThan(5_000);
    const [, , , , removed, added] = shown.split('\n');
    expect(removed).toMatch(/^-a{119}\[… [\d,]+ characters …\]a+NEEDLEb+\[… [\d,]+ characters …\]$/);
    expect(added).toMatch(/^\+a{119}\[… [\d,]+ characters …\]a+PINb+\[… [\d,]+ characters …\]$/);
    // What is left out is counted exactly: shown characters plus counted ones make the line.
    for (const [line, full] of [
      [removed!, `-${old}`],
      [added!, `+${old.replace('NEEDLE', 'PIN')}`],
    ] as const) {
      const counted = [...line.matchAll(/\[… ([\d,]+) characters …\]/g)].reduce(
        (sum, m) => sum + Number(m[1]!.replaceAll(',', '')),
        0,
      );
      expect(line.replace(/\[… [\d,]+ characters …\]/g, '').length + counted).toBe(full.length);
    }
  });

  it('keeps every diff within its budget, cut at a line with the lines left counted', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom(' ', '-', '+'),
            fc.oneof(
              fc.string({ maxLength: 30 }),
              fc.nat(30_000).map((n) => 'x'.repeat(n)),
            ),
          ),
          { maxLength: 300 },
        ),
        fc.integer({ min: 2_000, max: 60_000 }),
        (body, max) => {
          const lines = body.map(([mark, text]) => `${mark}${text.replaceAll('\n', ' ')}`);
          const diff = `${header}${lines.join('\n')}\n`;
          const shown = diffForModel(diff, max);
          expect(shown.length).toBeLessThanOrEqual(Math.max(max, diff.length <= 1_000 ? diff.length : 0));
          const cutNote =
            /\n\[diff cut at [\d,]+ characters: ([\d,]+) more lines? not shown; read the file to see them\]$/.exec(
              shown,
            );
          const kept = (cutNote ? shown.slice(0, cutNote.index) : shown).split('\n');
          const all = diff.split('\n');
          if (cutNote) expect(kept.length + Number(cutNote[1]!.replaceAll(',', ''))).toBe(all.length - 1);
          // Every line shown is the diff's line, or its shortened form (same mark, same start).
          kept.forEach((line, i) => {
            if (line === all[i]) return;
            expect(all[i]!.length).toBeGreaterThan(1_000);
            expect(line.slice(0, 120)).toBe(all[i]!.slice(0, 120));
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});

/** A high surrogate not followed by a low one, or a low one not after a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('diffForModel on long lines of astral characters', () => {
  it('never cuts a surrogate pair in half', () => {
    fc.assert(
      fc.property(fc.nat(3), fc.nat(3), fc.integer({ min: 600, max: 3_000 }), (a, b, n) => {
        const old = `${'x'.repeat(a)}${'😀'.repeat(n)}A${'😀'.repeat(n)}`;
        const diff = `${header}-${old}\n+${old.replace('A', `${'y'.repeat(b)}B`)}\n`;
        const shown = diffForModel(diff, 50_000);
        expect(LONE_SURROGATE.test(shown)).toBe(false);
      }),
      { numRuns: 100 },
    );
  });
});
