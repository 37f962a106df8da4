// rt38: the diff in edit_file / edit_lines results, bounded by readMaxChars. Every shortened line must be
// a faithful excerpt (shown text at its real place, counts adding up in code points) and show its change.
import { describe, expect, it } from 'vitest';
import type { FileSystemToolset } from '../../src/index.js';
import { callOk, oneFileProject } from './one-file-project.js';

const project = oneFileProject;
const call = callOk;
const CUT = /\[… ([\d,]+) characters …\]/;

/**
 * Checks a shown diff line against the full text of the line it stands for (without mark/anchor): shown
 * pieces are at their real code-point positions and counts add up. Returns the shown code-point ranges.
 */
function verify(shown: string, text: string): Array<[number, number]> {
  const m = /^[-+](\d+#[0-9a-f]{4,8}\|)?/.exec(shown)!;
  const body = shown.slice(m[0].length);
  const cps = [...text];
  const parts = body.split(new RegExp(CUT.source, 'g'));
  // parts alternate: shown, count, shown, count, ...
  let at = 0;
  const ranges: Array<[number, number]> = [];
  const headLeft = m[0].length; // mark/anchor count toward the head of the line; ignore
  void headLeft;
  for (let i = 0; i < parts.length; i++) {
    if (i % 2 === 0) {
      const piece = [...parts[i]!];
      const real = cps.slice(at, at + piece.length).join('');
      expect(real, `shown piece at code point ${at}`).toBe(parts[i]);
      if (piece.length) ranges.push([at, at + piece.length]);
      at += piece.length;
    } else at += Number(parts[i]!.replace(/,/g, ''));
  }
  expect(at, 'shown + counted = line length in code points').toBe(cps.length);
  return ranges;
}
const covers = (ranges: Array<[number, number]>, cp: number) => ranges.some(([a, b]) => cp >= a && cp < b);
const lines = (diff: string, mark: '+' | '-') =>
  diff.split('\n').filter((l) => l.startsWith(mark) && !l.startsWith(`${mark}${mark}${mark} `));
const rep = (c: string, n: number) => c.repeat(n);

describe('rt38: pairing and truthfulness of shortened long lines', () => {
  it('a long line moved past more than 8 short changed lines: its middle change is shown', async () => {
    const LA = `${rep('a', 2000)}OLDMID${rep('b', 2000)}`;
    const LB = LA.replace('OLDMID', 'NEWMID');
    const shorts = Array.from({ length: 12 }, (_, i) => `short ${i}`);
    const newShorts = shorts.map((s) => `${s} changed`);
    const { ts, disk } = project(`head\n${LA}\n${shorts.join('\n')}\ntail\n`);
    const r = await call(ts, 'edit_file', {
      path: '/f.txt',
      old_string: `${LA}\n${shorts.join('\n')}\n`,
      new_string: `${newShorts.join('\n')}\n${LB}\n`,
    });
    expect(disk()).toBe(`head\n${newShorts.join('\n')}\n${LB}\ntail\n`);
    const minus = lines(r.diff, '-').find((l) => l.startsWith('-aaaa'))!;
    const plus = lines(r.diff, '+').find((l) => l.startsWith('+aaaa'))!;
    verify(minus, LA);
    verify(plus, LB);
    // shown: "-a{200}[… 3,606 characters …]b{200}" for both: the long line is paired with a short line
    // (only the 8 lines of the other side nearest its position in the block are looked at), so the
    // "changed stretch" is the whole line and the one real change, in its middle, is left out
    expect(minus).toContain('OLDMID');
    expect(plus).toContain('NEWMID');
  });

  it('near-duplicate long lines swapped and edited: each shown excerpt is faithful and shows a change', async () => {
    const A = `${rep('x', 1500)}A1${rep('y', 1500)}`;
    const B = `${rep('x', 1500)}B1${rep('y', 1500)}`;
    const A2 = A.replace('A1', 'A2');
    const B2 = B.replace('B1', 'B2');
    const { ts, disk } = project(`head\n${A}\n${B}\ntail\n`);
    const r = await call(ts, 'edit_file', {
      path: '/f.txt',
      old_string: `${A}\n${B}\n`,
      new_string: `${B2}\n${A2}\n`,
    });
    expect(disk()).toBe(`head\n${B2}\n${A2}\ntail\n`);
    const minus = lines(r.diff, '-');
    const plus = lines(r.diff, '+');
    expect(minus.length + plus.length).toBe(4);
    verify(minus[0]!, A);
    verify(minus[1]!, B);
    verify(plus[0]!, B2);
    verify(plus[1]!, A2);
    for (const l of [...minus, ...plus]) expect(l).toMatch(/[AB][12]/);
  });

  it('adding characters only at the end, removing only at the start', async () => {
    const L = rep('q', 3000);
    for (const [from, to] of [
      [L, `${L}TAILADD`],
      [`HEADDEL${L}`, L],
      [`${L}`, `${rep('q', 1500)}MID${rep('q', 1500)}`],
    ] as const) {
      const { ts, disk } = project(`h\n${from}\nt\n`);
      const r = await call(ts, 'edit_file', {
        path: '/f.txt',
        old_string: `h\n${from}\nt`,
        new_string: `h\n${to}\nt`,
      });
      expect(disk()).toBe(`h\n${to}\nt\n`);
      const minus = lines(r.diff, '-')[0]!;
      const plus = lines(r.diff, '+')[0]!;
      verify(minus, from);
      const pr = verify(plus, to);
      if (to.includes('TAILADD')) expect(plus).toContain('TAILADD');
      if (to.includes('MID')) expect(plus).toContain('MID');
      if (from.includes('HEADDEL')) expect(minus).toContain('HEADDEL');
      void pr;
    }
  });

  it('astral characters and combining marks around the cut points', async () => {
    const e = '😀';
    const comb = 'e\u0301';
    for (const filler of [e, comb, `a${e}`, `${e}\u0301`, '\t']) {
      const base = rep(filler, 1500);
      // (a line ending in blanks would make the hit a "whitespace slip", re-written line-wise: not tested here)
      const from = `${base}<OLD>${base}.`;
      const to = `${base}<NEWER>${base}.`;
      const { ts } = project(`h\n${from}\nt\n`);
      const r = await call(ts, 'edit_file', { path: '/f.txt', old_string: '<OLD>', new_string: '<NEWER>' });
      const minus = lines(r.diff, '-')[0]!;
      const plus = lines(r.diff, '+')[0]!;
      verify(minus, from);
      verify(plus, to);
      expect(minus).toContain('<OLD>');
      expect(plus).toContain('<NEWER>');
      expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(r.diff)).toBe(
        false,
      );
    }
  });

  it('astral characters that share their low surrogate differ at a split point', async () => {
    // U+10000 (D800 DC00) vs U+10400 (D801 DC00): code units share the end
    const a = String.fromCodePoint(0x10000);
    const b = String.fromCodePoint(0x10400);
    const from = `${rep('m', 2000)}${a}${rep('n', 2000)}`;
    const to = `${rep('m', 2000)}${b}${rep('n', 2000)}`;
    const { ts } = project(`h\n${from}\nt\n`);
    const r = await call(ts, 'edit_file', { path: '/f.txt', old_string: a, new_string: b });
    const minus = lines(r.diff, '-')[0]!;
    const plus = lines(r.diff, '+')[0]!;
    verify(minus, from);
    verify(plus, to);
    expect(minus).toContain(a);
    expect(plus).toContain(b);
  });

  it('CRLF file: shown long lines are faithful', async () => {
    const from = `${rep('c', 2000)}OLD${rep('d', 2000)}`;
    const to = from.replace('OLD', 'NEW');
    const { ts, disk } = project(`h\r\n${from}\r\nt\r\n`);
    const r = await call(ts, 'edit_file', { path: '/f.txt', old_string: 'OLD', new_string: 'NEW' });
    expect(disk()).toBe(`h\r\n${to}\r\nt\r\n`);
    const minus = lines(r.diff, '-')[0]!;
    const plus = lines(r.diff, '+')[0]!;
    // the diff line carries the \r (context lines show it); a counted tail includes it
    verify(minus, `${from}\r`);
    verify(plus, `${to}\r`);
  });
});

describe('rt38: edit_lines on long lines', () => {
  const L1 = `${rep('k', 2000)}ONE${rep('l', 2000)}`;
  const L2 = `${rep('k', 2000)}TWO${rep('l', 2000)}`;
  const L3 = `${rep('k', 2000)}TRI${rep('l', 2000)}`;
  async function anchors(ts: FileSystemToolset) {
    const read = await call(ts, 'read_file', { path: '/f.txt', hashes: true });
    return read.content.split('\n').map((l: string) => l.split('|')[0]);
  }
  it('replace_range over three long lines with near-duplicates', async () => {
    const { ts, disk } = project(`h\n${L1}\n${L2}\n${L3}\nt\n`);
    const a = await anchors(ts);
    const N1 = L1.replace('ONE', 'uno');
    const N3 = L3.replace('TRI', 'tre');
    const r = await call(ts, 'edit_lines', {
      path: '/f.txt',
      operations: [{ op: 'replace_range', start_hash: a[1], end_hash: a[3], content: `${N3}\n${N1}` }],
      sanity: 'off',
    });
    expect(disk()).toBe(`h\n${N3}\n${N1}\nt\n`);
    const minus = lines(r.diff, '-');
    const plus = lines(r.diff, '+');
    const texts = [L1, L2, L3];
    for (const l of minus) verify(l, texts.find((t) => l.includes(t.slice(2000, 2003))) ?? L1);
    verify(plus.find((l) => l.includes('tre'))!, N3);
    verify(plus.find((l) => l.includes('uno'))!, N1);
    expect(plus.every((l) => /^\+\d+#[0-9a-f]+\|/.test(l))).toBe(true);
  });
  it('insert_after and delete_line of long lines', async () => {
    const { ts, disk } = project(`h\n${L1}\nt\n`);
    const a = await anchors(ts);
    const r = await call(ts, 'edit_lines', {
      path: '/f.txt',
      operations: [
        { op: 'insert_after', hash: a[1], content: L2 },
        { op: 'delete_line', hash: a[0] },
      ],
      sanity: 'off',
    });
    expect(disk()).toBe(`${L1}\n${L2}\nt\n`);
    const plus = lines(r.diff, '+');
    verify(plus[0]!, L2);
  });
});

describe('rt38: the whole diff within readMaxChars, cut at a whole line', () => {
  const body = Array.from({ length: 60 }, (_, i) => `line ${i} ${rep('z', 30)}`);
  for (const max of [1, 15, 16, 17, 40, 250, 1001, 2000]) {
    it(`readMaxChars ${max}`, async () => {
      const { ts } = project(`${body.join('\n')}\n`, { readMaxChars: max });
      const r = await call(ts, 'edit_file', {
        path: '/f.txt',
        old_string: 'z',
        new_string: 'Z',
        replace_all: true,
      });
      const full = (
        await call(project(`${body.join('\n')}\n`).ts, 'edit_file', {
          path: '/f.txt',
          old_string: 'z',
          new_string: 'Z',
          replace_all: true,
        })
      ).diff as string;
      expect(r.diff.length).toBeLessThanOrEqual(max);
      const fullLines = full.split('\n');
      const shown = r.diff.split('\n');
      const note = shown.findIndex((l: string) => l.startsWith('[diff'));
      const kept = note === -1 ? shown : shown.slice(0, note);
      for (let i = 0; i < kept.length; i++)
        if (kept[i] !== '' || i < kept.length - 1) expect(kept[i]).toBe(fullLines[i]);
      if (note !== -1) {
        const m = /: ([\d,]+) more lines? not shown/.exec(shown[note]!);
        const total = fullLines.at(-1) === '' ? fullLines.length - 1 : fullLines.length;
        if (m) expect(Number(m[1]!.replace(/,/g, ''))).toBe(total - note);
      }
      // the message lists each line once, the first 20
      expect(r.message).toContain('and 40 more');
    });
  }
  it('a diff exactly at the budget is whole, one char less is cut', async () => {
    const full = (
      await call(project(`${body.join('\n')}\n`).ts, 'edit_file', {
        path: '/f.txt',
        old_string: 'line 3 ',
        new_string: 'LINE 3 ',
      })
    ).diff as string;
    const exact = await call(project(`${body.join('\n')}\n`, { readMaxChars: full.length }).ts, 'edit_file', {
      path: '/f.txt',
      old_string: 'line 3 ',
      new_string: 'LINE 3 ',
    });
    expect(exact.diff).toBe(full);
    const less = await call(
      project(`${body.join('\n')}\n`, { readMaxChars: full.length - 1 }).ts,
      'edit_file',
      { path: '/f.txt', old_string: 'line 3 ', new_string: 'LINE 3 ' },
    );
    expect(less.diff.length).toBeLessThan(full.length);
    expect(less.diff).toMatch(/\[diff (cut|not shown)/);
  });
  it('a long-line diff with a budget just over its shortened size', async () => {
    const from = `${rep('w', 3000)}OLD${rep('w', 3000)}`;
    for (const max of [1, 16, 17, 250, 600, 1200, 1500, 3000]) {
      const { ts } = project(`h\n${from}\nt\n`, { readMaxChars: max });
      const r = await call(ts, 'edit_file', { path: '/f.txt', old_string: 'OLD', new_string: 'NEW' });
      expect(r.diff.length, `max ${max}`).toBeLessThanOrEqual(max);
      for (const l of r.diff.split('\n')) {
        if (l.startsWith('-') && !l.startsWith('---')) verify(l, from);
        if (l.startsWith('+') && !l.startsWith('+++')) verify(l, from.replace('OLD', 'NEW'));
      }
    }
  });
  it('message: matches several per line are listed once', async () => {
    const text = Array.from({ length: 25 }, () => 'a a a').join('\n');
    const { ts } = project(`${text}\n`);
    const r = await call(ts, 'edit_file', {
      path: '/f.txt',
      old_string: 'a',
      new_string: 'b',
      replace_all: true,
    });
    expect(r.message).toContain(
      'at line 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 and 5 more',
    );
  });
});
