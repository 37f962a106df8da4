// Red team (rt35): patch_file with a diff whose change includes the final newline ("\ No newline at end of
// file"). Promise: an edit applies what was asked or refuses clearly; nothing is silently wrong. Observed: the
// final-newline part of the diff is dropped — a diff that only adds or removes the final newline succeeds
// ("Patch applied to /f.txt (1 hunk)") after an approval with an empty unifiedDiff, and writes nothing.
// (edit_file does make the same change: old "b\n" → new "b" removes the final newline.)
import crypto from 'node:crypto';
import { createTwoFilesPatch } from 'diff';
import { afterEach, describe, expect, it } from 'vitest';
import { checkShown, cleanup, env } from './rt35-harness.js';

afterEach(cleanup);
const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
const patchOf = (a: string, b: string) =>
  createTwoFilesPatch('a/f.txt', 'b/f.txt', a, b, '', '').split('\n').slice(2).join('\n');

describe('patch_file and the final newline', () => {
  const cases: Array<[string, string]> = [
    ['a\nb\n', 'a\nb'],
    ['a\nb', 'a\nb\n'],
    ['a\nb\n', 'a\nc'],
    ['a\nb', 'a\nc\n'],
  ];
  for (const [before, wanted] of cases) {
    it(`${JSON.stringify(before)} → ${JSON.stringify(wanted)}: written as asked, or refused`, async () => {
      const E = env();
      E.write(before);
      const udiff = patchOf(before, wanted);
      const out: any = await E.gated.callTool('patch_file', {
        path: '/f.txt',
        unified_diff: udiff,
        base_sha256: sha(before),
      });
      const after = E.disk();
      if (out.ok) {
        // what runs is what is shown (holds) …
        expect(checkShown(before, after, E.payloads[0])).toEqual([]);
        // … and what runs is what was asked (broken: the final-newline change is dropped)
        expect(after).toBe(wanted);
      } else {
        expect(after).toBe(before);
        expect(out.error.code).toBe('invalid_diff');
      }
    });
  }

  it('control: edit_file makes the same final-newline change', async () => {
    const E = env();
    E.write('a\nb\n');
    const out: any = await E.gated.callTool('edit_file', {
      path: '/f.txt',
      old_string: 'b\n',
      new_string: 'b',
    });
    expect(out.ok).toBe(true);
    expect(E.disk()).toBe('a\nb');
  });
});
