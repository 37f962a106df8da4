// Red team rt59: a hunk whose removed line starts with "-- " (SQL/Lua/Haskell comments, a
// Markdown "- item" inside a .patch file, …) followed by an added line starting with "++ " is
// written `--- …` / `+++ …`, which patch_file's parser takes for a new file header: the hunk is
// cut in two there and those two lines vanish. GNU patch counts the hunk's lines from its @@
// header, so it reads them as the `-`/`+` lines they are.
import { describe, expect, it } from 'vitest';
import { gnuDiff, gnuPatch, patchFile } from './rt59-helpers.js';

describe('rt59 patch_file: `--- x` / `+++ y` lines inside a hunk', () => {
  it('silent wrong result: the "-- a" -> "++ a" change is dropped, the rest applied', async () => {
    const oldT = 'x\n-- a\nb\n';
    const diff = '--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,2 @@\n-x\n--- a\n+++ a\n b\n';
    expect(gnuPatch(oldT, diff)).toBe('++ a\nb\n');
    const r = await patchFile(oldT, diff);
    // Now: ok, and the file is "-- a\nb\n" (only `-x` applied; "-- a" kept, "++ a" never written).
    if (r.ok) expect(r.after).toBe('++ a\nb\n');
    else expect(r.after).toBe(oldT);
    expect(r.ok).toBe(true);
  });

  it('silent wrong result in a CRLF file, diff made by diff -u of the bytes', async () => {
    const oldT = 'a\r\n-- a\r\n a\r\na\rb\r\nc';
    const newT = '++ a\r\n+a\r\nx y\r\n a\r\n\t\r\n}\r\n';
    const diff = gnuDiff(oldT, newT, ['-u']);
    expect(diff).toContain('\n--- a\r\n+++ a\r\n');
    expect(gnuPatch(oldT, diff, { binary: true })).toBe(newT);
    const r = await patchFile(oldT, diff);
    // Now: ok, written "-- a\r\n+a\r\nx y\r\n a\r\n\t\r\n}\r\n" (first line wrong).
    if (r.ok) expect(JSON.stringify(r.after)).toBe(JSON.stringify(newT));
    else expect(r.after).toBe(oldT);
  });

  it('a hunk that only swaps such a line is refused as "no hunks" (GNU applies it)', async () => {
    const oldT = 'x\n-- old\ny\n';
    const diff = '--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n x\n--- old\n+++ new\n y\n';
    expect(gnuPatch(oldT, diff)).toBe('x\n++ new\ny\n');
    const r = await patchFile(oldT, diff);
    // Now: invalid_diff / no_hunks ("The diff has no hunks with + or - lines"), which is false.
    expect(r.ok).toBe(true);
    expect(r.after).toBe('x\n++ new\ny\n');
  });
});
