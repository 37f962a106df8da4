// rt49 — the edit_file result `diff` (what the model reads) for a replace_all of 10,000+ changes.
// docs/tools.md: "A replace_all of 10,000 changes or more has its diff built only as far as it is
// shown ... it is cut where the whole diff's hunks part, so what is shown is the whole diff's
// start; where no such place comes (every line changed), the note says the last hunk goes on past
// the cut (its header counts the lines shown)."
//
// Broken: the prefix is cut at the end of an OLD line, and the new text at the same offset. When a
// change joins lines (old_string ends with a newline, new_string does not), the new text is cut in
// the middle of a line:
//  - the last `+` line shown is a piece of the real line, shown as a whole line followed by
//    "\ No newline at end of file", its "[… N characters …]" count adding up to the piece;
//  - the "hunks part here" test counts the joined line as an unchanged one, so a cut is taken
//    where the whole diff's hunk goes on: the shown header is not the whole diff's, and no
//    "goes on" note says so.
// Also: with the "goes on" note, the header counts the lines of the part built, not the lines
// shown (the result is cut again at readMaxChars).
import { afterEach, describe, expect, it } from 'vitest';
import { checkPayload, cleanup, compareModelDiff, runGated } from './rt49-harness.js';

afterEach(cleanup);

/** Claimed characters of a shortened diff line (after its mark): kept text plus counted gaps. */
function claimedLength(line: string): number {
  let n = 0;
  const parts = line.slice(1).split(/\[… ([\d,]+) characters …\]/);
  parts.forEach((p, i) => {
    n += i % 2 === 1 ? Number(p.replaceAll(',', '')) : [...p].length;
  });
  return n;
}

describe('rt49: replace_all result diff at 10,000+ changes when a change joins lines', () => {
  it('12,000 lines "a", replace_all "\\n" -> "": the one + line shown is the whole new line (12,000 chars), not a 10,001-char piece', async () => {
    const r = await runGated('a\n'.repeat(12_000), 'edit_file', {
      old_string: '\n',
      new_string: '',
      replace_all: true,
    });
    expect(r.outcome.ok).toBe(true);
    expect(r.after).toBe('a'.repeat(12_000));
    expect(checkPayload(r)).toEqual([]); // the person's payload is right
    const lines: string[] = r.outcome.data.diff.split('\n');
    const plus = lines.filter((l) => l.startsWith('+') && !l.startsWith('+++'));
    expect(plus).toHaveLength(1);
    // actual: "+a×201[… 9,600 characters …]a×200" = 10,001 characters, then "\ No newline at end of file"
    expect(claimedLength(plus[0]!)).toBe(12_000);
  });

  it('same, realistic: 12,000 "item_i," lines joined by replace_all ",\\n" -> ", ": the + line shown is not cut short and marked as the file end', async () => {
    let text = '';
    for (let i = 0; i < 12_000; i++) text += `item_${i},\n`;
    const r = await runGated(text, 'edit_file', { old_string: ',\n', new_string: ', ', replace_all: true });
    expect(r.outcome.ok).toBe(true);
    expect(checkPayload(r)).toEqual([]);
    const lines: string[] = r.outcome.data.diff.split('\n');
    const plusAt = lines.findIndex((l) => l.startsWith('+item_0'));
    expect(plusAt).toBeGreaterThan(0);
    const newLine = r.after; // one line, no newline
    expect(claimedLength(lines[plusAt]!)).toBe(newLine.length);
  });

  it('10,000 blocks "a / x_i / 6 lines", replace_all "a\\n" -> "b": the shown hunk header is the whole diff\'s (no "goes on" note is given)', async () => {
    let text = '';
    for (let i = 0; i < 10_000; i++) text += `a\nx${i}\nf1\nf2\nf3\nf4\nf5\nf6\n`;
    const r = await runGated(text, 'edit_file', { old_string: 'a\n', new_string: 'b', replace_all: true });
    expect(r.outcome.ok).toBe(true);
    expect(checkPayload(r)).toEqual([]);
    const model: string = r.outcome.data.diff;
    const full: string = r.payload.unifiedDiff;
    expect(model).not.toContain('goes on');
    // actual: model "@@ -1,47140 +1,41663 @@"-like header vs full "@@ -1,79997 +1,69997 @@"
    expect(model.split('\n')[2]).toBe(full.split('\n')[2]);
    expect(compareModelDiff(full, model)).toBe('');
  });

  it('10,000 lines changed: the note about the last hunk says true things about its header', async () => {
    let text = '';
    for (let i = 0; i < 10_000; i++) text += `a${i}\n`;
    const r = await runGated(text, 'edit_file', { old_string: 'a', new_string: 'b', replace_all: true });
    expect(r.outcome.ok).toBe(true);
    const lines: string[] = r.outcome.data.diff.split('\n');
    const h = lines.findLastIndex((l) => l.startsWith('@@'));
    const m = /^@@ -\d+,(\d+) \+\d+,(\d+) @@$/.exec(lines[h]!)!;
    const body = lines.slice(h + 1).filter((l) => /^[ +-]/.test(l));
    const oldShown = body.filter((l) => l[0] !== '+').length;
    // Was: "its header counts the lines shown" with a header of 8,334 lines and 3,715 shown.
    expect(lines.some((l) => l.includes('its header counts the lines shown'))).toBe(false);
    expect(
      lines.some((l) => l.includes('the last hunk goes on past them: its header counts only part of it')),
    ).toBe(true);
    expect(Number(m[1])).toBeGreaterThan(oldShown);
    expect(Number(m[1])).toBeLessThan(10_000);
  });
});

describe('rt49 held: the result diff around the 10,000 threshold', () => {
  for (const n of [9_999, 10_000, 10_001]) {
    it(`${n} separated changes (7 lines apart): result diff is the start of the payload diff`, async () => {
      let text = '';
      for (let i = 0; i < n; i++) text += `a${i}\nf1\nf2\nf3\nf4\nf5\nf6\nf7\n`;
      const r = await runGated(text, 'edit_file', { old_string: 'a', new_string: 'b', replace_all: true });
      expect(r.outcome.ok).toBe(true);
      expect(checkPayload(r)).toEqual([]);
      expect(compareModelDiff(r.payload.unifiedDiff, r.outcome.data.diff)).toBe('');
    });
  }
});
