// rt33: native mode, the person's edited call (approve with overrideArgs) in a batch of several
// calls on one file. The edited call must land as its edit (previewEdit) shows, at its place after
// the earlier calls, or be refused.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { anchorsOf, cleanup, tempDir } from './rt32-harness.js';
import { nativeBatchWith, sha } from './rt33-util.js';

afterEach(cleanup);

async function setup(lines: string[]) {
  const before = `${lines.join('\n')}\n`;
  const dir = tempDir({ 'f.txt': before });
  const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
  const rd: any = await toolset.callTool('read_file', { path: '/f.txt', hashes: true, limit: 2000 });
  return { before, dir, toolset, a: anchorsOf(rd.data.content) };
}

describe('rt33 native + overrideArgs', () => {
  it('property: edit_lines far above, then edit_file (edited by the person) / edit_lines (edited) / patch_file (edited) among braces', async () => {
    let landed = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 30, max: 60 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 15, max: 25 }),
        fc.constantFrom('edit', 'lines', 'patch'),
        fc.constantFrom('}', '', 'Y'),
        async (n, first, target, tool, extra) => {
          const lines = Array(n).fill('}');
          lines[target] = 'T';
          const { before, dir, toolset, a } = await setup(lines);
          const call1 = {
            name: 'edit_lines',
            input: {
              path: '/f.txt',
              operations: [{ op: 'insert_after', hash: a[first], content: 'A' }],
              sanity: 'off',
            },
          };
          // the model's call 2: T -> T2; the person's edit: T -> "T3" plus a line `extra` after it
          let call2: any;
          let edited: any;
          if (tool === 'edit') {
            call2 = { name: 'edit_file', input: { path: '/f.txt', old_string: 'T\n', new_string: 'T2\n' } };
            edited = { ...call2.input, new_string: `T3\n${extra}\n` };
          } else if (tool === 'lines') {
            call2 = {
              name: 'edit_lines',
              input: {
                path: '/f.txt',
                operations: [{ op: 'replace_line', hash: a[target], content: 'T2' }],
                sanity: 'off',
              },
            };
            edited = {
              ...call2.input,
              operations: [{ op: 'replace_line', hash: a[target], content: `T3\n${extra}` }],
            };
          } else {
            const d = (neu: string) =>
              `--- a/f.txt\n+++ b/f.txt\n@@ -${target},3 +${target},${2 + neu.split('\n').length} @@\n }\n-T\n${neu
                .split('\n')
                .map((l) => `+${l}`)
                .join('\n')}\n }\n`;
            call2 = {
              name: 'patch_file',
              input: { path: '/f.txt', base_sha256: sha(before), unified_diff: d('T2') },
            };
            edited = { ...call2.input, unified_diff: d(`T3\n${extra}`) };
          }
          let preview: any;
          const r = await nativeBatchWith(dir, toolset, [call1, call2], async (req, i) => {
            if (i !== 1) return { approved: true };
            preview = await req.previewEdit?.(edited);
            return { approved: true, overrideArgs: edited };
          });
          cleanup();
          // edit_lines content "T3\n" is one line (a trailing newline ends it)
          const repl = tool === 'lines' && extra === '' ? 'T3' : `T3\n${extra}`;
          const withA = lines.slice();
          withA.splice(first + 1, 0, 'A');
          const only1 = `${withA.join('\n')}\n`;
          const both = `${withA.join('\n')}\n`.replace('\nT\n', `\n${repl}\n`);
          const ctx = JSON.stringify({
            n,
            first,
            target,
            tool,
            extra,
            after: r.after,
            res: [...r.results.values()],
          });
          expect([only1, both], ctx).toContain(r.after);
          if (r.after === both) landed++;
          // what the person confirmed (previewEdit) applied to the file as it was shown is the edit
          if (preview?.payload?.unifiedDiff) {
            const { applyShown } = await import('./rt32-harness.js');
            expect(applyShown(before, preview.payload.unifiedDiff), ctx).toBe(
              before.replace('\nT\n', `\n${repl}\n`),
            );
          }
        },
      ),
      { numRuns: 60 },
    );
    // Held: the edited call never landed anywhere else. (In fact it never lands at all: see below.)
    void landed;
  }, 300_000);

  // GAP (not a safety break): in a native batch, the same later call that lands when approved as the
  // model sent it (rebased past call 1) is ALWAYS refused once the person edits it (overrideArgs), and
  // the refusal says "/f.txt was replaced by another file, so the approved change was not applied (the
  // user approved it for another file)" — the file was only edited by call 1 of the same batch.
  // approval.md: "The native helpers honour ... overrideArgs" and "Several approved calls on one file
  // from the same step can all apply". Repro: 30 x "}", line 16 = "T"; call 1 edit_lines insert_after
  // line 1 "A"; call 2 edit_file "T\n" -> "T2\n", approved with overrideArgs new_string "T3\n}\n".
  it.fails("an edited later call is rebased like the model's own", async () => {
    const lines = Array(30).fill('}');
    lines[15] = 'T';
    const { dir, toolset, a } = await setup(lines);
    const call2 = { name: 'edit_file', input: { path: '/f.txt', old_string: 'T\n', new_string: 'T2\n' } };
    const r = await nativeBatchWith(
      dir,
      toolset,
      [
        {
          name: 'edit_lines',
          input: { path: '/f.txt', operations: [{ op: 'insert_after', hash: a[0], content: 'A' }] },
        },
        call2,
      ],
      (_req, i) =>
        i === 1
          ? { approved: true, overrideArgs: { ...call2.input, new_string: 'T3\n}\n' } }
          : { approved: true },
    );
    const out = JSON.stringify(r.results.get('c1'));
    expect(out).not.toMatch(/replaced by another file/);
    expect(r.after).toBe(`}\nA\n${'}\n'.repeat(14)}T3\n}\n${'}\n'.repeat(14)}`);
  });

  it('an edited later call that is refused says an earlier call of the batch changed the file', async () => {
    const lines = Array(30).fill('}');
    lines[15] = 'T';
    const { dir, toolset, a } = await setup(lines);
    const call2 = { name: 'edit_file', input: { path: '/f.txt', old_string: 'T\n', new_string: 'T2\n' } };
    const r = await nativeBatchWith(
      dir,
      toolset,
      [
        {
          name: 'edit_lines',
          input: { path: '/f.txt', operations: [{ op: 'insert_after', hash: a[0], content: 'A' }] },
        },
        call2,
      ],
      (_req, i) =>
        i === 1
          ? { approved: true, overrideArgs: { ...call2.input, new_string: 'T3\n}\n' } }
          : { approved: true },
    );
    const out = JSON.stringify(r.results.get('c1'));
    expect(out).toMatch(/stale_approval/);
    expect(out).toMatch(/changed by an earlier approved call of the same batch/);
    expect(out).not.toMatch(/replaced by another file/);
    expect(r.after).toBe(`}\nA\n${'}\n'.repeat(14)}T\n${'}\n'.repeat(14)}`);
  });
});
