// Red team rt54: big diffs written when first read — replace_all over 200k lines, big windows
// (files over 64 KiB take the splice-window path), CRLF / no final newline / non-ASCII / lone CR,
// read long after the decision, after the file changed, from another task; or never read in the
// callback and only serialised afterwards. The diff applied strictly must give the bytes written.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';
import { applyStrict, countProblems, project, sha, sleep } from './rt54-helpers.js';

type DiffPayload = {
  unifiedDiff: string;
  diffLines: number;
  added: number;
  removed: number;
  diffCoarse?: boolean;
};

async function approveAndKeep(
  before: string,
  tool: string,
  args: Record<string, unknown>,
  mutateAfter?: (host: string) => void,
) {
  const { dir } = project({ 'f.txt': before });
  const host = path.join(dir, 'f.txt');
  const tools = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), {
    limits: { diffTimeBudgetMs: 20_000 },
  });
  let payload: DiffPayload | undefined;
  const gated = new ApprovalToolset(tools, {
    approve: (req) => {
      payload ??= req.payload as unknown as DiffPayload; // not read here
      return { approved: true };
    },
  });
  const outcome = await gated.callTool(tool, { path: '/f.txt', ...args });
  const written = fs.readFileSync(host, 'utf8');
  mutateAfter?.(host);
  // A second call on the same file before the first diff is read.
  await gated.callTool('write_file', { path: '/f.txt', content: 'replaced\n' });
  await sleep(30);
  return { outcome, written, payload };
}

function check(
  before: string,
  written: string,
  p: DiffPayload | undefined,
  how: 'direct' | 'json' = 'direct',
) {
  expect(p).toBeDefined();
  expect(p!.diffCoarse ?? false).toBe(false);
  const diff = how === 'json' ? JSON.parse(JSON.stringify(p)).unifiedDiff : p!.unifiedDiff;
  const applied = applyStrict(before, diff);
  if (applied !== written) {
    expect(applied.slice(0, 300)).toBe(written.slice(0, 300));
    expect(applied.length).toBe(written.length);
    expect(applied === written).toBe(true);
  }
  expect(countProblems({ ...p!, unifiedDiff: diff })).toEqual([]);
}

const N = 200_000;

describe('rt54: big lazy diffs', () => {
  it('replace_all on every one of 200k lines, CRLF, no final newline, read after a second call', async () => {
    const lines = Array.from({ length: N }, (_, i) => `v${i % 7} = tok;`);
    const before = lines.join('\r\n');
    const r = await approveAndKeep(before, 'edit_file', {
      old_string: 'tok',
      new_string: 'TOKEN',
      replace_all: true,
    });
    expect(r.outcome.ok).toBe(true);
    check(before, r.written, r.payload);
  });

  it('replace_all that joins lines (every hit ends a line), non-ASCII, JSON of the payload later', async () => {
    const lines = Array.from({ length: N / 2 }, (_, i) => `é${i % 13};`);
    const before = `${lines.join('\n')}\n`;
    const r = await approveAndKeep(before, 'edit_file', {
      old_string: ';\n',
      new_string: '; ',
      replace_all: true,
    });
    expect(r.outcome.ok).toBe(true);
    check(before, r.written, r.payload, 'json');
  });

  it('replace_all that splits lines, lone CRs inside lines, file replaced on disk before the read', async () => {
    const lines = Array.from({ length: N / 2 }, (_, i) => `a\r${i % 5}|b`);
    const before = `${lines.join('\n')}\n`;
    const r = await approveAndKeep(
      before,
      'edit_file',
      { old_string: '|', new_string: '\n', replace_all: true },
      (host) => fs.writeFileSync(host, 'other bytes\n'),
    );
    expect(r.outcome.ok).toBe(true);
    check(before, r.written, r.payload);
  });

  it('generated single edits in a >64 KiB file (the splice window), at the start, middle, end', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 3999 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.constantFrom('', 'X', 'X\nY', '\n', 'é\u2028z'),
        fc.boolean(),
        async (at, eol, finalNewline, replacement, twice) => {
          const lines = Array.from(
            { length: 4000 },
            (_, i) => `line ${i} ${'pad'.repeat(8)} ${i % 3 ? '}' : ''}`,
          );
          const before = lines.join(eol) + (finalNewline ? eol : '');
          const unique = `line ${at} `;
          const r = await approveAndKeep(before, 'edit_file', {
            old_string: twice ? `${unique}${'pad'.repeat(8)}` : unique,
            new_string: `${replacement}`,
          });
          if (!r.outcome.ok) return;
          check(before, r.written, r.payload);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('write_file overwrite of a 200k-line file changed at sparse places, diff read 200 ms later', async () => {
    const lines = Array.from({ length: N }, (_, i) => `row ${i}`);
    const before = `${lines.join('\n')}\n`;
    const after = lines.map((l, i) => (i % 20_000 === 7 ? `${l} changed` : l));
    after.splice(100_000, 0, 'inserted');
    const content = `${after.join('\n')}`;
    const r = await approveAndKeep(before, 'write_file', { content });
    await sleep(200);
    expect(r.outcome.ok).toBe(true);
    check(before, r.written, r.payload);
  });

  it('patch_file of many hunks over a 100k-line CRLF file, never read until after', async () => {
    const lines = Array.from({ length: 100_000 }, (_, i) => `p${i}`);
    const before = `${lines.join('\r\n')}\r\n`;
    const hunks: string[] = [];
    for (let i = 500; i < 100_000; i += 1000)
      hunks.push(`@@ -${i + 1},3 +${i + 1},3 @@\n p${i}\n-p${i + 1}\n+P${i + 1}\n p${i + 2}\n`);
    const diff = `--- a/f.txt\n+++ b/f.txt\n${hunks.join('')}`;
    const r = await approveAndKeep(before, 'patch_file', { unified_diff: diff, base_sha256: sha(before) });
    expect(r.outcome.ok).toBe(true);
    check(before, r.written, r.payload);
  });
});
