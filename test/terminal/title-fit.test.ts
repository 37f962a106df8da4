import { describe, expect, it } from 'vitest';
import { fitTitle } from '../../src/terminal/title-fit.js';
import { displayWidth } from '../../src/text/display-width.js';

describe('fitTitle', () => {
  it('keeps a short path whole and lets the details after it go', () => {
    const title = 'Write: /src/one.ts (1 line, 4 B, new file)';
    const fitted = fitTitle({ title, paths: ['/src/one.ts'] }, 30);
    expect(fitted).toContain('/src/one.ts');
    expect(displayWidth(fitted)).toBeLessThanOrEqual(30);
  });

  it('cuts a long path in the middle, keeping the file name and the stats', () => {
    const path = `/project/${'packages/server/src/'.repeat(5)}rotate-refresh-tokens.ts`;
    const title = `Edit: ${path} (line 1)  +1 −1`;
    const fitted = fitTitle({ title, paths: [path] }, 76);
    expect(fitted).toMatch(/^Edit: \/project\/.*…\/rotate-refresh-tokens\.ts \(line 1\) {2}\+1 −1$/);
    expect(displayWidth(fitted)).toBeLessThanOrEqual(76);
  });
});
