import { createTwoFilesPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBinding, verifyBinding } from '../../src/approval/approval-binding.js';
import { ApprovalToolset } from '../../src/approval/approval-toolset.js';
import { captureArguments } from '../../src/approval/call-arguments.js';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import { lazyStringOf } from '../../src/text/lazy-string.js';
import { read } from '../helpers/temp-project.js';
import { ok, project } from '../tools/fixture.js';

type DiffPayload = { unifiedDiff: string; diffLines: number; added: number; removed: number };

/** The +/- lines of a unified diff (its file header left out). */
const bodyLines = (diff: string) =>
  diff.split('\n').filter((l) => /^[+-]/.test(l) && !l.startsWith('+++ ') && !l.startsWith('--- '));

describe('a payload diff written when first read', () => {
  it('reaches the callback unread; what the callback does to it changes nothing that runs', async () => {
    const { dir, toolset } = project({ 'a.txt': 'x = 1\ny = 2\nx = 1\n' });
    const seen: boolean[] = [];
    const gated = new ApprovalToolset(toolset, {
      approve: (r: ApprovalRequest) => {
        seen.push(lazyStringOf(r.payload, 'unifiedDiff') !== undefined);
        (r.payload as { unifiedDiff: string }).unifiedDiff = '@@ -1 +1 @@\n-x = 1\n+EVIL\n';
        return { approved: true };
      },
    });
    ok(
      await gated.callTool('edit_file', {
        path: '/a.txt',
        old_string: 'x = 1',
        new_string: 'x = 3',
        replace_all: true,
      }),
    );
    expect(seen).toEqual([true]);
    expect(read(dir, 'a.txt')).toBe('x = 3\ny = 2\nx = 3\n');
  });

  it('counts, when unread, the lines, additions and removals it has when read (generated edits, every diff tool)', async () => {
    const line = fc.constantFrom('}', '', 'a', 'b = 1;', '  c();', 'x');
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 30 }),
        fc.array(line, { minLength: 0, maxLength: 30 }),
        fc.constantFrom('write_file', 'edit_file'),
        fc.boolean(),
        async (before, after, tool, finalNewline) => {
          const oldText = before.join('\n') + (finalNewline ? '\n' : '');
          const newText = after.join('\n') + '\n';
          const { toolset } = project({ 'f.txt': oldText });
          let payload: DiffPayload | undefined;
          const gated = new ApprovalToolset(toolset, {
            approve: (r) => {
              payload = r.payload as unknown as DiffPayload;
              return { approved: false };
            },
          });
          const args =
            tool === 'write_file'
              ? { path: '/f.txt', content: newText }
              : { path: '/f.txt', old_string: oldText, new_string: newText };
          await gated.callTool(tool, args);
          if (!payload || oldText === newText) return;
          const counts = { lines: payload.diffLines, added: payload.added, removed: payload.removed };
          const diff = payload.unifiedDiff;
          const body = bodyLines(diff);
          expect(counts).toEqual({
            lines: diff.split('\n').length - 1,
            added: body.filter((l) => l.startsWith('+')).length,
            removed: body.filter((l) => l.startsWith('-')).length,
          });
          // The same change as a reference diff (its lines, whichever way ties are aligned).
          const reference = bodyLines(createTwoFilesPatch('/f.txt', '/f.txt', oldText, newText));
          expect(body.filter((l) => l.startsWith('+')).length).toBeGreaterThanOrEqual(
            reference.filter((l) => l.startsWith('+')).length,
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it('is the diff a binding records, read or not before it is stored, and its seal holds', async () => {
    const { toolset } = project({ 'a.txt': 'one\ntwo\nthree\n' });
    const requests: ApprovalRequest[] = [];
    const gated = new ApprovalToolset(toolset, {
      approve: (r) => {
        requests.push(r);
        return { approved: false };
      },
    });
    const args = { path: '/a.txt', old_string: 'two', new_string: 'TWO' };
    await gated.callTool('edit_file', args);
    await gated.callTool('edit_file', args);
    const [unread, readFirst] = requests as [ApprovalRequest, ApprovalRequest];
    const shown = (readFirst.payload as unknown as DiffPayload).unifiedDiff;
    expect(shown).toContain('-two\n+TWO\n');
    for (const request of [unread, readFirst]) {
      const binding = createBinding({
        toolName: 'edit_file',
        requested: captureArguments(args),
        payload: request.payload,
        approved: true,
      });
      const stored = JSON.parse(JSON.stringify(binding));
      expect(stored.shownDiff).toBe(shown);
      expect(verifyBinding(stored, { toolName: 'edit_file', args }).ok).toBe(true);
      // An altered diff breaks the seal.
      expect(verifyBinding({ ...stored, shownDiff: `${shown} ` }, { toolName: 'edit_file', args }).ok).toBe(
        false,
      );
    }
  });
});
