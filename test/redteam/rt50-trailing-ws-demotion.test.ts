/**
 * docs/tools.md: "A hit that ... ends where its line's trailing whitespace begins when the edit adds or
 * removes lines (several lines, or an empty new_string) is not exact: it goes to the line-wise levels below"
 * and "Ambiguity is counted at the level that matched and is never guessed."
 *
 * When the line-wise level finds the old_string at two places, the demoted byte hit is applied anyway as
 * `exact`, leaving the deleted line's trailing whitespace behind (a whitespace-only line, or "X ").
 * The same edit with one line-wise window is done line-wise ("X\n"); the one-line analogue is refused.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { get, mkdir, put, raw, rm } from './rt50-helpers.js';

const dir = mkdir();
afterAll(() => rm(dir));

async function edit(name: string, file: string, args: Record<string, unknown>) {
  put(dir, name, file);
  const out: any = await raw(dir).callTool('edit_file', { path: `/${name}`, ...args });
  return { out, after: get(dir, name) };
}

describe('rt50: demoted exact hit (ends at trailing whitespace, line count changes)', () => {
  it('control: one line-wise window -> trailing_whitespace level, no stray whitespace', async () => {
    const { out, after } = await edit('c.txt', '}\n} \n', { old_string: '}\n}', new_string: 'X' });
    expect(out.ok).toBe(true);
    expect(out.data.match_level).toBe('trailing_whitespace');
    expect(after).toBe('X\n');
  });

  it('control: one-line analogue with two line-wise windows is refused', async () => {
    const { out, after } = await edit('c2.txt', 'a \nq\na\n', { old_string: 'a', new_string: '' });
    expect(out.ok).toBe(false);
    expect(out.error.code).toBe('edit_not_unique');
    expect(after).toBe('a \nq\na\n');
  });

  it('deleting two lines "a\\na" in "a \\na\\na \\n" must not leave a whitespace-only line', async () => {
    const file = 'a \na\na \n';
    const { out, after } = await edit('d.txt', file, { old_string: 'a\na', new_string: '' });
    // expected: refused as ambiguous (lines 1-2 and 2-3 both match ignoring trailing whitespace), file unchanged
    // actual: ok, match_level 'exact', file becomes "a \n \n"
    if (out.ok) {
      expect({ level: out.data.match_level, after }).not.toEqual({ level: 'exact', after: 'a \n \n' });
    } else {
      expect(after).toBe(file);
    }
    expect(after).not.toMatch(/^[ \t]+$/m);
  });

  it('replacing "a\\na" by "X" in "a \\na\\na \\n" is line-wise or refused, never "X " reported exact', async () => {
    const file = 'a \na\na \n';
    const { out, after } = await edit('e.txt', file, { old_string: 'a\na', new_string: 'X' });
    // actual: ok, match_level 'exact', "a \nX \n"
    if (out.ok) expect(out.data.match_level).not.toBe('exact');
    else expect(out.error.code).toBe('edit_not_unique');
    expect(after).not.toContain('X ');
  });
});
