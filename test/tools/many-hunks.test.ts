// patch_file with many hunks and edit_lines with many operations: past the first few, hunks are
// located and anchors resolved through lines grouped by hash (not a pass over the file each).
// The outcome must be the same as for a handful: the bytes a reference gives, or the same refusal.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { err, ok, project } from './fixture.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** Lines that are mostly unique, with repeated ones (`}`, blank) between, some with trailing spaces. */
function fileLines(n: number, spaced: Set<number>): string[] {
  return Array.from({ length: n }, (_, i) =>
    i % 4 === 3 ? '}' : i % 7 === 6 ? '' : `row ${i} value${spaced.has(i) ? '  ' : ''}`,
  );
}

/** What replaces line i: brackets kept, so the sanity check has nothing to say. */
const edited = (lines: readonly string[], i: number) =>
  lines[i] === '}' ? `} // edited ${i}` : `edited ${i}`;

/** A hunk replacing line i, with one context line each side, written without trailing spaces. */
function hunk(lines: readonly string[], i: number, replacement: string): string {
  const ctx = (l: string) => ` ${l.trimEnd()}`;
  return [
    `@@ -${i},3 +${i},3 @@`,
    ctx(lines[i - 1]!),
    `-${lines[i]!.trimEnd()}`,
    `+${replacement}`,
    ctx(lines[i + 1]!),
  ].join('\n');
}

describe('patch_file with many hunks', () => {
  it('applies every hunk as the reference does, exact and whitespace-slipped alike', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: 398 }), { minLength: 1, maxLength: 40 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 399 }), { maxLength: 60 }),
        async (picked, spacedAt) => {
          // Hunks must not overlap: keep lines at least 3 apart.
          const at = [...picked].sort((a, b) => a - b).filter((v, k, all) => k === 0 || v - all[k - 1]! >= 3);
          const lines = fileLines(400, new Set(spacedAt));
          const before = `${lines.join('\n')}\n`;
          const { dir, toolset } = project({ 'f.txt': before });
          const want = [...lines];
          for (const i of at) want[i] = edited(lines, i);
          const diff = `--- a/f.txt\n+++ b/f.txt\n${at.map((i) => hunk(lines, i, edited(lines, i))).join('\n')}\n`;
          const outcome = await toolset.callTool('patch_file', {
            path: '/f.txt',
            unified_diff: diff,
            base_sha256: sha(before),
          });
          // A hunk of only repeated lines ("}", blank) can match more than one place: refused whole.
          if (!outcome.ok) {
            expect(err(outcome).code).toBe('invalid_diff');
            expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe(before);
            return;
          }
          ok(outcome);
          expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe(`${want.join('\n')}\n`);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses a hunk past the first few that matches two places, naming both, and writes nothing', async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => (i === 1500 || i === 1700 ? 'twin' : `row ${i}`));
    const before = `${lines.join('\n')}\n`;
    const { dir, toolset } = project({ 'f.txt': before });
    const hunks = Array.from(
      { length: 20 },
      (_, k) => `@@ -${k * 50 + 1},1 +${k * 50 + 1},1 @@\n-row ${k * 50}\n+new ${k * 50}`,
    );
    hunks.push('@@ -1501,1 +1501,1 @@\n-twin\n+one');
    const outcome = await toolset.callTool('patch_file', {
      path: '/f.txt',
      unified_diff: `--- a/f.txt\n+++ b/f.txt\n${hunks.join('\n')}\n`,
      base_sha256: sha(before),
    });
    const e = err(outcome);
    expect(e.code).toBe('invalid_diff');
    expect(e.message).toContain('matches 2 places (lines 1501, 1701)');
    expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe(before);
  });

  it('refuses a hunk past the first few that only matches before the previous one (out of order)', async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `row ${i}`);
    const before = `${lines.join('\n')}\n`;
    const { toolset } = project({ 'f.txt': before });
    const hunks = Array.from(
      { length: 20 },
      (_, k) => `@@ -${k * 50 + 101},1 +${k * 50 + 101},1 @@\n-row ${k * 50 + 100}\n+new`,
    );
    hunks.push('@@ -11,1 +11,1 @@\n-row 10\n+new');
    const e = err(
      await toolset.callTool('patch_file', {
        path: '/f.txt',
        unified_diff: `--- a/f.txt\n+++ b/f.txt\n${hunks.join('\n')}\n`,
        base_sha256: sha(before),
      }),
    );
    expect(e.details).toMatchObject({ reason: 'out_of_order' });
  });
});

describe('edit_lines with many operations', () => {
  it('resolves every anchor of a hashed read, with slipped line numbers, as for one', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 0, max: 599 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: -3, max: 3 }),
        async (picked, slip) => {
          const lines = fileLines(600, new Set());
          const before = `${lines.join('\n')}\n`;
          const { dir, toolset } = project({ 'f.txt': before });
          const read = ok<{ content: string }>(
            await toolset.callTool('read_file', { path: '/f.txt', hashes: true }),
          );
          const anchors = read.content.split('\n').map((l) => l.slice(0, l.indexOf('|')));
          const at = [...picked].sort((a, b) => a - b);
          const operations = at.map((i) => {
            const hash = anchors[i]!.split('#')[1]!;
            const line = Math.min(600, Math.max(1, i + 1 + slip));
            return { op: 'replace_line', hash: `${line}#${hash}`, content: edited(lines, i) };
          });
          ok(await toolset.callTool('edit_lines', { path: '/f.txt', operations }));
          const want = [...lines];
          for (const i of at) want[i] = edited(lines, i);
          expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe(`${want.join('\n')}\n`);
        },
      ),
      { numRuns: 40 },
    );
  });
});
