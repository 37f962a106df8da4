// Pager first screen: how long until the first screen of a huge diff is drawn (issue 22).
// Self-contained: `npx tsx bench/pager-first-screen.ts`. Each case is compared with a baseline
// measured in the same run: the first screen of a one-line diff.
import { PassThrough } from 'node:stream';
import { KeyReader } from '../src/terminal/key-reader.js';
import { runPager } from '../src/terminal/pager.js';
import { renderPayload } from '../src/terminal/render-payload.js';
import { createStyle } from '../src/terminal/style.js';

const style = createStyle(true);
const patch = (unifiedDiff: string) =>
  ({
    type: 'patch',
    description: 'patch /big.txt',
    path: '/big.txt',
    mount: '/',
    unifiedDiff,
    requestedDiff: '',
    diffLines: 0,
    added: 0,
    removed: 0,
    relocated: false,
    hunks: 1,
    fileExists: true,
    fileLines: 0,
    fileBytes: 0,
  }) as const;

/** Renders the payload and draws the pager's first screen (80×24), then quits; returns ms. */
async function firstScreen(unifiedDiff: string): Promise<number> {
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => input });
  let drawn = 0;
  const output = new PassThrough();
  output.on('data', (c: Buffer) => {
    drawn += c.length;
  });
  const keys = new KeyReader(input, { clock: { now: () => 0 }, armDelayMs: 0 });
  keys.open();
  const start = performance.now();
  const r = renderPayload(patch(unifiedDiff), style, 77);
  let elapsed = 0;
  const done = runPager({
    keys,
    output,
    count: r.body.count,
    line: (i, shift) => r.body.line(i, shift),
    ...(r.body.text ? { search: r.body.text } : {}),
    title: r.title,
    warnings: r.warnings,
    footer: '[y] yes  [n] no',
    rows: 24,
    width: 80,
    style,
    relayout: () => ({ count: r.body.count, line: (i, s) => r.body.line(i, s) }),
  });
  // The first screen is drawn synchronously before the pager waits for a key.
  elapsed = performance.now() - start;
  setImmediate(() => setTimeout(() => input.write('q'), 0));
  await done;
  keys.close();
  if (drawn === 0) throw new Error('nothing drawn');
  return elapsed;
}

async function median(runs: number, diff: string): Promise<number> {
  await firstScreen(diff);
  const t: number[] = [];
  for (let i = 0; i < runs; i++) t.push(await firstScreen(diff));
  t.sort((a, b) => a - b);
  return t[Math.floor(t.length / 2)]!;
}

const oneLine = '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n';
const big = 'x'.repeat(10 * 1024 * 1024);
const longLine = `--- a/x\n+++ b/x\n@@ -1 +1 @@\n-${big}a\n+${big}b\n`;
const n = 50_000;
const manyLines = `--- a/x\n+++ b/x\n@@ -1,${n} +1,${n} @@\n${Array.from({ length: n }, (_, i) => `-old line ${i}`).join('\n')}\n${Array.from({ length: n }, (_, i) => `+new line ${i}`).join('\n')}\n`;

const base = await median(15, oneLine);
const rows = [
  ['10 MB changed line', await median(5, longLine)],
  ['50k removed / 50k added', await median(5, manyLines)],
] as const;
console.log('| first pager screen (80×24) | median ms | baseline: 1-line diff ms | ratio | target |');
console.log('|---|---:|---:|---:|---|');
for (const [name, ms] of rows)
  console.log(`| ${name} | ${ms.toFixed(1)} | ${base.toFixed(2)} | ${(ms / base).toFixed(0)}× | ≤ 50 ms |`);
