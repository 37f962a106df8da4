// rt36: the built-in pager's search on a diff of one long changed line. docs/terminal.md: "drawing costs what
// is on screen: the first pager screen of a 10 MB changed line takes milliseconds" and "long lines are searched
// whole and the view scrolls sideways to the match". After a search scrolls to a match at column 10,000,000,
// every redraw (the search result, then j and k) sanitises and shifts the whole 10 MB prefix: ~1.5 s per
// million columns per redraw, synchronously, so the prompt is frozen (not even Ctrl-C is read) for ~30 s a key.
// Run in a child process (the work is synchronous) with a budget; a redraw that cost what is on screen would
// finish in well under a second.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBudgeted } from './rt36-budgeted-child.js';

const ROOT = path.resolve(__dirname, '../..');

function script(half: number, keys: string[]): string {
  return `
import { createStyle } from ${JSON.stringify(`${ROOT}/src/terminal/index.ts`)};
import { diffLineSource } from ${JSON.stringify(`${ROOT}/src/terminal/diff-view.ts`)};
import { KeyReader } from ${JSON.stringify(`${ROOT}/src/terminal/key-reader.ts`)};
import { runPager } from ${JSON.stringify(`${ROOT}/src/terminal/pager.ts`)};
import { fakeTty } from ${JSON.stringify(`${ROOT}/test/terminal/fake-tty.ts`)};
const big = 'a'.repeat(${half}) + 'NEEDLE' + 'b'.repeat(${half});
const diff = '--- a/f.txt\\n+++ b/f.txt\\n@@ -1,3 +1,3 @@\\n x\\n-' + big + '\\n+' + big.replace('NEEDLE', 'PIN') + '\\n y\\n';
const src = diffLineSource(diff, createStyle(false), 97);
const tty = fakeTty({ columns: 100, rows: 30 });
const reader = new KeyReader(tty.input, { clock: tty.clock, onArm: tty.onPrompt });
reader.open();
tty.type(...${JSON.stringify(keys)});
console.log('START');
await runPager({ keys: reader, output: tty.output, count: src.count, line: src.line, search: src.text, where: src.where,
  title: 'Edit: /f.txt', footer: '[y] yes  [n] no', rows: 30, width: 100, style: createStyle(false) });
reader.close();
const plain = tty.plain();
console.log('RESULT ' + JSON.stringify({ found: /match 1 of 1/.test(plain), pinShown: plain.includes('PIN') }));
`;
}

function run(half: number, keys: string[], budgetMs: number) {
  return runBudgeted<{ found: boolean; pinShown: boolean }>(script(half, keys), budgetMs, ROOT);
}

describe('rt36: pager search inside a 20 MB changed line', () => {
  it('reference: a 200 KB line, search + j + k', async () => {
    const r = await run(100_000, ['/', 'P', 'I', 'N', '\r', 'j', 'k', 'q'], 20_000);
    console.log('200 KB', r);
    expect(r).toMatchObject({ found: true, pinShown: true });
  }, 60_000);

  it('search for the change at column 10,000,000, then j and k: answered within 20 s', async () => {
    const r = await run(10_000_000, ['/', 'P', 'I', 'N', '\r', 'j', 'k', 'q'], 20_000);
    console.log('20 MB', r);
    expect(
      r.hung,
      'the pager froze: each redraw at a 10M-column sideways shift re-sanitises the prefix',
    ).not.toBe(true);
    expect(r).toMatchObject({ found: true, pinShown: true });
  }, 60_000);
});
