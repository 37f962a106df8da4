import { describe, expect, it } from 'vitest';
import { editFile, gnuDiff, gnuPatch, patchFile } from './rt51-helpers.js';

// A file with a UTF-8 BOM; the change touches line 1. `diff -u` of the file's own bytes carries the BOM
// on line 1 (as every byte-level diff tool does). GNU patch writes "\uFEFFd\n"; patch_file writes the BOM twice.
describe('rt51: BOM on line 1 is written twice', () => {
  const oldT = '\uFEFFc\n';
  const newT = '\uFEFFd\n';

  it('patch_file with the diff -u of the file writes exactly one BOM', async () => {
    const diff = gnuDiff(oldT, newT, ['-u']);
    expect(gnuPatch(oldT, diff)).toBe(newT);
    const r = await patchFile(oldT, diff);
    // actual: ok, after === '\uFEFF\uFEFFd\n'
    if (r.ok) expect(r.after).toBe(newT);
    else expect(r.after).toBe(oldT);
  });

  it('patch_file inserting a line before line 1 of a BOM file', async () => {
    const o = '\uFEFFc\nx\n';
    const n = '\uFEFFa\nc\nx\n';
    const diff = gnuDiff(o, n, ['-u']);
    expect(gnuPatch(o, diff)).toBe(n);
    const r = await patchFile(o, diff);
    if (r.ok) expect(r.after).toBe(n);
    else expect(r.after).toBe(o);
  });

  it('edit_file whose old_string includes the BOM (a str.replace gives one BOM)', async () => {
    const r = await editFile(oldT, { old_string: '\uFEFFc', new_string: '\uFEFFd' });
    // actual: ok, match_level 'indentation', after === '\uFEFF\uFEFFd\n'
    if (r.ok) expect(r.after).toBe(oldT.replace('\uFEFFc', '\uFEFFd'));
    else expect(r.after).toBe(oldT);
  });

  it('patch_file removing the BOM reports success but leaves it (adding one works)', async () => {
    const o = '\uFEFFa\nb\n';
    const n = 'a\nb\n';
    const diff = gnuDiff(o, n, ['-u']);
    expect(gnuPatch(o, diff)).toBe(n);
    const r = await patchFile(o, diff);
    // actual: ok, file unchanged ('\uFEFFa\nb\n'); the reverse diff (adding the BOM) is applied as written
    if (r.ok) expect(r.after).toBe(n);
    else expect(r.after).toBe(o);
  });
});
