// rt55: replace_all on big files: a million hits, `$` patterns, CRLF (old_string spanning the
// line end), ASCII <-> non-ASCII results, approval diff == write, undo exact, memo reuse after undo.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyStrict, bytesOf, gatedOn, MiB, sha, tmp } from './rt55-helpers.js';

interface Case {
  name: string;
  text: string;
  old: string;
  rep: string;
  /** what the file must hold after (default: every non-overlapping hit, left to right, new text in the file's line ends) */
  expected?: string;
}

const eolOf = (t: string) => (t.includes('\r\n') ? '\r\n' : '\n');

async function runCase(c: Case, times = 1): Promise<void> {
  const raw = Buffer.from(c.text);
  const dir = tmp({ 'f.txt': raw });
  fs.chmodSync(path.join(dir, 'f.txt'), 0o606);
  const { gated, shown } = gatedOn(dir);
  const eol = eolOf(c.text);
  const oldF = c.old.replaceAll('\r\n', '\n').replaceAll('\n', eol);
  const repF = c.rep.replaceAll('\r\n', '\n').replaceAll('\n', eol);
  const hits = c.text.split(oldF).length - 1;
  const expected = c.expected ?? c.text.split(oldF).join(repF);
  for (let round = 0; round < times; round++) {
    const out = (await gated.callTool('edit_file', {
      path: '/f.txt',
      old_string: c.old,
      new_string: c.rep,
      replace_all: true,
    })) as any;
    expect(out.ok, JSON.stringify(out.error)?.slice(0, 300)).toBe(true);
    expect(out.data.replacements_made).toBe(hits);
    const after = bytesOf(dir, 'f.txt');
    if (!after.equals(Buffer.from(expected))) {
      const got = after.toString('utf8');
      let k = 0;
      while (k < got.length && got[k] === expected[k]) k++;
      expect.fail(
        `${c.name} round ${round}: bytes differ at ${k}: ${JSON.stringify(got.slice(k - 20, k + 40))} vs ${JSON.stringify(expected.slice(k - 20, k + 40))}`,
      );
    }
    expect(out.data.sha256).toBe(sha(after));
    expect(fs.statSync(path.join(dir, 'f.txt')).mode & 0o7777).toBe(0o606);
    const s = shown.at(-1)!;
    expect(s.payload.baseSha256).toBe(sha(raw));
    const applied = applyStrict(c.text, s.payload.unifiedDiff!);
    expect(
      applied === expected,
      `${c.name}: the diff shown is not the change written (${applied.slice(0, 120)})`,
    ).toBe(true);
    const u = (await gated.undo()) as any;
    expect(u.ok, JSON.stringify(u.error)).toBe(true);
    expect(bytesOf(dir, 'f.txt').equals(raw), `${c.name}: undo did not restore the bytes`).toBe(true);
    expect(fs.statSync(path.join(dir, 'f.txt')).mode & 0o7777).toBe(0o606);
  }
}

const lines = (n: number, f: (i: number) => string, eol = '\n') => {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(f(i));
  return out.join(eol) + eol;
};

describe('rt55 replace_all on big files', () => {
  it('a million hits, ASCII -> non-ASCII with $& (literal), twice (the second after undo), then ASCII', async () => {
    const text = lines(1_000_000, (i) => (i % 2 ? 'k' : 'kk'));
    await runCase({ name: '1M $&é', text, old: 'k', rep: '$&é' }, 2);
    await runCase({ name: '1M $$', text, old: 'k', rep: '$$' });
  }, 60_000);

  it('CRLF: old_string spanning the line end, 300k hits, every $ pattern in new_string', async () => {
    const text = lines(300_000, (i) => `a${i % 7}b`, '\r\n');
    for (const rep of ["$'", '$`', '$1', '$<x>', '$$$&', 'X\n$&']) {
      await runCase({ name: `CRLF span ${rep}`, text, old: 'b\na', rep: rep });
    }
  }, 60_000);

  it('CRLF, non-ASCII file with BOM, no final newline: 200k hits of a line end, joined with a non-ASCII mark', async () => {
    const text = `\ufeff${lines(200_000, (i) => `é${i % 10}`, '\r\n').slice(0, -2)}`;
    await runCase({ name: 'CRLF join', text, old: '\r\n', rep: '¶' });
    await runCase({ name: 'CRLF split', text, old: '0', rep: '\n0\n' });
  }, 60_000);

  it('overlapping hits (aa in runs of a), 1000+ of them, ASCII and non-ASCII results', async () => {
    const text = lines(200_000, (i) => 'a'.repeat(1 + (i % 5)));
    await runCase({ name: 'aa->b', text, old: 'aa', rep: 'b' });
    await runCase({ name: 'aa->ä', text, old: 'aa', rep: 'ä' });
    await runCase({ name: 'aa->aaa', text, old: 'aa', rep: 'aaa' });
  }, 60_000);

  it('old_string holding $ and regex characters, 100k hits', async () => {
    const text = lines(100_000, (i) => `x$&.*${i % 3}(y)`);
    await runCase({ name: '$& old', text, old: '$&.*', rep: '$1' });
  }, 60_000);

  it('exactly 1 MiB ASCII file, replace_all that grows it past 1 MiB and one that shrinks it below', async () => {
    const base = lines(MiB / 8, () => 'abcdefg');
    expect(Buffer.byteLength(base)).toBe(MiB);
    await runCase({ name: 'grow', text: base, old: 'g', rep: 'gh' });
    await runCase({ name: 'shrink', text: base, old: 'fg', rep: 'f' });
    await runCase({ name: 'to non-ASCII same byte count', text: base, old: 'fg', rep: 'ß' });
  }, 60_000);

  it('a very long line (3 MB, no newline) with 1M hits', async () => {
    const text = 'ab'.repeat(1_500_000);
    await runCase({ name: 'long line', text, old: 'b', rep: '\n' });
    await runCase({ name: 'long line 2', text, old: 'ab', rep: '😀' });
  }, 60_000);
});
