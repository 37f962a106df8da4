// rt37: the diff an edit_file / edit_lines result shows the model is bounded (long lines shortened around
// the change, the whole diff cut at readMaxChars). What it shows must stay truthful: the shown stretch of a
// long changed line contains the change, counts add up, and the file on disk is exactly as asked.
import { describe, expect, it } from 'vitest';
import { callOk, oneFileProject } from './one-file-project.js';

const project = oneFileProject;
const call = callOk;
/** The lines of a shown diff that start with `mark`. */
const marked = (diff: string, mark: '+' | '-') =>
  diff.split('\n').filter((l) => l.startsWith(mark) && !l.startsWith(`${mark}${mark}${mark} `));

const x = (n: number) => 'x'.repeat(n);
const y = (n: number) => 'y'.repeat(n);

describe('rt37: a long changed line shows the stretch where it changed', () => {
  it('held: one change in the middle of a long line (LF and CRLF)', async () => {
    for (const eol of ['\n', '\r\n']) {
      const line = `${x(2000)}MARK${y(2000)}`;
      const { ts, disk } = project(`head${eol}${line}${eol}tail${eol}`);
      const r = await call(ts, 'edit_file', { path: '/f.txt', old_string: 'MARK', new_string: 'NEWTEXT' });
      expect(disk()).toBe(`head${eol}${line.replace('MARK', 'NEWTEXT')}${eol}tail${eol}`);
      expect(marked(r.diff, '+')[0]).toContain('NEWTEXT');
      expect(marked(r.diff, '-')[0]).toContain('MARK');
    }
  });

  it('edit_lines: the changed long line shows its change (the + line carries an anchor, the - line does not)', async () => {
    const line = `${x(2000)}MARK${y(2000)}`;
    const { ts, disk } = project(`head\n${line}\ntail\n`);
    const read = await call(ts, 'read_file', { path: '/f.txt', hashes: true });
    const anchor = read.content.split('\n')[1].split('|')[0];
    const r = await call(ts, 'edit_lines', {
      path: '/f.txt',
      operations: [{ op: 'replace_line', hash: anchor, content: line.replace('MARK', 'NEWTEXT') }],
    });
    expect(disk()).toBe(`head\n${line.replace('MARK', 'NEWTEXT')}\ntail\n`);
    // shown: "+2#deb78b|xxxx…(510 x)[… 3,497 characters …]" — the line is "compared" with its partner from
    // position 1, where "2#…|" differs from the removed line's text, so only the start is shown
    expect(marked(r.diff, '+')[0]).toContain('NEWTEXT');
    expect(marked(r.diff, '-')[0]).toContain('MARK');
  });

  it('a long last line without a final newline: the "\\ No newline" marker hides the change', async () => {
    const line = `${x(2000)}MARK${y(2000)}`;
    const { ts, disk } = project(`head\n${line}`);
    const r = await call(ts, 'edit_file', { path: '/f.txt', old_string: 'MARK', new_string: 'NEWTEXT' });
    expect(disk()).toBe(`head\n${line.replace('MARK', 'NEWTEXT')}`);
    // shown: "-xxx…(519 x)[… 3,485 characters …]" / "+xxx…(519 x)[… 3,488 characters …]"
    expect(marked(r.diff, '+')[0]).toContain('NEWTEXT');
    expect(marked(r.diff, '-')[0]).toContain('MARK');
  });

  it('a long line deleted before a changed one: the changed line is paired with the deleted one', async () => {
    const a = `A${'a'.repeat(3000)}`;
    const b = `B${'b'.repeat(2500)}OLD${'b'.repeat(500)}`;
    const { ts, disk } = project(`head\n${a}\n${b}\ntail\n`);
    const r = await call(ts, 'edit_file', {
      path: '/f.txt',
      old_string: `${a}\n${b}\n`,
      new_string: `${b.replace('OLD', 'NEW')}\n`,
    });
    expect(disk()).toBe(`head\n${b.replace('OLD', 'NEW')}\ntail\n`);
    // shown: "+Bbbb…[… 2,489 characters …]": compared with "-Aaaa…", it "differs" at its first character
    expect(marked(r.diff, '+')[0]).toContain('NEW');
    expect(marked(r.diff, '-').some((l) => l.includes('OLD'))).toBe(true);
  });

  it('a long line inserted before a changed one: the changed line loses its partner', async () => {
    const b = `B${'b'.repeat(2500)}OLD${'b'.repeat(500)}`;
    const ins = `I${'i'.repeat(3000)}`;
    const { ts, disk } = project(`head\n${b}\ntail\n`);
    const r = await call(ts, 'edit_file', {
      path: '/f.txt',
      old_string: `${b}\n`,
      new_string: `${ins}\n${b.replace('OLD', 'NEW')}\n`,
    });
    expect(disk()).toBe(`head\n${ins}\n${b.replace('OLD', 'NEW')}\ntail\n`);
    expect(marked(r.diff, '+').some((l) => l.includes('NEW'))).toBe(true);
    expect(marked(r.diff, '-')[0]).toContain('OLD');
  });

  it('several changes far apart in one long line: each is shown', async () => {
    const line = `${'a'.repeat(3000)}ONE${'b'.repeat(3000)}TWO${'c'.repeat(3000)}`;
    const { ts, disk } = project(`${line}\n`);
    const after = line.replace('ONE', '111').replace('TWO', '222');
    const r = await call(ts, 'edit_file', { path: '/f.txt', old_string: line, new_string: after });
    expect(disk()).toBe(`${after}\n`);
    const plus = marked(r.diff, '+')[0]!;
    expect(plus).toContain('111');
    // shown: "+aaa…[… 2,681 characters …]aaa…111bbb…[… 5,606 characters …]": "222" is counted away
    expect(plus).toContain('222');
  });

  it('held: changes at the very start and the very end of a long line', async () => {
    const line = `S${x(5000)}E`;
    const { ts } = project(`${line}\n`);
    const r1 = await call(ts, 'edit_file', {
      path: '/f.txt',
      old_string: `S${x(10)}`,
      new_string: `START${x(10)}`,
    });
    expect(marked(r1.diff, '+')[0]).toContain('START');
    const r2 = await call(ts, 'edit_file', {
      path: '/f.txt',
      old_string: `${x(10)}E`,
      new_string: `${x(10)}END`,
    });
    expect(marked(r2.diff, '+')[0]).toContain('END');
  });

  it('the characters left out are counted as characters (astral text counts each code point once)', async () => {
    const e = '😀';
    const line = `${e.repeat(3000)}X${e.repeat(3000)}`;
    const { ts } = project(`${line}\n`);
    const r = await call(ts, 'edit_file', { path: '/f.txt', old_string: 'X', new_string: 'Y' });
    const plus = marked(r.diff, '+')[0]!.slice(1);
    expect(plus).toContain('Y');
    let counted = 0;
    const shown = plus.replace(/\[… ([\d,]+) characters …\]/g, (_, n: string) => {
      counted += Number(n.replace(/,/g, ''));
      return '';
    });
    // got: 11,284 "characters" left out of a line of 6,001 characters (UTF-16 code units counted)
    expect([...shown].length + counted).toBe([...line].length);
  });
});

describe('rt37: the whole diff is cut at readMaxChars', () => {
  it('held: a cut diff is the start of the uncut one and its count adds up', async () => {
    const text = Array.from({ length: 400 }, (_, i) => `line ${i} some text here`).join('\n') + '\n';
    const big = project(text, { readMaxChars: 10_000_000 });
    const small = project(text, { readMaxChars: 2_000 });
    const args = { path: '/f.txt', old_string: 'some', new_string: 'other', replace_all: true };
    const full = (await call(big.ts, 'edit_file', args)).diff as string;
    const cut = (await call(small.ts, 'edit_file', args)).diff as string;
    expect(small.disk()).toBe(big.disk());
    expect(cut.length).toBeLessThanOrEqual(2_000);
    const lines = cut.split('\n');
    const note = lines.pop()!;
    const m = /^\[diff cut at ([\d,]+) characters: ([\d,]+) more lines? not shown/.exec(note);
    expect(m).not.toBeNull();
    const fullLines = full.split('\n').filter((l, i, a) => !(i === a.length - 1 && l === ''));
    expect(lines).toEqual(fullLines.slice(0, lines.length));
    expect(lines.length + Number(m![2]!.replace(/,/g, ''))).toBe(fullLines.length);
  });

  it('a tiny readMaxChars still bounds the diff', async () => {
    const { ts } = project('line\n'.repeat(300), { readMaxChars: 40 });
    const r = await call(ts, 'edit_file', {
      path: '/f.txt',
      old_string: 'line',
      new_string: 'LINE',
      replace_all: true,
    });
    // got: "[diff cut at 0 characters: 603 more lines not shown; read the file to see them]" (79 characters)
    expect(r.diff.length).toBeLessThanOrEqual(40);
  });

  it('held: edit_lines anchors shown before the cut work in the next edit_lines call', async () => {
    const text = Array.from({ length: 300 }, (_, i) => `row ${i} = value ${i};`).join('\n') + '\n';
    const { ts, disk } = project(text, { readMaxChars: 1_500 });
    const anchors: string[] = [];
    for (let offset: number | null = 1; offset !== null; ) {
      const read = await call(ts, 'read_file', { path: '/f.txt', hashes: true, offset });
      anchors.push(
        ...read.content
          .split('\n')
          .filter(Boolean)
          .map((l: string) => l.split('|')[0]),
      );
      offset = read.next_offset;
    }
    expect(anchors).toHaveLength(300);
    const ops = Array.from({ length: 60 }, (_, k) => ({
      op: 'replace_line',
      hash: anchors[k * 5],
      content: `row ${k * 5} = changed ${k};\nextra ${k};`,
    }));
    const r = await call(ts, 'edit_lines', { path: '/f.txt', operations: ops });
    expect(r.diff).toMatch(/diff cut at/);
    const shownAnchors = [...r.diff.matchAll(/^\+(\d+#[0-9a-f]{6})\|extra (\d+);$/gm)];
    expect(shownAnchors.length).toBeGreaterThan(2);
    const [, anchor, k] = shownAnchors.at(-1)!;
    await call(ts, 'edit_lines', {
      path: '/f.txt',
      operations: [{ op: 'replace_line', hash: anchor, content: `EXTRA ${k};` }],
    });
    expect(disk()).toContain(`\nEXTRA ${k};\n`);
    expect(disk()).not.toContain(`\nextra ${k};\n`);
  });
});

describe('rt37: edit_file message lists the first 20 lines matched', () => {
  it('replace_all with several matches on a line: lines listed once, the rest counted as lines', async () => {
    const { ts } = project('foo foo foo\nbar\n'.repeat(30));
    const r = await call(ts, 'edit_file', {
      path: '/f.txt',
      old_string: 'foo',
      new_string: 'baz',
      replace_all: true,
    });
    expect(r.replacements_made).toBe(90);
    // got: "Replaced 90 occurrences in /f.txt at line 1, 1, 1, 3, 3, 3, 5, … 13, 13 and 70 more."
    const listed = /at line ([\d, ]+?)(?: and ([\d,]+) more)?\.$/.exec(r.message)!;
    const lines = listed[1]!.split(', ').map(Number);
    expect(new Set(lines).size).toBe(lines.length);
    expect(lines.length + Number(listed[2] ?? 0)).toBe(30);
  });
});
