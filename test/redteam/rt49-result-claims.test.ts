// rt49 — other claims the result and payload make about a replace_all.
// 1. `lines_changed` is span × replacements (span = newlines of the longer of old/new string, + 1),
//    not the lines changed: 3 hits on one line claim 3 lines; "x\n" × 5 -> "y\nz\n" claims 15 lines
//    changed in a 5-line file (10 lines after). The payload's own diff says −5 +10 / −1 +1.
// (Not kept as a test, timing-dependent: an exact replace_all splitting each of 200k lines in two was
// once flagged diffCoarse: true with an exact diff; idDiff gives each tiny region >= 5 ms, so a GC
// pause inside one 1-line-vs-2-lines Myers call flags the whole payload coarse.)
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, runGated } from './rt49-harness.js';

afterEach(cleanup);

describe('rt49: replace_all result claims', () => {
  it('"a a a\\nb\\n", replace_all "a" -> "bb": lines_changed is 1 (one line changed)', async () => {
    const r = await runGated('a a a\nb\n', 'edit_file', {
      old_string: 'a',
      new_string: 'bb',
      replace_all: true,
    });
    expect(r.after).toBe('bb bb bb\nb\n');
    expect(r.payload.removed).toBe(1);
    expect(r.outcome.data.lines_changed).toBe(1); // actual 3
  });

  it('"x\\n" × 5, replace_all "x\\n" -> "y\\nz\\n": lines_changed is at most the lines of the new file (10)', async () => {
    const r = await runGated('x\n'.repeat(5), 'edit_file', {
      old_string: 'x\n',
      new_string: 'y\nz\n',
      replace_all: true,
    });
    expect(r.after).toBe('y\nz\n'.repeat(5));
    expect(r.outcome.data.lines_changed).toBeLessThanOrEqual(10); // actual 15
  });
});
