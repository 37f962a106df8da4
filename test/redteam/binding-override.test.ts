import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset } from '../../src/approval/approval-toolset.js';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { snapshot, tempDir } from '../helpers/temp-project.js';

const P = (dir: string, rel: string) => path.join(dir, rel);

describe('overrideArgs pointing at another file, previewed, then that file is swapped', () => {
  for (const [name, swap] of [
    [
      'parent dir of the edited path swapped for an equal copy',
      (d: string) => {
        fs.renameSync(P(d, 'e'), P(d, 'x'));
        fs.cpSync(P(d, 'x'), P(d, 'e'), { recursive: true });
      },
    ],
    [
      'edited path replaced by a same-bytes file',
      (d: string) => {
        fs.writeFileSync(P(d, 'e/b.tmp'), 'bee\n');
        fs.renameSync(P(d, 'e/b.tmp'), P(d, 'e/b.txt'));
      },
    ],
    [
      'edited path replaced by a link to a victim with equal bytes',
      (d: string) => {
        fs.rmSync(P(d, 'e/b.txt'));
        fs.symlinkSync('../victim.txt', P(d, 'e/b.txt'));
      },
    ],
  ] as const) {
    it(name, async () => {
      const dir = tempDir({ 'a.txt': 'a\n', 'e/b.txt': 'bee\n', 'victim.txt': 'bee\n' });
      const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
      let after = {};
      let preview = '';
      const gated = new ApprovalToolset(toolset, {
        approve: async (r: ApprovalRequest) => {
          const overrideArgs = { path: '/e/b.txt', content: 'edited\n' };
          const pv = await (r as unknown as { previewEdit?: (a: unknown) => Promise<unknown> }).previewEdit?.(
            overrideArgs,
          );
          preview = JSON.stringify(pv);
          swap(dir);
          after = snapshot(dir);
          return { approved: true, overrideArgs };
        },
      });
      const o = await gated.callTool('write_file', { path: '/a.txt', content: 'z\n' });
      expect(preview).toContain('bee');
      expect(snapshot(dir)).toEqual(after);
      expect(o.ok ? 'ok' : o.error.code).toBe('stale_approval');
    });
  }
});
