import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyPatch } from 'diff';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'edit-result-diff-')));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }));
const file = path.join(dir, 'f.txt');

describe("edit_file's result diff", () => {
  it('is the exact patch when every run is 200 lines or fewer, and elides only runs over 200', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 450 }),
        fc.integer({ min: 0, max: 450 }),
        fc.boolean(),
        async (n, added, removedExtra, finalNewline) => {
          const lines = Array.from({ length: n + removedExtra + 2 }, (_, i) => `<line ${i}>`);
          const before = lines.join('\n') + (finalNewline ? '\n' : '');
          fs.writeFileSync(file, before);
          // Replace lines 1..1+removedExtra (the anchor line kept) with `added` new lines.
          const oldBlock = lines.slice(1, 2 + removedExtra).join('\n');
          const newBlock = [lines[1], ...Array.from({ length: added }, (_, i) => `new ${i}`)].join('\n');
          if (oldBlock === newBlock) return;
          const r = await toolset.callTool('edit_file', {
            path: '/f.txt',
            old_string: oldBlock,
            new_string: newBlock,
          });
          expect(r.ok).toBe(true);
          const diff = String((r as { data: { diff: string } }).data.diff);
          const after = fs.readFileSync(file, 'utf8');
          const shownLines = diff.split('\n');
          if (added <= 200 && removedExtra <= 200) {
            expect(applyPatch(before, diff)).toBe(after);
            expect(diff).not.toContain('more added lines');
          } else {
            expect(shownLines.length).toBeLessThan(430 + 20);
            if (added > 200) {
              expect(diff).toContain(`+… ${added - 200} more added lines …`);
              expect(diff).toContain('+new 0\n');
              expect(diff).toContain(`+new ${added - 1}`);
            }
            if (removedExtra > 200) expect(diff).toContain(`-… ${removedExtra - 200} more removed lines …`);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
