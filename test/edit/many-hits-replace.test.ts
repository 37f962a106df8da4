import { constants } from 'node:buffer';
import { applyPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedUnifiedDiff } from '../../src/edit/bounded-diff.js';
import { replaceInText } from '../../src/edit/replace-in-text.js';
import { toErrorInfo } from '../../src/tools/tool-error.js';

/**
 * A replace_all with many hits (a thousand and more) is laid out from an ASCII
 * file's bytes, or made by one native replaceAll otherwise: either way it is the
 * plain split/join replacement, `$` patterns literal, and its payload diff (a rope
 * of joined parts) is the whole change, line for line.
 */
const asciiWord = fc.stringMatching(/^[a-z$&'`0-9 ]{1,6}$/);

function manyHits(unit: string, needle: string, copies: number): string {
  return `${Array.from({ length: copies }, (_, i) => `${unit}${i % 7}${needle}${i}`).join('\n')}\n`;
}

describe('replace_all with many hits', () => {
  it('equals split/join for generated ASCII and non-ASCII replacements, with and without the bytes', () => {
    fc.assert(
      fc.property(
        asciiWord,
        fc.oneof(asciiWord, fc.constantFrom('é', '→$&', '😀', '')),
        fc.integer({ min: 1000, max: 2500 }),
        fc.boolean(),
        (unit, replacement, copies, withBytes) => {
          const needle = '<hit>';
          const text = manyHits(unit, needle, copies);
          const r = replaceInText(text, {
            oldString: needle,
            newString: replacement,
            replaceAll: true,
            ...(withBytes ? { bytes: Buffer.from(text, 'latin1') } : {}),
          });
          expect(r.ok).toBe(true);
          if (!r.ok) return;
          const expected = text.split(needle).join(replacement);
          expect(r.newText).toBe(expected);
          expect(r.replacements).toBe(copies);
          const { head, middle, tail } = r.splice;
          expect(text.slice(0, head) + middle + text.slice(text.length - tail)).toBe(expected);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('overlapping hits are taken left to right, each after the one before (as split/join)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 600, max: 1200 }), (run, lines) => {
        const text = `${Array.from({ length: lines }, (_, i) => 'a'.repeat(run + (i % 3))).join('\n')}\n`;
        const r = replaceInText(text, {
          oldString: 'aa',
          newString: 'b$&',
          replaceAll: true,
          bytes: Buffer.from(text, 'latin1'),
        });
        expect(r.ok && r.newText).toBe(text.split('aa').join('b$&'));
      }),
      { numRuns: 30 },
    );
  });

  it('a non-ASCII file is never read as bytes', () => {
    const text = manyHits('ü', '<hit>', 1500);
    // Bytes that are not the text one for one (UTF-8 of a non-ASCII text) are ignored.
    const r = replaceInText(text, {
      oldString: '<hit>',
      newString: 'x',
      replaceAll: true,
      bytes: Buffer.from(text, 'utf8'),
    });
    expect(r.ok && r.newText).toBe(text.split('<hit>').join('x'));
  });

  it('the payload diff of a million-line-style replace_all applies to exactly the new text and counts its lines', () => {
    for (const lines of [2000, 30_000]) {
      // Nine lines in ten changed, a `}` line between: one hunk of every line.
      const text = `${Array.from({ length: lines }, (_, i) => (i % 10 === 9 ? '}' : `  v${i} = compute<hit>(${i});`)).join('\n')}\n`;
      const copies = lines - lines / 10;
      const r = replaceInText(text, { oldString: '<hit>', newString: '<HIT>', replaceAll: true });
      if (!r.ok) throw new Error(r.message);
      const diff = boundedUnifiedDiff(text, r.newText, {
        oldPath: '/f',
        newPath: '/f',
        known: r.unchanged,
        splice: r.splice,
      });
      // Big enough that the hunk is held as several parts joined by concatenation.
      expect(diff.unifiedDiff.length).toBeGreaterThan(1 << 16);
      expect(applyPatch(text, diff.unifiedDiff)).toBe(r.newText);
      expect(diff.diffLines).toBe(diff.unifiedDiff.split('\n').length - 1);
      expect(diff.added).toBe(copies);
      expect(diff.removed).toBe(copies);
    }
  });
});

describe('a replacement too big for a string', () => {
  it('is refused as a size problem before its bytes are laid out, and so is a string Node cannot make', () => {
    const text = 'x'.repeat(6_000_000);
    const r = () =>
      replaceInText(text, {
        oldString: 'x',
        newString: 'y'.repeat(100),
        replaceAll: true,
        bytes: Buffer.from(text, 'latin1'),
      });
    expect(r).toThrow(RangeError);
    let thrown: unknown;
    try {
      r();
    } catch (error) {
      thrown = error;
    }
    expect(toErrorInfo(thrown).code).toBe('file_too_large');
    let nodeError: unknown;
    try {
      Buffer.allocUnsafe(constants.MAX_STRING_LENGTH + 1).toString('latin1');
    } catch (error) {
      nodeError = error;
    }
    expect(toErrorInfo(nodeError).code).toBe('file_too_large');
  });
});
