// rt63: exactness of the approval diff of write_file / edit_file / patch_file / edit_lines over whole classes of
// small inputs: periodic and low-entropy text with dense edits, block moves, reversed / duplicated blocks, LF /
// CRLF / lone CR / mixed ends, missing final newline, BOM, very long lines, astral characters, NUL bytes. The
// diff must turn the old bytes into the bytes the tool actually wrote, and be near git's count.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { anchors, applies, cleanupRt63, gatedRun, gitCounts } from './rt63-helpers.js';
import { build, type Shape, shape } from './rt63-shapes.js';

afterEach(cleanupRt63);

const lineCount = (t: string) => (t.match(/[^\n]*\n|[^\n]+$/g) ?? []).length;

/** Checks one run: the diff applies to `before` giving the written bytes; counts match the diff; near git. */
function check(tool: string, g: Shape, before: string, r: Awaited<ReturnType<typeof gatedRun>>, stats: any) {
  if (!r.outcome.ok) {
    stats.refused[r.outcome.error.code] = (stats.refused[r.outcome.error.code] ?? 0) + 1;
    return;
  }
  stats.ran++;
  const written = r.disk.toString('utf8');
  const p = r.payload;
  if (written === before) return;
  const ok = applies(before, written, p.unifiedDiff);
  const body = p.unifiedDiff.split('\n').filter((l: string) => !l.startsWith('---') && !l.startsWith('+++'));
  const plus = body.filter((l: string) => l.startsWith('+')).length;
  const minus = body.filter((l: string) => l.startsWith('-')).length;
  const gc = gitCounts(before, written);
  const ctx = JSON.stringify({
    tool,
    g,
    lib: [p.added, p.removed, p.diffCoarse],
    git: [gc.added, gc.removed],
  });
  expect(ok, `diff does not apply: ${ctx}`).toBe(true);
  expect([plus, minus], `counts vs diff body: ${ctx}`).toEqual([p.added, p.removed]);
  expect(p.diffCoarse ?? false, ctx).toBe(false);
  expect(p.added + p.removed, `not near git: ${ctx}`).toBeLessThanOrEqual(1.1 * (gc.added + gc.removed) + 2);
}

const RUNS = 120;
const newStats = () => ({ ran: 0, refused: {} as Record<string, number> });

describe('rt63 holds: approval diffs are exact on every byte shape (small inputs)', () => {
  it('holds: write_file', async () => {
    const stats = newStats();
    await fc.assert(
      fc.asyncProperty(shape, async (g) => {
        const { before, after } = build(g);
        const r = await gatedRun(before, async () => ['write_file', { path: '/f.txt', content: after }]);
        check('write_file', g, before, r, stats);
      }),
      { numRuns: RUNS, seed: 6301 },
    );
    console.log('write_file', stats);
  }, 120_000);

  it('holds: edit_file (old_string = whole text)', async () => {
    const stats = newStats();
    await fc.assert(
      fc.asyncProperty(shape, async (g) => {
        const { before, after } = build(g);
        if (before === '' || before === after) return;
        const r = await gatedRun(before, async () => [
          'edit_file',
          { path: '/f.txt', old_string: before, new_string: after },
        ]);
        check('edit_file', g, before, r, stats);
      }),
      { numRuns: RUNS, seed: 6302 },
    );
    console.log('edit_file', stats);
  }, 120_000);

  it('holds: patch_file (one hunk replacing every line)', async () => {
    const stats = newStats();
    await fc.assert(
      fc.asyncProperty(shape, async (g) => {
        const { before, after } = build(g);
        if (before === after) return;
        const split = (t: string) => t.match(/[^\n]*\n|[^\n]+$/g) ?? [];
        const body = (ls: string[], s: string) =>
          ls
            .map((l) => (l.endsWith('\n') ? `${s}${l}` : `${s}${l}\n\\ No newline at end of file\n`))
            .join('');
        const A = split(before);
        const B = split(after);
        const diff = `--- a/f.txt\n+++ b/f.txt\n@@ -1,${A.length} +1,${B.length} @@\n${body(A, '-')}${body(B, '+')}`;
        const r = await gatedRun(before, async (inner) => {
          const st = (await inner.callTool('read_file', { path: '/f.txt', limit: 1 })) as any;
          return ['patch_file', { path: '/f.txt', unified_diff: diff, base_sha256: st.data?.sha256 ?? 'x' }];
        });
        check('patch_file', g, before, r, stats);
      }),
      { numRuns: RUNS, seed: 6303 },
    );
    console.log('patch_file', stats);
  }, 120_000);

  it('holds: edit_lines (replace_range over the whole file)', async () => {
    const stats = newStats();
    await fc.assert(
      fc.asyncProperty(shape, async (g) => {
        const { before, after } = build(g);
        if (before === after || lineCount(before) < 1 || before.includes('\u0000')) return;
        const r = await gatedRun(before, async (inner) => {
          const h = await anchors(inner);
          const n = lineCount(before);
          if (n === 1)
            return [
              'edit_lines',
              {
                path: '/f.txt',
                sanity: 'off',
                operations: [{ op: 'replace_line', hash: h[0], content: after }],
              },
            ];
          return [
            'edit_lines',
            {
              path: '/f.txt',
              sanity: 'off',
              operations: [
                { op: 'replace_range', start_hash: h[0], end_hash: h[lineCount(before) - 1], content: after },
              ],
            },
          ];
        });
        check('edit_lines', g, before, r, stats);
      }),
      { numRuns: RUNS, seed: 6304 },
    );
    console.log('edit_lines', stats);
  }, 120_000);
});
