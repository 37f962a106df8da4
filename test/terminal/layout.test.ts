import { describe, expect, it } from 'vitest';
import type { ApprovalPayload } from '../../src/contract/payloads.js';
import { diffLineSource, renderDiff } from '../../src/terminal/diff-view.js';
import { KeyReader } from '../../src/terminal/key-reader.js';
import { runPager } from '../../src/terminal/pager.js';
import { printHeader } from '../../src/terminal/prompt-parts.js';
import { renderPayload } from '../../src/terminal/render-payload.js';
import { createStyle } from '../../src/terminal/style.js';
import { cutPathMiddle } from '../../src/terminal/title-fit.js';
import { displayWidth } from '../../src/text/display-width.js';
import { fakeTty } from './fake-tty.js';

const plain = createStyle(false);
const longPath = `/${'project/packages/server/src/handlers/'.repeat(3)}authentication-middleware.ts`;

describe('titles keep the file name', () => {
  it('a 120-character path is cut in the middle, not at the end', () => {
    expect(longPath.length).toBeGreaterThan(120);
    const cut = cutPathMiddle(longPath, 60);
    expect(displayWidth(cut)).toBe(60);
    expect(cut).toMatch(/^\/project\/packages\/.*…\/authentication-middleware\.ts$/);
  });

  it.each([40, 60, 80, 120])('the frame title at %i columns names the file and keeps the stats', (width) => {
    const payload = {
      type: 'delete',
      description: 'delete',
      path: longPath,
      mount: '/',
      fileLines: 3,
      fileBytes: 12,
      preview: 'a\nb\nc\n',
      previewTruncated: false,
      baseSha256: 'x',
    } as ApprovalPayload;
    const lines: string[] = [];
    printHeader(renderPayload(payload, plain, width - 3), (s = '') => lines.push(s), width, plain);
    expect(displayWidth(lines[0]!)).toBeLessThanOrEqual(width - 1);
    expect(lines[0]).toContain(width >= 60 ? '…/authentication-middleware.ts' : 'middleware.ts');
    if (width >= 80) expect(lines[0]).toContain('(3 lines, 12 bytes)');
  });

  it('a file name too long by itself keeps its end (the extension)', () => {
    expect(cutPathMiddle(`/a/${'x'.repeat(100)}.ts`, 20)).toBe(`…${'x'.repeat(15)}.ts`);
  });
});

describe('display width', () => {
  it('wide (CJK) characters take two columns: a long CJK row is cut to the screen, marked, still a + row', () => {
    const cjk = '漢字'.repeat(60);
    const diff = `--- a/x\n+++ b/x\n@@ -0,0 +1 @@\n+${cjk}\n`;
    const [, row] = renderDiff(diff, plain, 77);
    expect(displayWidth(row!)).toBeLessThanOrEqual(77);
    expect(row).toMatch(/^ {6}1 \+漢字.*…\+\d+$/);
  });
});

describe('pager layout', () => {
  const added = (n: number, width: number) =>
    diffLineSource(
      `--- a/x\n+++ b/x\n@@ -0,0 +1,${n} @@\n${Array.from({ length: n }, (_, i) => `+added line number ${i} ${'字'.repeat(i % 40)}`).join('\n')}\n`,
      plain,
      width - 3,
    );

  async function screensAt(
    width: number,
    rows: number,
    keys: string[][],
    onScreen?: (tty: ReturnType<typeof fakeTty>) => void,
  ) {
    const tty = fakeTty({ columns: width, rows });
    const reader = new KeyReader(tty.input, { clock: tty.clock, onArm: tty.onPrompt });
    reader.open();
    for (const batch of keys) tty.type(...batch);
    const src = added(300, width);
    onScreen?.(tty);
    await runPager({
      keys: reader,
      output: tty.output,
      count: src.count,
      line: src.line,
      title: `Edit: ${longPath}  +300 −0`,
      paths: [longPath],
      footer:
        "[y] yes  [a] yes, and don't ask again…  [n] no, and say what to do instead\n[v] view all  [e] edit first  [q] quit the run",
      rows,
      width,
      style: plain,
      relayout: (w) => added(300, w),
    });
    reader.close();
    return tty
      .text()
      .split('\u001b[H\u001b[2J')
      .slice(1)
      .map((s) => s.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''));
  }

  it.each([
    40, 50, 73, 80, 132,
  ])('at %i columns every screen is exactly the terminal height, no line wraps', async (width) => {
    const screens = await screensAt(width, 16, [[' ', 'G', 'q']]);
    for (const s of screens) {
      const lines = s.split('\n');
      expect(lines).toHaveLength(16);
      expect(lines[0]).toContain(width > 40 ? 'authentication-middleware.ts' : 'middleware.ts');
      for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(width - 1);
    }
  });

  it('re-lays out on resize: lines re-cut to the new width, the status counts the lines now visible', async () => {
    const tty = fakeTty({ columns: 80, rows: 24 });
    const reader = new KeyReader(tty.input, { clock: tty.clock, onArm: tty.onPrompt });
    reader.open();
    tty.type('G');
    const until = async (text: string) => {
      while (!tty.plain().includes(text)) await new Promise((r) => setTimeout(r, 5));
    };
    const widths: number[] = [];
    const done = runPager({
      keys: reader,
      output: tty.output,
      ...added(300, 80),
      title: 'Edit: /x',
      footer: '[y] yes  [n] no',
      rows: 24,
      width: 80,
      style: plain,
      relayout: (w) => {
        widths.push(w);
        return added(300, w);
      },
    });
    await until('lines 281–301 of 301'); // 24 rows: title + 21 + status + footer
    tty.reset();
    Object.assign(tty.output, { columns: 50, rows: 12 });
    tty.output.emit('resize');
    const screen = tty.plain().split('\u001b[H\u001b[2J').at(-1)!;
    tty.typeNow('q');
    await done;
    reader.close();
    expect(widths).toEqual([50]);
    const lines = screen.split('\n');
    expect(lines).toHaveLength(12);
    expect(screen).toContain('lines 281–289 of 301'); // 12 rows: 9 lines
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(49);
  });
});
