// Red team rt59: hand-picked line-end cases that held (patch_file agrees with GNU patch, or
// with the documented rule where GNU cannot apply the diff).
import { describe, expect, it } from 'vitest';
import { gitRepoDiff, gnuDiff, gnuPatch, patchFile } from './rt59-helpers.js';

const B = '\uFEFF';
const H = '--- a/f.txt\n+++ b/f.txt\n';

describe('rt59 patch_file: diffs of the bytes agree with GNU patch --binary (held)', () => {
  const pairs: Array<[string, string, string]> = [
    ['CRLF: add the final newline', 'a\r\nb', 'a\r\nb\r\n'],
    ['CRLF: remove the final newline', 'a\r\nb\r\n', 'a\r\nb'],
    ['CRLF: delete every line', 'a\r\nb\r\n', ''],
    ['CRLF without final newline: delete every line', 'a\r\nb', ''],
    ['a file of one CR', '\r', '\r\n'],
    ['a file of CRs', '\r\r\r', '\r\r\n'],
    ['CR CR LF lines: change one', 'x\r\r\na\r\r\nb\r\r\n', 'x\r\r\nA\r\r\nb\r\r\n'],
    ['CR CR LF lines: add one', 'x\r\r\na\r\r\nb\r\r\n', 'x\r\r\na\r\r\nNEW\r\r\nb\r\r\n'],
    ['BOM + CRLF: change a line', `${B}a\r\nb\r\nc\r\n`, `${B}a\r\nB\r\nc\r\n`],
    ['BOM + CRLF: change the first line', `${B}a\r\nb\r\nc\r\n`, `${B}A\r\nb\r\nc\r\n`],
    ['BOM + CRLF: remove the BOM', `${B}a\r\nb\r\n`, 'a\r\nb\r\n'],
    ['CRLF: add a BOM', 'a\r\nb\r\n', `${B}a\r\nb\r\n`],
    ['only a BOM -> BOM + CRLF line', B, `${B}a\r\n`],
    ['BOM + one CR', `${B}\r`, `${B}\r\n`],
    ['BOM + mixed ends', `${B}a\r\nb\nc\r\n`, `${B}A\nb\nc\r\n`],
    ['lone CR inside a line', 'a\rb\r\nc\r\n', 'a\rb\r\nC\r\n'],
    ['empty -> CRLF lines', '', 'a\r\nb\r\n'],
    ['mixed: lines keep their ends', 'a\r\nb\nc\r\nd\n', 'a\r\nb\nC\r\nd\n'],
    ['mixed -> all LF', 'a\r\nb\nc\r\nd\n', 'a\r\nb\nc\nd\n'],
    ['CRLF cut at its final LF: change the last line', 'a\r\nb\r', 'a\r\nB\r'],
    ['empty CRLF lines', '\r\n\r\n\r\n', '\r\n\r\nx\r\n\r\n'],
  ];
  for (const [name, oldT, newT] of pairs) {
    it(name, async () => {
      for (const diff of [gnuDiff(oldT, newT), gnuDiff(oldT, newT, ['-U0']), gitRepoDiff(oldT, newT)]) {
        expect(gnuPatch(oldT, diff, { binary: true })).toBe(newT);
        const r = await patchFile(oldT, diff);
        expect(r.ok, r.message).toBe(true);
        expect(JSON.stringify(r.after)).toBe(JSON.stringify(newT));
      }
    });
  }
});

describe('rt59 patch_file: hand-written diffs at the file end and through git (held)', () => {
  const cases: Array<[string, string, string, string]> = [
    ['-U0 append to a CRLF file, CRLF line', 'a\r\nb\r\n', `${H}@@ -2,0 +3,1 @@\n+c\r\n`, 'a\r\nb\r\nc\r\n'],
    [
      '-U0 append with a marker',
      'a\r\nb\r\n',
      `${H}@@ -2,0 +3,1 @@\n+c\n\\ No newline at end of file\n`,
      'a\r\nb\r\nc',
    ],
    ['-U0 insert at the start', 'a\r\nb\r\n', `${H}@@ -0,0 +1,1 @@\n+z\r\n`, 'z\r\na\r\nb\r\n'],
    [
      'delete an unterminated last line (model LF diff, CRLF file)',
      'a\r\nb\r\nc',
      `${H}@@ -1,3 +1,2 @@\n a\n b\n-c\n\\ No newline at end of file\n`,
      'a\r\nb\r\n',
    ],
    [
      'relocated last hunk with marker',
      'q\r\nq\r\nq\r\na\r\nb\r\nc',
      `${H}@@ -1,3 +1,3 @@\n a\r\n b\r\n-c\n\\ No newline at end of file\n+C\r\n`,
      'q\r\nq\r\nq\r\na\r\nb\r\nC\r\n',
    ],
    [
      'marker on the last context line, file has its newline',
      'a\r\nb\r\nc\r\n',
      `${H}@@ -1,3 +1,3 @@\n-a\r\n+A\r\n b\r\n c\n\\ No newline at end of file\n`,
      'A\r\nb\r\nc\r\n',
    ],
    [
      'CRLF-transported diff, both sides unterminated',
      'a\r\nb\r\nc',
      `${H}@@ -2,2 +2,2 @@\n b\n-c\n\\ No newline at end of file\n+C\n\\ No newline at end of file\n`.replaceAll(
        '\n',
        '\r\n',
      ),
      'a\r\nb\r\nC',
    ],
    [
      'CRLF-transported diff, LF file, final newline added',
      'a\nb\nc',
      `${H}@@ -2,2 +2,2 @@\n b\n-c\n\\ No newline at end of file\n+c\n`.replaceAll('\n', '\r\n'),
      'a\nb\nc\n',
    ],
    [
      'file of CRs, both sides unterminated',
      '\r\r\r',
      `${H}@@ -1 +1 @@\n-\r\r\r\n\\ No newline at end of file\n+\r\r\n\\ No newline at end of file\n`,
      '\r\r',
    ],
    [
      'create: LF lines, last marked, its CR kept',
      '',
      `${H}@@ -0,0 +1,2 @@\n+a\n+b\r\n\\ No newline at end of file\n`,
      'a\nb\r',
    ],
  ];
  for (const [name, oldT, diff, want] of cases) {
    it(name, async () => {
      const r = await patchFile(oldT, diff);
      expect(r.ok, r.message).toBe(true);
      expect(JSON.stringify(r.after)).toBe(JSON.stringify(want));
    });
  }

  it('git diff creating a file (new file mode, /dev/null), into a missing file', async () => {
    const diff =
      'diff --git a/f.txt b/f.txt\nnew file mode 100644\nindex 0000000..e0e8ac2\n--- /dev/null\n+++ b/f.txt\n@@ -0,0 +1,2 @@\n+a\r\n+b\r\n\\ No newline at end of file\n';
    const r = await patchFile(null, diff);
    expect(r.ok).toBe(true);
    expect(r.after).toBe(gnuPatch('', diff, { binary: true }));
    expect(r.after).toBe('a\r\nb\r');
  });

  it('git diff deleting every line (deleted file mode)', async () => {
    const diff =
      'diff --git a/f.txt b/f.txt\ndeleted file mode 100644\nindex e0e8ac2..0000000\n--- a/f.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\r\n-b\r\n';
    const r = await patchFile('a\r\nb\r\n', diff);
    expect(r.ok).toBe(true);
    expect(r.after).toBe('');
  });

  it('git diff of a CRLF file with function-context hunk headers and no final newline', async () => {
    const body = (i: number) => (i % 8 === 0 ? `function f${i}() {` : `  stmt ${i};`);
    const mk = (f: (i: number) => string) => Array.from({ length: 40 }, (_, i) => f(i)).join('\r\n');
    const oldT = mk(body);
    const newT = mk((i) => (i === 13 || i === 39 ? `${body(i)} // x` : body(i)));
    const diff = gitRepoDiff(oldT, newT);
    expect(diff).toMatch(/@@ .* @@ function f/);
    const r = await patchFile(oldT, diff);
    expect(r.ok).toBe(true);
    expect(r.after).toBe(newT);
  });

  it('two-file git diffs are refused, nothing written', async () => {
    const diff =
      'diff --git a/g.txt b/g.txt\nindex 1..2 100644\n--- a/g.txt\n+++ b/g.txt\n@@ -1 +1 @@\n-q\n+Q\ndiff --git a/f.txt b/f.txt\nindex 1..2 100644\n--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n-a\r\n+A\r\n b\r\n';
    const r = await patchFile('a\r\nb\r\n', diff);
    expect(r.ok).toBe(false);
    expect(r.code).toBe('invalid_diff');
    expect(r.after).toBe('a\r\nb\r\n');
  });
});

describe('rt59 patch_file: malformed markers GNU rejects are applied leniently, nothing lost (documented: only the last hunk at the end of the file reads its markers)', () => {
  const file = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n';
  const want = 'a\nB\nc\nd\ne\nf\ng\nh\nI\nj\n';
  it('a marker after a + line in the middle of the first of two hunks (GNU: malformed patch)', async () => {
    const diff = `${H}@@ -1,3 +1,3 @@\n a\n-b\n+B\n\\ No newline at end of file\n c\n@@ -8,3 +8,3 @@\n h\n-i\n+I\n j\n`;
    expect(gnuPatch(file, diff)).toBeNull();
    const r = await patchFile(file, diff);
    expect(r.ok).toBe(true);
    expect(r.after).toBe(want);
  });
  it('a marker after a - line of the first hunk (GNU: hunk FAILED)', async () => {
    const diff = `${H}@@ -1,3 +1,3 @@\n a\n-b\n\\ No newline at end of file\n+B\n c\n@@ -8,3 +8,3 @@\n h\n-i\n+I\n j\n`;
    expect(gnuPatch(file, diff)).toBeNull();
    const r = await patchFile(file, diff);
    expect(r.ok).toBe(true);
    expect(r.after).toBe(want);
  });
});
