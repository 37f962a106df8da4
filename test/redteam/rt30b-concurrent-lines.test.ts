// Red team (rt30b): one hashed read, then parallel edit_lines calls on distinct lines of the same file through
// different spellings (blocking Promise.all; native: all decided first, then executed in parallel).
// Promise: no update lost, no stale_approval when only these calls changed the file, each edit on its line.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decidePending, executeApproved } from '../../src/approval/native-ledger.js';
import { ApprovalToolset, approveAll, FileSystemToolset, Sandbox } from '../../src/index.js';

const N = 60;
function setup() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt30b-cl-')));
  fs.mkdirSync(path.join(root, 'd'));
  fs.writeFileSync(
    path.join(root, 'd/a.txt'),
    Array.from({ length: N }, (_, i) => `value_${i} = ${i * 7};`).join('\n') + '\n',
  );
  fs.symlinkSync('d', path.join(root, 'ld'));
  fs.symlinkSync('a.txt', path.join(root, 'd/la.txt'));
  return root;
}
const SP = [
  '/d/a.txt',
  'd/a.txt',
  '/ld/a.txt',
  '/d/la.txt',
  '//d/a.txt',
  '/d/../d/a.txt',
  '/ld/la.txt',
  '/./d/a.txt',
];

describe('parallel edit_lines by spellings', () => {
  for (const mode of ['blocking', 'native'] as const)
    it(`${mode}: 8 edits from one read all land on their lines`, async () => {
      for (let round = 0; round < 3; round++) {
        const root = setup();
        const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' }));
        const rd: any = await ts.callTool('read_file', { path: '/d/a.txt', hashes: true });
        const anchors = (rd.data.content as string).split('\n').map((l) => l.split('|')[0]);
        const inputs = SP.map((p, i) => ({
          path: p,
          operations: [
            { op: 'replace_line', hash: anchors[i * 7 + 1], content: `value_${i * 7 + 1} = EDIT${i};` },
          ],
          ...(i % 2
            ? { operations: [{ op: 'insert_after', hash: anchors[i * 7 + 1], content: `inserted_${i};` }] }
            : {}),
        }));
        let out: any[];
        if (mode === 'blocking') {
          const g = new ApprovalToolset(ts, {
            approve: async () => {
              await new Promise((r) => setTimeout(r, Math.random() * 4));
              return { approved: true };
            },
          });
          out = await Promise.all(
            inputs.map((input, i) => g.callTool('edit_lines', input, { toolCallId: `c${i}` })),
          );
        } else {
          for (const [i, input] of inputs.entries())
            expect(
              (await decidePending(ts, approveAll(), { toolName: 'edit_lines', toolCallId: `n${i}`, input }))
                .approved,
            ).toBe(true);
          out = await Promise.all(
            inputs.map((input, i) => executeApproved(ts, 'edit_lines', input, `n${i}`)),
          );
        }
        const lines = fs.readFileSync(path.join(root, 'd/a.txt'), 'utf8').split('\n');
        fs.rmSync(root, { recursive: true, force: true });
        const bad = out
          .map((o, i) => (o.ok ? null : `${SP[i]}: ${o.error.code} ${o.error.message}`))
          .filter(Boolean);
        expect(bad).toEqual([]);
        for (let i = 0; i < SP.length; i++) {
          const at = lines.indexOf(`value_${i * 7 + 1} = ${i % 2 ? (i * 7 + 1) * 7 : `EDIT${i}`};`);
          expect(at, `edit ${i}`).toBeGreaterThanOrEqual(0);
          if (i % 2) expect(lines[at + 1]).toBe(`inserted_${i};`);
        }
      }
    }, 60_000);
});
