// Red team (rt35): edit_lines at the end of a file without a final newline. Promise: the approval payload's
// unifiedDiff (hunk headers included) describes exactly the change written — applied strictly (each hunk
// at its @@ numbers, no search) to the old bytes it gives the new bytes.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { checkShown, cleanup, env } from './rt35-harness.js';

afterEach(cleanup);

async function lastLineOp(before: string, op: Record<string, unknown>, which = -1) {
  const E = env();
  E.write(before);
  const rd: any = await E.gated.callTool('read_file', { path: '/f.txt', hashes: true });
  const anchors: string[] = rd.data.content
    .split('\n')
    .filter(Boolean)
    .map((l: string) => l.split('|')[0]);
  const out: any = await E.gated.callTool('edit_lines', {
    path: '/f.txt',
    operations: [{ ...op, hash: anchors.at(which) }],
    sanity: 'off',
  });
  return { out, payload: E.payloads[0], after: E.disk() };
}

describe('edit_lines insert_after the last line of a file with no final newline', () => {
  it('minimal: 517 one-character lines (1,033 bytes), insert "z" after the last', async () => {
    const before = Array.from({ length: 517 }, (_, i) => String(i % 10)).join('\n');
    const { out, payload, after } = await lastLineOp(before, { op: 'insert_after', content: 'z' });
    expect(out.ok).toBe(true);
    expect(after).toBe(`${before}\nz`);
    // the hunk shows old lines 514..517 (3 context lines + the changed last line)
    expect(payload.unifiedDiff.split('\n')[2]).toBe('@@ -514,4 +514,5 @@');
    expect(checkShown(before, after, payload)).toEqual([]);
  });

  it('3,000 lines "line i": the hunk header is one line too far down', async () => {
    const before = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n');
    const { payload, after } = await lastLineOp(before, { op: 'insert_after', content: '}' });
    expect(checkShown(before, after, payload)).toEqual([]);
  });

  it('property: any file over ~1 KiB, no final newline, insert after the last line', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 4000 }),
        fc.integer({ min: 0, max: 40 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        async (n, w, eol, bom) => {
          const before =
            (bom ? '\ufeff' : '') + Array.from({ length: n }, (_, i) => `${i % 10}`.repeat(w + 1)).join(eol);
          const { payload, after } = await lastLineOp(before, { op: 'insert_after', content: 'z' });
          expect(checkShown(before, after, payload)).toEqual([]);
          cleanup();
        },
      ),
      { numRuns: 40, seed: 35 },
    );
  });
});
