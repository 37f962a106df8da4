import { describe, expect, it } from 'vitest';
import { renderDiff } from '../../src/terminal/diff-view.js';
import { createStyle } from '../../src/terminal/style.js';

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
