import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderDiff } from '../../src/terminal/diff-view.js';
import { createStyle } from '../../src/terminal/style.js';
import { displayWidth } from '../../src/text/display-width.js';

const strip = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');
// biome-ignore lint/suspicious/noTemplateCurlyInString: the diffed source text contains template placeholders
const head = 'const message = [`${done} of ${this.items.length}';
const diff = [
  '@@ -1,1 +1,1 @@',
  `-    return ${head} items are listed below and the ones that are now done`,
  `+    return ${head} items are listed below and the ones that are now finished`,
  '',
].join('\n');

describe('long changed line pairs', () => {
  it.each([false, true])('keep the change on screen at 80 columns (colour %s)', (color) => {
    const lines = renderDiff(diff, createStyle(color), 77).map(strip);
    const [del, add] = [lines[1]!, lines[2]!];
    expect(del).toContain(color ? 'done' : '[-done-]');
    expect(add).toContain(color ? 'finished' : '{+finished+}');
    for (const line of [del, add]) {
      expect([...line].length).toBeLessThanOrEqual(77);
      expect(line).toMatch(/…/); // the cut is marked
    }
  });
});

describe('long lines: the first change is always in the window', () => {
  const pair = (oldLine: string, newLine: string) =>
    `--- a/x\n+++ b/x\n@@ -1 +1 @@\n-${oldLine}\n+${newLine}\n`;

  it.each([
    false,
    true,
  ])('a 10,000-character line changed at column 9,001 shows the change (colour %s)', (color) => {
    const before = 'a'.repeat(9000);
    const after = 'b'.repeat(999);
    const lines = renderDiff(pair(`${before}X${after}`, `${before}Y${after}`), createStyle(color), 77).map(
      strip,
    );
    const [del, add] = [lines[1]!, lines[2]!];
    expect(del).toContain(color ? 'X' : '[-X-]');
    expect(add).toContain(color ? 'Y' : '{+Y+}');
    for (const line of [del, add]) expect([...line].length).toBeLessThanOrEqual(77);
    expect(del).toMatch(/…\+999$/);
  });

  it('for any head, tail and change length the window holds the start of the change', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 3000 }),
        fc.nat({ max: 120_000 }),
        fc.string({ minLength: 1, maxLength: 200, unit: fc.constantFrom('x', 'y', '字') }),
        fc.boolean(),
        (headLength, tailLength, change, color) => {
          const head = 'h'.repeat(headLength);
          const tail = 't'.repeat(tailLength);
          const lines = renderDiff(
            pair(`${head}${tail}`, `${head}${change}${tail}`),
            createStyle(color),
            77,
          ).map(strip);
          const add = lines[2]!;
          expect(add).toContain(change[0]);
          // Without colour the change is marked, or (when the marks would not fit) the row is drawn whole,
          // a run of another script inside a word shown with its name (⟦字:Han⟧).
          const unlabelled = add.replace(/⟦([^:⟧]*):[^⟧]*⟧/g, '$1');
          if (!color) expect(add.includes('{+') || unlabelled.includes(`${head}${change}${tail}`)).toBe(true);
          expect(displayWidth(add)).toBeLessThanOrEqual(77);
        },
      ),
      // CI seed 172517418 drew a change mixing scripts in one word (34, 5, 'x字xx字字字字', no colour).
      { numRuns: 150, examples: [[34, 5, 'x字xx字字字字', false]] },
    );
  });
});
