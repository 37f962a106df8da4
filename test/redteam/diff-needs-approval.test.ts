import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { strictHunks } from './diff-harness.js';

const lineArb = fc.constantFrom(
  '',
  '}',
  'a',
  'b',
  'é',
  '😀',
  'x\ry',
  `${'q'.repeat(4096)}1`,
  `${'q'.repeat(4096)}2`,
);
const eolArb = fc.constantFrom('\n', '\r\n');

describe('FileSystemToolset.needsApproval payload diff == what callTool then writes', () => {
  it('write_file and edit_file', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(lineArb, eolArb), { minLength: 1, maxLength: 30 }),
        fc.array(fc.tuple(lineArb, eolArb), { minLength: 0, maxLength: 30 }),
        fc.boolean(),
        async (a, b, useEdit) => {
          const before = a.map(([l, e]) => l + e).join('');
          const after = b.map(([l, e]) => l + e).join('');
          if (before === after) return;
          const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-diff-'));
          try {
            fs.writeFileSync(path.join(dir, 'f.txt'), before);
            const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
            const args =
              useEdit && before.length
                ? { path: '/f.txt', old_string: before, new_string: after }
                : { path: '/f.txt', content: after };
            const tool = 'old_string' in args ? 'edit_file' : 'write_file';
            const na: any = await ts.needsApproval(tool, args);
            if (na.status !== 'needs_approval') return;
            const p = na.payload;
            const out: any = await ts.callTool(tool, args);
            if (!out.ok) return;
            const written = fs.readFileSync(path.join(dir, 'f.txt'), 'utf8');
            if (!p.diffCoarse && p.unifiedDiff) {
              expect(applyPatch(before, p.unifiedDiff, { autoConvertLineEndings: false } as any)).toBe(
                written,
              );
              expect(strictHunks(before, p.unifiedDiff)).toEqual([]);
            }
          } finally {
            fs.rmSync(dir, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 300 },
    );
  }, 300_000);
});
