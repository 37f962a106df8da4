import { describe, expect, it } from 'vitest';
import { ApprovalAborted } from '../../src/approval/errors.js';
import { diffLineSource } from '../../src/terminal/diff-view.js';
import { KeyReader } from '../../src/terminal/key-reader.js';
import { runPager } from '../../src/terminal/pager.js';
import { createStyle } from '../../src/terminal/style.js';
import { fakeTty } from './fake-tty.js';

const plain = createStyle(false);

/** Runs the pager over `source` with `keys` typed; returns each drawn screen (plain text). */
async function page(source: ReturnType<typeof diffLineSource>, keys: string[], rows = 12) {
  const tty = fakeTty({ rows });
  const reader = new KeyReader(tty.input, { clock: tty.clock, onArm: tty.onPrompt });
  reader.open();
  tty.type(...keys);
  try {
    await runPager({
      keys: reader,
      output: tty.output,
      count: source.count,
      line: (i, shift) => source.line(i, shift),
      ...(source.text ? { search: source.text } : {}),
      ...(source.where ? { where: source.where } : {}),
      title: 'Edit: /big.txt',
      footer: '[y] yes  [n] no\n[v] view all  [q] quit the run',
      rows,
      width: 80,
      style: plain,
    });
  } finally {
    reader.close();
  }
  const screens = tty
    .text()
    .split('\u001b[H\u001b[2J')
    .slice(1)
    .map((s) => s.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''));
  return { screens, tty };
}

const added = (n: number, f: (i: number) => string = (i) => `added ${i}`) =>
  diffLineSource(
    `--- a/x\n+++ b/x\n@@ -0,0 +1,${n} @@\n${Array.from({ length: n }, (_, i) => `+${f(i)}`).join('\n')}\n`,
    plain,
    77,
  );

describe('built-in pager', () => {
  it('fills the screen exactly: title, page, status line and the choices, nothing scrolls off', async () => {
    const { screens } = await page(added(200), [' ', 'j', 'G', 'q'], 12);
    for (const s of screens) {
      const lines = s.split('\n');
      expect(lines).toHaveLength(12);
      expect(lines[0]).toBe('Edit: /big.txt');
      expect(lines.at(-1)).toBe('[y] yes  [n] no  [v] view all  [q] quit the run'); // folded to one line
      expect(lines.every((l) => [...l].length <= 79)).toBe(true);
    }
    expect(screens[0]).toContain('lines 1–9 of 201');
    expect(screens[1]).toContain('lines 10–18 of 201');
    expect(screens[2]).toContain('lines 11–19 of 201');
    expect(screens[3]).toContain('lines 193–201 of 201');
  });

  it('n and N step through every match, also on the last page', async () => {
    const src = added(50, (i) => (i >= 45 ? `needle ${i}` : `hay ${i}`));
    const { screens } = await page(src, ['/', 'needle', '\r', 'n', 'n', 'n', 'n', 'n', 'N', 'q'], 12);
    // Results name the file line (the gutter's number), not the pager row, and count matches.
    const messages = screens.map((s) => /match \d+ of \d+: new line \d+|no more matches/.exec(s)?.[0]);
    expect(messages.filter(Boolean)).toEqual([
      'match 1 of 5: new line 46',
      'match 2 of 5: new line 47',
      'match 3 of 5: new line 48',
      'match 4 of 5: new line 49',
      'match 5 of 5: new line 50',
      'no more matches',
      'match 4 of 5: new line 49',
    ]);
  });

  it('scrolls long lines sideways, so what a cut hides can be reached; search sees the hidden part', async () => {
    const long = `${'x'.repeat(150)} HIDDEN_TAIL`;
    const src = added(3, (i) => (i === 1 ? long : `short ${i}`));
    const { screens } = await page(src, ['l', 'l', 'l', 'h', '/', 'HIDDEN', '\r', 'q'], 12);
    expect(screens[0]).not.toContain('HIDDEN_TAIL');
    expect(screens[0]).toMatch(/x…\+\d+/);
    expect(screens.slice(1, 4).some((s) => s.includes('HIDDEN_TAIL'))).toBe(true);
    expect(screens[1]).toContain('col 41');
    expect(screens[4]).toContain('col 81');
    expect(screens.at(-1)).toContain('match 1 of 1: new line 2');
  });

  it('search scrolls sideways to a match far along a line, and back for one near the start', async () => {
    const src = added(4, (i) => (i === 1 ? `${'x'.repeat(9000)} NEEDLE here` : `NEEDLE ${i} short`));
    const { screens } = await page(src, ['/', 'NEEDLE', '\r', 'n', 'n', 'q'], 12);
    const atFar = screens.find((s) => s.includes('match 2 of 4: new line 2'))!;
    expect(atFar).toContain('NEEDLE here');
    const atNear = screens.find((s) => s.includes('match 3 of 4: new line 3'))!;
    expect(atNear).toContain('NEEDLE 2 short');
    expect(atNear).not.toMatch(/col \d/);
  });

  it('Ctrl-C aborts the run and still leaves the alternate screen with the cursor shown', async () => {
    const tty = fakeTty();
    const reader = new KeyReader(tty.input, { clock: tty.clock, onArm: tty.onPrompt });
    reader.open();
    tty.type('j', '\u0003');
    const src = added(5);
    await expect(
      runPager({
        keys: reader,
        output: tty.output,
        count: src.count,
        line: src.line,
        title: 't',
        footer: '',
        rows: 10,
        style: plain,
      }),
    ).rejects.toBeInstanceOf(ApprovalAborted);
    reader.close();
    expect(tty.text().endsWith('\u001b[?25h\u001b[?1049l')).toBe(true);
    expect(tty.input.rawModes).toEqual([true, false]);
  });

  it('draws only the visible window: the first screen of a 100,000-line diff renders a page of lines', async () => {
    const src = added(100_000);
    let rendered = 0;
    const counting = {
      ...src,
      line: (i: number, s?: number) => {
        rendered++;
        return src.line(i, s);
      },
    };
    const { screens } = await page(counting, ['q'], 30);
    expect(screens[0]).toContain('lines 1–27 of 100,001');
    expect(rendered).toBe(27);
  });
});
