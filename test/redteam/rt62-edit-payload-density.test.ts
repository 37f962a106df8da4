// rt62: the approval payload diff of edit_file / edit_lines (replace_range) / patch_file when the edited
// region is a period-3 text with 10% of its lines deleted (the input of rt62-write-diff-density's first
// case, framed by a unique HEAD and TAIL line). Each tool writes exactly what was asked, but the diff the
// person approves shows +709 −808 where 99 lines were deleted and nothing was added (Myers: +0 −99). The
// docs promise "the lines between two changes are never shown as removed and added again".
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';
import { seededRandom } from '../helpers/seeded-rng.js';
import { applies, text } from './rt62-helpers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const rnd = seededRandom(1);
const A = Array.from({ length: 850 }, (_, i) => String(i % 3));
const B = A.filter(() => rnd() >= 0.1); // 99 lines deleted
const BEFORE = text(['HEAD', ...A, 'TAIL']);
const AFTER = text(['HEAD', ...B, 'TAIL']);

async function gated(run: (g: ApprovalToolset, inner: FileSystemToolset) => Promise<any>) {
  const dir = mkdtempSync(join(os.tmpdir(), 'rt62-ep-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'f.txt'), BEFORE);
  const inner = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), {
    limits: { readMaxLines: 10_000, readMaxChars: 1 << 24 },
  });
  let payload: any;
  const g = new ApprovalToolset(inner, {
    approve: (req) => {
      payload = structuredClone(req.payload);
      return { approved: true };
    },
  });
  const outcome = await run(g, inner);
  return { outcome, payload, disk: readFileSync(join(dir, 'f.txt'), 'utf8') };
}

function check(r: { outcome: any; payload: any; disk: string }) {
  expect(r.outcome.ok, r.outcome.error?.message).toBe(true);
  expect(r.disk).toBe(AFTER); // holds: the edit is exact
  expect(applies(BEFORE, AFTER, r.payload.unifiedDiff)).toBe(true); // holds: the diff is exact
  console.log({ added: r.payload.added, removed: r.payload.removed, coarse: r.payload.diffCoarse });
  expect([r.payload.added, r.payload.removed]).toEqual([0, A.length - B.length]); // actual [709, 808]
}

describe('rt62: edit payload diffs of a dense deletion in periodic text', () => {
  it('FINDING: edit_file (old_string = HEAD + region, new_string = HEAD + region minus 99 lines)', async () => {
    check(
      await gated((g) =>
        g.callTool('edit_file', {
          path: '/f.txt',
          old_string: text(['HEAD', ...A]),
          new_string: text(['HEAD', ...B]),
        }),
      ),
    );
  });

  it('FINDING: edit_lines replace_range over the region', async () => {
    check(
      await gated(async (g, inner) => {
        const rd = (await inner.callTool('read_file', { path: '/f.txt', hashes: true })) as any;
        const rows = rd.data.content.split('\n');
        return g.callTool('edit_lines', {
          path: '/f.txt',
          operations: [
            {
              op: 'replace_range',
              start_hash: rows[1].split('|')[0],
              end_hash: rows[A.length].split('|')[0],
              content: text(B),
            },
          ],
        });
      }),
    );
  });

  it('FINDING: patch_file with one hunk removing the region and adding it back minus 99 lines', async () => {
    check(
      await gated(async (g, inner) => {
        const st = (await inner.callTool('read_file', { path: '/f.txt', limit: 1 })) as any;
        const diff = `--- a/f.txt\n+++ b/f.txt\n@@ -1,${A.length + 1} +1,${B.length + 1} @@\n HEAD\n${A.map((l) => `-${l}\n`).join('')}${B.map((l) => `+${l}\n`).join('')}`;
        return g.callTool('patch_file', { path: '/f.txt', unified_diff: diff, base_sha256: st.data.sha256 });
      }),
    );
  });
});
