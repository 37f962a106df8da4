import { describe, expect, it } from 'vitest';
import { callOk, oneFileProject } from '../redteam/one-file-project.js';

// A replace_all of tens of thousands of changes: the result's diff is built only as far as
// the model reads it, and what it shows is the start of the whole diff.

const NOTE = /^\[(?:diff cut at [\d,]+ characters: [\d,]+ more lines? and )?([\d,]+) more changes? not shown/;

/** The file edited with the shipped readMaxChars, and with one so big the whole diff comes back. */
async function bothDiffs(text: string, args: Record<string, unknown>) {
  const cut = oneFileProject(text);
  const whole = oneFileProject(text, { readMaxChars: 1e9 });
  const shown = (await callOk(cut.ts, 'edit_file', args)).diff as string;
  const full = (await callOk(whole.ts, 'edit_file', args)).diff as string;
  expect(cut.disk()).toBe(whole.disk());
  const lines = shown.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const note = lines.pop()!;
  return { shown, lines, note, fullLines: full.split('\n') };
}

describe('edit_file replace_all with many changes: the result diff', () => {
  it('where hunks part, is the first hunks of the whole diff, and counts the changes left', async () => {
    // A change every 10th line: hunks part between them.
    const text = Array.from({ length: 120_000 }, (_, i) => (i % 10 === 0 ? `target ${i}` : `keep ${i}`)).join(
      '\n',
    );
    const args = { path: '/f.txt', old_string: 'target', new_string: 'TARGET', replace_all: true };
    const { shown, lines, note, fullLines } = await bothDiffs(`${text}\n`, args);
    expect(shown.length).toBeLessThanOrEqual(50_000);
    expect(lines).toEqual(fullLines.slice(0, lines.length));
    const left = Number(NOTE.exec(note)![1]!.replace(/,/g, ''));
    const shownChanges = lines.filter((l) => l.startsWith('+') && !l.startsWith('+++')).length;
    // Changes diffed but cut off by the character limit are in "more lines"; the rest are counted.
    expect(note).toMatch(/more lines and [\d,]+ more changes not shown/);
    expect(shownChanges).toBeGreaterThan(100);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(12_000 - shownChanges);
  }, 60_000);

  it('where every line changes, shows the whole diff`s lines and says the last hunk goes on', async () => {
    const text = Array.from({ length: 50_000 }, (_, i) => `value ${i} = old;`).join('\n');
    const args = { path: '/f.txt', old_string: 'old', new_string: 'new', replace_all: true };
    const { lines, note, fullLines } = await bothDiffs(`${text}\n`, args);
    expect(note).toMatch(NOTE);
    expect(note).toContain('the last hunk goes on');
    // The same lines after the headers; the one hunk's header counts what is shown.
    expect(lines.slice(0, 2)).toEqual(fullLines.slice(0, 2));
    expect(lines[2]).toMatch(/^@@ -1,\d+ \+1,\d+ @@$/);
    expect(fullLines[2]).toBe('@@ -1,50000 +1,50000 @@');
    expect(lines.slice(3)).toEqual(fullLines.slice(3, lines.length));
  }, 60_000);

  it('with fewer changes, is the whole diff cut by lines as before', async () => {
    const text = Array.from({ length: 5_000 }, (_, i) => `value ${i} = old;`).join('\n');
    const args = { path: '/f.txt', old_string: 'old', new_string: 'new', replace_all: true };
    const { lines, note, fullLines } = await bothDiffs(`${text}\n`, args);
    const m = /^\[diff cut at [\d,]+ characters: ([\d,]+) more lines? not shown; read the file/.exec(note);
    expect(m).not.toBeNull();
    expect(lines).toEqual(fullLines.slice(0, lines.length));
    const whole = fullLines.filter((l, i, a) => !(i === a.length - 1 && l === ''));
    expect(lines.length + Number(m![1]!.replace(/,/g, ''))).toBe(whole.length);
  }, 60_000);

  it('replaces many hits in one pass as literally as few ($ patterns stay text)', async () => {
    for (const n of [10, 5_000]) {
      const text = Array.from({ length: n }, (_, i) => `a${i} x x b`).join('\n');
      const { ts, disk } = oneFileProject(`${text}\n`);
      const r = await callOk(ts, 'edit_file', {
        path: '/f.txt',
        old_string: 'x x',
        new_string: "$&$1$$$'",
        replace_all: true,
      });
      expect(r.replacements_made).toBe(n);
      expect(disk()).toBe(`${text.replaceAll('x x', () => "$&$1$$$'")}\n`);
    }
  });
});
